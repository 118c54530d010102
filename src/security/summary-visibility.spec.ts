import { columnOf, resourceOf } from '../../test/support/resource-shapes.js';
import { describe, expect, it } from '@jest/globals';
import type { Principal } from '../common/principal.js';
import type { RowChange } from '../data/row-change.js';
import { ResourceAccess } from './resource-access.js';
import { RoleBank } from './role-bank.js';
import type { ResourceRegistry } from '../data/resource-registry.js';
import type { RowStore } from '../data/row-store.js';
import { SummaryVisibility } from './summary-visibility.js';

const customer = resourceOf('customer', [
  columnOf('name', 'string', true),
  columnOf('balance', 'decimal'),
  columnOf('credit_limit', 'decimal'),
]);
const registry = { find: (name: string) => (name === 'customer' ? customer : undefined) } as unknown as ResourceRegistry;

const bank = new RoleBank(
  registry,
  {
    globals: ['own'],
    roles: [
      { name: 'Full access', defaultAccess: 'ALL' },
      { name: 'Names', defaultAccess: 'NONE', resources: { customer: { access: ['READ'], readColumns: ['name', 'balance'] } } },
      { name: 'Own customer', defaultAccess: 'NONE', resources: { customer: { access: ['READ'], rowFilter: 'name = @{own}' } } },
    ],
  },
  'sqlite',
);

const accessOf = (roles: string[]): ResourceAccess => {
  const principal: Principal = { tokenId: 1, userIdentifier: null, roleNames: roles, globals: { own: 'Alpha' } };
  return ResourceAccess.of(bank, principal, customer);
};
const entries: RowChange[] = [
  { resource: customer, verb: 'UPDATE', row: { name: 'Alpha', balance: '1.0000', credit_limit: '9.0000' } },
  { resource: customer, verb: 'UPDATE', row: { name: 'Bravo', balance: '2.0000', credit_limit: '8.0000' } },
];

/** A store that answers the flags of the rows named, and counts the statements it is asked. */
function storeAdmitting(admitted: string[]): { store: RowStore; statements: () => number } {
  let statements = 0;
  const store = {
    keyPredicate: () => '(1=1)',
    page: async () => {
      statements++;
      return entries.map((e) => ({ row: e.row, extra: { __grant_0: admitted.includes(e.row.name as string) ? 1 : 0 } }));
    },
    testValues: async () => {
      statements++;
      return [];
    },
  } as unknown as RowStore;
  return { store, statements: () => statements };
}

describe('SummaryVisibility', () => {
  const visibility = new SummaryVisibility(registry, 'sqlite');

  it('asks nothing of the database when READ covers every row with the same columns', async () => {
    const { store, statements } = storeAdmitting([]);
    const full = await visibility.of(store, entries, accessOf(['Full access']));
    expect(full.map((e) => e.readable)).toEqual([undefined, undefined]);
    const names = await visibility.of(store, entries, accessOf(['Names']));
    expect(names.map((e) => [...e.readable!].sort())).toEqual([
      ['balance', 'name'],
      ['balance', 'name'],
    ]);
    expect(statements()).toBe(0);
  });

  it('leaves out rows of a resource the caller cannot read, without a query', async () => {
    const { store, statements } = storeAdmitting([]);
    expect(await visibility.of(store, entries, accessOf([]))).toEqual([]);
    expect(statements()).toBe(0);
  });

  it('gives each row the columns of the grants admitting it, in one statement per resource', async () => {
    const { store, statements } = storeAdmitting(['Alpha']);
    const shown = await visibility.of(store, entries, accessOf(['Names', 'Own customer']));
    expect(shown.map((e) => [e.row.name, e.readable && [...e.readable].sort()])).toEqual([
      ['Alpha', undefined],
      ['Bravo', ['balance', 'name']],
    ]);
    expect(statements()).toBe(1);
    const own = await visibility.of(storeAdmitting(['Alpha']).store, entries, accessOf(['Own customer']));
    expect(own.map((e) => e.row.name)).toEqual(['Alpha']);
  });
});
