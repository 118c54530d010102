import { describe, expect, it } from '@jest/globals';
import { columnOf, resourceOf } from '../../test/support/resource-shapes.js';
import type { ParentRelation, Resource, ResourceColumn, ResourceRegistry } from '../data/resource-registry.js';
import { RowStore } from '../data/row-store.js';
import { ancestorPaths, lockAncestors, type RowSource } from './ancestor-locks.js';
import type { RuleBank } from './rule-bank.js';

const column = (name: string, kind: 'integer' | 'string'): ResourceColumn => columnOf(name, kind, false, { nullable: false });

/** A resource keyed on its first column. */
function resource(name: string, key: ResourceColumn, others: ResourceColumn[], parents: ParentRelation[] = []): Resource {
  return resourceOf(name, [{ ...key, primary: true }, ...others], parents);
}

const customer = resource('customer', column('name', 'string'), [column('balance', 'integer')]);
const order = resource(
  'purchaseorder',
  column('order_number', 'integer'),
  [column('customer_name', 'string')],
  [{ name: 'customer', parent: 'customer', columns: [{ child: 'customer_name', parent: 'name' }] }],
);
const item = resource(
  'lineitem',
  column('lineitem_id', 'integer'),
  [column('order_number', 'integer')],
  [{ name: 'purchaseorder', parent: 'purchaseorder', columns: [{ child: 'order_number', parent: 'order_number' }] }],
);
const registry = { get: (name: string) => [customer, order, item].find((r) => r.name === name)! } as unknown as ResourceRegistry;
// The demo's aggregates: order totals from line items, balances from orders.
const feeds = new Map([
  [item.name, [{ relation: item.parents[0] }]],
  [order.name, [{ relation: order.parents[0] }]],
]);
const bank = { for: (r: Resource) => ({ feeds: feeds.get(r.name) ?? [], locksAlso: [] }) } as unknown as RuleBank;

function capturingRunner() {
  const statements: Array<{ sql: string; values: unknown[] }> = [];
  return { statements, query: async (sql: string, values: unknown[] = []) => (statements.push({ sql, values }), []) };
}

async function lockStatements(dialect: 'mysql' | 'postgres', sources: RowSource[]) {
  const runner = capturingRunner();
  await lockAncestors(
    new RowStore(runner, dialect),
    ancestorPaths(item, bank, registry),
    () => sources,
    () => undefined,
  );
  return runner.statements;
}

describe('ancestor locks', () => {
  it('finds the ancestors a line item adjusts, the customer (through its order) before the order', () => {
    const paths = ancestorPaths(item, bank, registry);
    expect(paths.map((p) => p.map((s) => s.to.name))).toEqual([['purchaseorder', 'customer'], ['purchaseorder']]);
    expect(ancestorPaths(customer, bank, registry)).toEqual([]);
  });

  it('locks the customer through a subquery on the order, then the order, each FOR NO KEY UPDATE on PostgreSQL', async () => {
    const [first, second] = await lockStatements('postgres', [{ values: { order_number: 7 } }]);
    expect(first!.sql).toMatch(
      /FROM "customer" "t" WHERE "t"\."name" IN \(\(SELECT "s2"\."customer_name" FROM "purchaseorder" "s2" WHERE "s2"\."order_number" = CAST\(\$1 AS bigint\)\)\) ORDER BY "t"\."name" FOR NO KEY UPDATE$/,
    );
    expect(first!.values).toEqual([7]);
    expect(second!.sql).toMatch(
      /FROM "purchaseorder" "t" WHERE "t"\."order_number" IN \(CAST\(\$1 AS bigint\)\) ORDER BY "t"\."order_number" FOR NO KEY UPDATE$/,
    );
  });

  it("reads a stored row's parents by its key, and takes old and new parents in one statement each (MySQL: FOR UPDATE, placeholders in text order)", async () => {
    const [first, second] = await lockStatements('mysql', [{ key: [41] }, { key: [41], values: { order_number: 9 } }]);
    expect(first!.sql).toContain(
      'WHERE `t`.`name` IN ((SELECT `s2`.`customer_name` FROM `purchaseorder` `s2` WHERE `s2`.`order_number` = (SELECT `s1`.`order_number` FROM `lineitem` `s1` WHERE `s1`.`lineitem_id` = ?)), (SELECT `s2`.`customer_name` FROM `purchaseorder` `s2` WHERE `s2`.`order_number` = ?))',
    );
    expect(first!.sql).toMatch(/ORDER BY `t`\.`name` FOR UPDATE$/);
    expect(first!.values).toEqual([41, 9]);
    expect(second!.values).toEqual([41, 9]);
  });

  it('locks nothing for a row without a parent (a null foreign key)', async () => {
    expect(await lockStatements('postgres', [{ values: { order_number: null } }])).toEqual([]);
  });
});
