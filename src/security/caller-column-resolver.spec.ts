import { columnOf, resourceOf } from '../../test/support/resource-shapes.js';
import { describe, expect, it } from '@jest/globals';
import type { Principal } from '../common/principal.js';
import { parseFilter } from '../data/query/filter-parser.js';
import { compileFilter } from '../data/query/sql-compiler.js';
import { positionalParams } from '../data/query/compile-context.js';
import type { ResourceRegistry } from '../data/resource-registry.js';
import { CallerColumnResolver } from './caller-column-resolver.js';
import { ResourceAccess } from './resource-access.js';
import { RoleBank } from './role-bank.js';

const customer = resourceOf('customer', [
  columnOf('name', 'string', true),
  columnOf('balance', 'decimal'),
  columnOf('credit_limit', 'decimal'),
]);
const order = resourceOf(
  'purchaseorder',
  [columnOf('order_number', 'integer', true), columnOf('customer_name', 'string'), columnOf('salesrep_id', 'integer')],
  [{ name: 'customer', parent: 'customer', columns: [{ child: 'customer_name', parent: 'name' }] }],
);
const registry = { find: (name: string) => [customer, order].find((r) => r.name === name) } as unknown as ResourceRegistry;

const bank = new RoleBank(
  registry,
  {
    globals: ['employee_id', 'own'],
    roles: [
      {
        name: 'Sales rep',
        defaultAccess: 'NONE',
        resources: {
          customer: { access: ['READ'], readColumns: ['name', 'balance'] },
          purchaseorder: { access: ['ALL'], rowFilter: 'salesrep_id = @{employee_id}' },
        },
      },
      {
        name: 'Own customer',
        defaultAccess: 'NONE',
        resources: { customer: { access: ['READ'], rowFilter: 'name = @{own}' }, purchaseorder: { access: ['READ'] } },
      },
      {
        name: 'Totals only',
        defaultAccess: 'NONE',
        resources: { purchaseorder: { access: ['READ'], readColumns: ['order_number'] }, customer: { access: ['READ'] } },
      },
    ],
  },
  'sqlite',
);

function compile(roles: string[], filter: string, globals: Record<string, string | number> = {}) {
  const principal: Principal = { tokenId: 1, userIdentifier: null, roleNames: roles, globals };
  const params = positionalParams();
  const columns = new CallerColumnResolver(ResourceAccess.of(bank, principal, order), registry, 'sqlite');
  return { sql: compileFilter(parseFilter(filter), { columns, params, dialect: 'sqlite' }), values: params.values };
}

describe('CallerColumnResolver', () => {
  it('refuses a parent column the caller cannot read on the parent, and a path through a hidden relation column', () => {
    expect(() => compile(['Sales rep'], 'customer.credit_limit > 1')).toThrow('unknown column "customer.credit_limit"');
    expect(() => compile(['Totals only'], "customer.name = 'x'")).toThrow('unknown column "customer.name"');
  });

  it('reads a parent column plainly where every parent row shows it', () => {
    expect(compile(['Sales rep'], 'customer.balance > 1', { employee_id: 1 })).toEqual({
      sql: '((SELECT "tp"."balance" FROM "customer" "tp" WHERE "tp"."name" = "t"."customer_name") > ?)',
      values: ['1'],
    });
  });

  it('guards a parent column with the row filters of the roles that show it, globals bound in order', () => {
    expect(compile(['Own customer'], '5 < customer.credit_limit', { own: 'Alpha' })).toEqual({
      sql: '(? < (SELECT "tp"."credit_limit" FROM "customer" "tp" WHERE "tp"."name" = "t"."customer_name" AND (("tp"."name" = ?))))',
      values: ['5', 'Alpha'],
    });
  });
});
