import { beforeAll, describe, expect, it } from '@jest/globals';
import { registryOf } from '../../test/support/registry.js';
import type { GlobalValues } from '../common/global-values.js';
import type { Principal } from '../common/principal.js';
import { RegistryColumnResolver } from '../data/column-resolver.js';
import type { Resource, ResourceRegistry } from '../data/resource-registry.js';
import { paramsFor } from '../data/row-store.js';
import type { Dialect } from '../database/dialect.js';
import { demoProject } from '../demo/project.js';
import { ResourceAccess, type SqlContext } from './resource-access.js';
import { RoleBank, type Grant } from './role-bank.js';
import type { Operation, ResourcePermission, RoleDefinition } from './role-definition.js';

let registry: ResourceRegistry;
let bank: RoleBank;
let customer: Resource;
let product: Resource;
let purchaseorder: Resource;
let lineitem: Resource;

/** A role with access to one resource only. */
const onOne = (name: string, resource: string, permission: ResourcePermission): RoleDefinition => ({
  name,
  defaultAccess: 'NONE',
  resources: { [resource]: permission },
});

beforeAll(async () => {
  registry = await registryOf(demoProject.entities);
  customer = registry.get('customer');
  product = registry.get('product');
  purchaseorder = registry.get('purchaseorder');
  lineitem = registry.get('lineitem');
  bank = new RoleBank(
    registry,
    {
      globals: ['employee_id', 'region'],
      roles: [
        { name: 'Reader', defaultAccess: 'READ' },
        { name: 'Nobody', defaultAccess: 'NONE' },
        { name: 'No products', defaultAccess: 'ALL', resources: { product: { access: [] } } },
        {
          name: 'Sales rep',
          defaultAccess: 'NONE',
          resources: {
            customer: { access: ['READ'], readColumns: ['name', 'balance'] },
            purchaseorder: { access: ['ALL'], rowFilter: 'salesrep_id = @{employee_id}' },
            lineitem: { access: ['ALL'], rowFilter: 'purchaseorder.salesrep_id = @{employee_id}' },
          },
        },
        onOne('Auditor', 'purchaseorder', { access: ['READ'], readColumns: ['order_number', 'amount_total'] }),
        onOne('Numbers', 'purchaseorder', { access: ['READ'], readColumns: ['order_number'] }),
        onOne('Own notes', 'purchaseorder', {
          access: ['READ', 'UPDATE'],
          rowFilter: 'notes = @{_apikey.user_identifier}',
          readColumns: ['order_number', 'notes'],
          writeColumns: ['notes'],
        }),
        onOne('Regional', 'purchaseorder', { access: ['READ'], rowFilter: 'customer_name = @{region} and salesrep_id <> @{employee_id}' }),
        onOne('Writer', 'customer', { access: ['INSERT', 'UPDATE'], writeColumns: ['name', 'credit_limit'] }),
        onOne('Creator', 'customer', { access: ['INSERT'], writeColumns: ['name', 'balance'] }),
        // readColumns on a grant without READ: they must count for nothing
        onOne('Fixer', 'purchaseorder', { access: ['UPDATE'], rowFilter: 'paid = false', readColumns: ['notes'] }),
      ],
    },
    'sqlite',
  );
});

function principal(roleNames: string[], globals: GlobalValues = {}, userIdentifier: string | null = null): Principal {
  return { tokenId: 1, userIdentifier, roleNames, globals };
}

function accessOf(roleNames: string[], resource: Resource, globals: GlobalValues = {}, userIdentifier: string | null = null) {
  return ResourceAccess.of(bank, principal(roleNames, globals, userIdentifier), resource);
}

/** Compiles what `build` asks of a resource's table (alias `t`, the system's view of its columns), with fresh parameters. */
function sqlFor(resource: Resource, dialect: Dialect, build: (sql: SqlContext) => string | undefined) {
  const params = paramsFor(dialect);
  const sql = build({ columns: new RegistryColumnResolver(resource, registry, dialect), params, dialect });
  return { sql, values: params.values };
}

function rowPredicate(access: ResourceAccess, operation: Operation, dialect: Dialect = 'sqlite') {
  return sqlFor(access.resource, dialect, (sql) => access.rowPredicate(operation, sql));
}

const rolesOf = (grants: readonly Grant[]): string[] => grants.map((g) => g.role);
const sorted = (columns: ReadonlySet<string> | undefined): string[] | undefined => (columns ? [...columns].sort() : undefined);

describe('ResourceAccess: whose grants count', () => {
  it('unites the grants of every role the principal has, in the order of its role names', () => {
    const access = accessOf(['Auditor', 'Sales rep'], purchaseorder);
    expect(access.resource).toBe(purchaseorder);
    expect(rolesOf(access.grants)).toEqual(['Auditor', 'Sales rep']);
    expect(access.grants[1]).toBe(bank.get('Sales rep')!.grants.get('purchaseorder'));
  });

  it('counts a role named twice once', () => {
    expect(rolesOf(accessOf(['Auditor', 'Auditor'], purchaseorder).grants)).toEqual(['Auditor']);
  });

  it('lets an unknown role name grant nothing, beside known ones or alone', () => {
    expect(accessOf(['Gone'], purchaseorder).grants).toEqual([]);
    expect(rolesOf(accessOf(['Gone', 'Auditor', 'reader'], purchaseorder).grants)).toEqual(['Auditor']);
  });

  it('gives a resource the role does not name its default access, and none for NONE', () => {
    const reader = accessOf(['Reader'], product);
    expect(reader.grants).toEqual([{ role: 'Reader', operations: new Set(['READ']) }]);
    expect(accessOf(['Nobody'], product).grants).toEqual([]);
    expect(rolesOf(accessOf(['Sales rep'], product).grants)).toEqual([]);
    expect(rolesOf(accessOf(['No products'], customer).grants)).toEqual(['No products']);
  });

  it('lets a resource named with no access override the default', () => {
    expect(accessOf(['No products'], product).grants).toEqual([]);
    expect(rolesOf(accessOf(['No products', 'Reader'], product).grants)).toEqual(['Reader']);
  });
});

describe('ResourceAccess: operations', () => {
  it('can do what some grant allows', () => {
    const auditor = accessOf(['Auditor'], purchaseorder);
    expect([auditor.can('READ'), auditor.can('INSERT'), auditor.can('UPDATE'), auditor.can('DELETE')]).toEqual([true, false, false, false]);
    const both = accessOf(['Auditor', 'Own notes'], purchaseorder);
    expect([both.can('READ'), both.can('INSERT'), both.can('UPDATE'), both.can('DELETE')]).toEqual([true, false, true, false]);
    expect(accessOf(['Nobody', 'Gone'], purchaseorder).can('READ')).toBe(false);
    expect(accessOf(['No products'], customer).can('DELETE')).toBe(true);
  });

  it('lists the grants for one operation', () => {
    const access = accessOf(['Auditor', 'Own notes', 'Sales rep'], purchaseorder);
    expect(rolesOf(access.grantsFor('READ'))).toEqual(['Auditor', 'Own notes', 'Sales rep']);
    expect(rolesOf(access.grantsFor('UPDATE'))).toEqual(['Own notes', 'Sales rep']);
    expect(rolesOf(access.grantsFor('DELETE'))).toEqual(['Sales rep']);
    expect(access.grantsFor('INSERT').map((g) => g.operations.has('INSERT'))).toEqual([true]);
  });
});

describe('ResourceAccess: columns', () => {
  it("reads the union of the READ grants' columns, all of them when one grant names none, none without a READ grant", () => {
    expect(sorted(accessOf(['Auditor', 'Own notes'], purchaseorder).readable())).toEqual(['amount_total', 'notes', 'order_number']);
    expect(accessOf(['Auditor', 'Sales rep'], purchaseorder).readable()).toBeUndefined();
    expect(sorted(accessOf(['Nobody'], purchaseorder).readable())).toEqual([]);
    // Writer's grant names no readColumns and Fixer's names some, but neither is a READ grant.
    expect(sorted(accessOf(['Sales rep', 'Writer'], customer).readable())).toEqual(['balance', 'name']);
    expect(sorted(accessOf(['Auditor', 'Fixer'], purchaseorder).readable())).toEqual(['amount_total', 'order_number']);
  });

  it("writes the union of the operation's grants' columns, all of them when one grant names none, none without a grant", () => {
    const customerWriters = accessOf(['Writer', 'Creator'], customer);
    expect(sorted(customerWriters.writable('INSERT'))).toEqual(['balance', 'credit_limit', 'name']);
    expect(sorted(customerWriters.writable('UPDATE'))).toEqual(['credit_limit', 'name']);
    expect(sorted(accessOf(['Sales rep'], customer).writable('UPDATE'))).toEqual([]);
    expect(sorted(accessOf(['Own notes'], purchaseorder).writable('UPDATE'))).toEqual(['notes']);
    expect(accessOf(['Own notes', 'Sales rep'], purchaseorder).writable('UPDATE')).toBeUndefined();
  });

  it('says columns vary by row only when READ grants differ in columns and some is row-filtered', () => {
    expect(accessOf(['Sales rep', 'Auditor'], purchaseorder).columnsVaryByRow).toBe(true);
    expect(accessOf(['Own notes', 'Auditor'], purchaseorder).columnsVaryByRow).toBe(true);
    expect(accessOf(['Auditor', 'Numbers'], purchaseorder).columnsVaryByRow).toBe(false); // differ, but no filter
    expect(accessOf(['Sales rep', 'Reader'], purchaseorder).columnsVaryByRow).toBe(false); // filtered, but both show all
    expect(accessOf(['Sales rep', 'Regional'], purchaseorder).columnsVaryByRow).toBe(false);
    expect(accessOf(['Own notes'], purchaseorder).columnsVaryByRow).toBe(false); // one grant
    // Fixer's grant is filtered and differs in columns, but it is no READ grant: one READ grant.
    expect(accessOf(['Auditor', 'Fixer'], purchaseorder).columnsVaryByRow).toBe(false);
  });

  it("reads, in a row some grants admit, the union of those grants' columns", () => {
    const access = accessOf(['Auditor', 'Own notes', 'Sales rep'], purchaseorder);
    const [auditor, ownNotes, salesRep] = access.grantsFor('READ');
    expect(sorted(access.readableIn([]))).toEqual([]);
    expect(sorted(access.readableIn([auditor!]))).toEqual(['amount_total', 'order_number']);
    expect(sorted(access.readableIn([auditor!, ownNotes!]))).toEqual(['amount_total', 'notes', 'order_number']);
    expect(access.readableIn([ownNotes!, salesRep!])).toBeUndefined();
  });

  describe('columnGrants', () => {
    it('is undefined when a grant without a row filter shows the column', () => {
      const access = accessOf(['Sales rep', 'Auditor'], purchaseorder);
      expect(access.columnGrants('amount_total', false)).toBeUndefined();
      expect(access.columnGrants('amount_total', true)).toBeUndefined();
      expect(accessOf(['Reader'], purchaseorder).columnGrants('notes', true)).toBeUndefined();
    });

    it('names the row-filtered grants that show a column an unfiltered grant hides, in both modes', () => {
      const access = accessOf(['Sales rep', 'Auditor'], purchaseorder);
      expect(rolesOf(access.columnGrants('notes', false)!)).toEqual(['Sales rep']);
      expect(rolesOf(access.columnGrants('notes', true)!)).toEqual(['Sales rep']);
    });

    it('is undefined when every READ grant shows the column, unless every row of the table counts', () => {
      const access = accessOf(['Sales rep', 'Regional'], purchaseorder);
      expect(access.columnGrants('notes', false)).toBeUndefined();
      expect(rolesOf(access.columnGrants('notes', true)!)).toEqual(['Sales rep', 'Regional']);
    });

    it('is an empty list when no READ grant shows the column', () => {
      expect(accessOf(['Own notes'], purchaseorder).columnGrants('salesrep_id', false)).toEqual([]);
      expect(accessOf(['Own notes'], purchaseorder).columnGrants('salesrep_id', true)).toEqual([]);
      expect(accessOf(['Nobody'], purchaseorder).columnGrants('notes', false)).toEqual([]);
      expect(accessOf(['Nobody'], purchaseorder).columnGrants('notes', true)).toEqual([]);
    });
  });
});

describe('ResourceAccess: rows', () => {
  it('covers every row when some grant for the operation has no row filter', () => {
    expect(accessOf(['Sales rep'], purchaseorder).coversEveryRow('READ')).toBe(false);
    expect(accessOf(['Sales rep', 'Auditor'], purchaseorder).coversEveryRow('READ')).toBe(true);
    expect(accessOf(['Sales rep', 'Auditor'], purchaseorder).coversEveryRow('DELETE')).toBe(false);
    expect(accessOf(['Nobody'], purchaseorder).coversEveryRow('READ')).toBe(false);
  });

  it('asks no SQL of rows when some grant has no row filter', () => {
    const salesRepAndAuditor = accessOf(['Sales rep', 'Auditor'], purchaseorder, { employee_id: 7 });
    expect(rowPredicate(salesRepAndAuditor, 'READ')).toEqual({ sql: undefined, values: [] });
    expect(rowPredicate(accessOf(['Reader'], product), 'READ')).toEqual({ sql: undefined, values: [] });
  });

  it('admits no row when no grant applies to the operation', () => {
    expect(rowPredicate(accessOf(['Nobody'], purchaseorder), 'READ')).toEqual({ sql: '(1=0)', values: [] });
    expect(rowPredicate(accessOf(['Auditor'], purchaseorder), 'UPDATE')).toEqual({ sql: '(1=0)', values: [] });
  });

  it("compiles one grant's row filter with the principal's global bound", () => {
    expect(rowPredicate(accessOf(['Sales rep'], purchaseorder, { employee_id: 7 }), 'DELETE')).toEqual({
      sql: '(("t"."salesrep_id" = ?))',
      values: [7],
    });
  });

  it("ORs the grants' row filters, globals and the user identifier bound in the order they appear", () => {
    const access = accessOf(['Own notes', 'Regional', 'Sales rep'], purchaseorder, { employee_id: 7, region: 'North' }, 'sam');
    expect(rowPredicate(access, 'READ')).toEqual({
      sql: '(("t"."notes" = ?) OR (("t"."customer_name" = ?) AND ("t"."salesrep_id" <> ?)) OR ("t"."salesrep_id" = ?))',
      values: ['sam', 'North', 7, 7],
    });
    expect(rowPredicate(access, 'UPDATE')).toEqual({ sql: '(("t"."notes" = ?) OR ("t"."salesrep_id" = ?))', values: ['sam', 7] });
  });

  it('numbers PostgreSQL placeholders on from those already in the statement', () => {
    const access = accessOf(['Own notes', 'Sales rep'], purchaseorder, { employee_id: 7 }, 'sam');
    const { sql, values } = sqlFor(purchaseorder, 'postgres', (ctx) => {
      const paid = `"t"."paid" = ${ctx.params.add(true)}`;
      return `${paid} AND ${access.rowPredicate('READ', ctx)!}`;
    });
    expect(sql).toBe('"t"."paid" = $1 AND (("t"."notes" = $2) OR ("t"."salesrep_id" = CAST($3 AS bigint)))');
    expect(values).toEqual([true, 'sam', 7]);
  });

  it("reads a parent's column in a row filter through a subquery", () => {
    expect(rowPredicate(accessOf(['Sales rep'], lineitem, { employee_id: 7 }), 'UPDATE')).toEqual({
      sql: '(((SELECT "tp"."salesrep_id" FROM "purchaseorder" "tp" WHERE "tp"."order_number" = "t"."order_number") = ?))',
      values: [7],
    });
  });

  it('lets a filter whose global the principal lacks admit nothing, and binds nothing for it', () => {
    expect(rowPredicate(accessOf(['Sales rep'], purchaseorder), 'READ')).toEqual({ sql: '((1=0))', values: [] });
    expect(rowPredicate(accessOf(['Sales rep'], purchaseorder, { employee_id: null }), 'READ')).toEqual({ sql: '((1=0))', values: [] });
    expect(rowPredicate(accessOf(['Own notes'], purchaseorder, { employee_id: 7 }, null), 'READ')).toEqual({ sql: '((1=0))', values: [] });
    // one global of two missing: the whole filter admits nothing, not just its comparison
    expect(rowPredicate(accessOf(['Regional'], purchaseorder, { region: 'North' }), 'READ')).toEqual({ sql: '((1=0))', values: [] });
    // the other grants still count
    expect(rowPredicate(accessOf(['Sales rep', 'Own notes'], purchaseorder, {}, 'sam'), 'READ')).toEqual({
      sql: '((1=0) OR ("t"."notes" = ?))',
      values: ['sam'],
    });
  });

  it('takes the user identifier from the token, not from a global of the same name', () => {
    const access = accessOf(['Own notes'], purchaseorder, { '_apikey.user_identifier': 'mallory' }, 'sam');
    expect(rowPredicate(access, 'READ')).toEqual({ sql: '(("t"."notes" = ?))', values: ['sam'] });
  });

  it('compiles one grant: true without a row filter, its filter with the globals otherwise', () => {
    const access = accessOf(['Auditor', 'Sales rep'], purchaseorder, { employee_id: 3 });
    const [auditor, salesRep] = access.grantsFor('READ');
    expect(sqlFor(purchaseorder, 'sqlite', (sql) => access.grantPredicate(auditor!, sql))).toEqual({ sql: '(1=1)', values: [] });
    expect(sqlFor(purchaseorder, 'sqlite', (sql) => access.grantPredicate(salesRep!, sql))).toEqual({
      sql: '("t"."salesrep_id" = ?)',
      values: [3],
    });
  });

  it('ORs the filters of the grants it is given, false for none', () => {
    const access = accessOf(['Auditor', 'Sales rep', 'Own notes'], purchaseorder, { employee_id: 3 }, 'sam');
    const [auditor, salesRep, ownNotes] = access.grantsFor('READ');
    expect(sqlFor(purchaseorder, 'sqlite', (sql) => access.grantsPredicate([], sql))).toEqual({ sql: '(1=0)', values: [] });
    expect(sqlFor(purchaseorder, 'sqlite', (sql) => access.grantsPredicate([ownNotes!, salesRep!], sql))).toEqual({
      sql: '(("t"."notes" = ?) OR ("t"."salesrep_id" = ?))',
      values: ['sam', 3],
    });
    expect(sqlFor(purchaseorder, 'sqlite', (sql) => access.grantsPredicate([auditor!], sql))).toEqual({ sql: '((1=1))', values: [] });
  });
});

describe('ResourceAccess: other resources and the system', () => {
  it("hands back itself for its own resource and the same principal's access for another", () => {
    const access = accessOf(['Sales rep'], purchaseorder, { employee_id: 7 });
    expect(access.to(purchaseorder)).toBe(access);
    const onCustomer = access.to(customer);
    expect(onCustomer.resource).toBe(customer);
    expect(sorted(onCustomer.readable())).toEqual(['balance', 'name']);
    expect(onCustomer.can('UPDATE')).toBe(false);
    expect(rowPredicate(access.to(lineitem), 'READ')).toEqual({
      sql: '(((SELECT "tp"."salesrep_id" FROM "purchaseorder" "tp" WHERE "tp"."order_number" = "t"."order_number") = ?))',
      values: [7],
    });
    expect(access.to(product).grants).toEqual([]);
  });

  it('gives the system every operation on every row and column, on any resource it moves to', () => {
    const system = ResourceAccess.system(purchaseorder);
    expect(system.resource).toBe(purchaseorder);
    expect(rolesOf(system.grants)).toEqual(['(system)']);
    for (const access of [system, system.to(customer)]) {
      for (const operation of ['READ', 'INSERT', 'UPDATE', 'DELETE'] as const) {
        expect(access.can(operation)).toBe(true);
        expect(access.coversEveryRow(operation)).toBe(true);
        expect(rowPredicate(access, operation)).toEqual({ sql: undefined, values: [] });
      }
      expect(access.readable()).toBeUndefined();
      expect(access.writable('INSERT')).toBeUndefined();
      expect(access.writable('UPDATE')).toBeUndefined();
      expect(access.columnsVaryByRow).toBe(false);
      expect(access.columnGrants('notes', true)).toBeUndefined();
    }
    expect(system.to(customer).resource).toBe(customer);
    expect(system.to(purchaseorder)).toBe(system);
  });
});
