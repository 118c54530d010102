import { describe, expect, it } from '@jest/globals';
import Database from 'better-sqlite3';
import type { Resource } from './resource-registry.js';
import { limitLiteral, paramsFor, RowStore } from './row-store.js';

const customer = {
  name: 'customer',
  tableName: 'customer',
  columns: [{ name: 'name', kind: 'string' }, { name: 'balance', kind: 'decimal' }],
} as unknown as Resource;

/** A runner that answers nothing and keeps the statements it was given. */
function capturingRunner() {
  const statements: Array<{ sql: string; values: unknown[] }> = [];
  return { statements, query: async (sql: string, values: unknown[] = []) => (statements.push({ sql, values }), []) };
}

describe('RowStore.page', () => {
  it.each(['sqlite', 'mysql', 'postgres'] as const)('writes LIMIT as a literal and binds OFFSET (%s): a bound LIMIT makes SQLite prepare again on every run', async (dialect) => {
    const runner = capturingRunner();
    const store = new RowStore(runner, dialect);
    const params = paramsFor(dialect);
    const where = [`${store.q('t')}.${store.q('balance')} > ${params.add('100')}`];
    await store.page(customer, { where, orderBy: [] }, params, 21, 40);
    const [statement] = runner.statements;
    expect(statement!.sql).toMatch(/ LIMIT 21 OFFSET (\?|\$2)$/);
    expect(statement!.values).toEqual(['100', 40]);
  });

  it('gives the same statement text for every offset, so one prepared statement serves every page', async () => {
    const runner = capturingRunner();
    const store = new RowStore(runner, 'sqlite');
    for (const offset of [0, 20, 40]) await store.page(customer, { where: [], orderBy: [] }, paramsFor('sqlite'), 21, offset);
    expect(new Set(runner.statements.map((s) => s.sql)).size).toBe(1);
  });
});

describe('RowStore.count', () => {
  /** An in-memory SQLite table of 30 customers, balances 1 to 30. */
  function sqliteStore(): RowStore {
    const db = new Database(':memory:');
    db.exec('CREATE TABLE customer (name TEXT PRIMARY KEY, balance NUMERIC)');
    const insert = db.prepare('INSERT INTO customer VALUES (?, ?)');
    for (let i = 1; i <= 30; i++) insert.run(`c${i}`, i);
    return new RowStore({ query: async (sql: string, values: unknown[] = []) => db.prepare(sql).all(values) }, 'sqlite');
  }

  it('counts the rows meeting the conditions, and stops at the bound', async () => {
    const store = sqliteStore();
    const params = paramsFor('sqlite');
    const where = [`${store.q('t')}.${store.q('balance')} > ${params.add(10)}`];
    expect(await store.count(customer, where, params, 1000)).toBe(20);
    expect(await store.count(customer, [], paramsFor('sqlite'), 1000)).toBe(30);
    expect(await store.count(customer, [], paramsFor('sqlite'), 7)).toBe(7);
  });

  it.each(['mysql', 'postgres'] as const)('reads at most the bound in a subquery with an alias (%s)', async (dialect) => {
    const runner = capturingRunner();
    await new RowStore(runner, dialect).count(customer, [], paramsFor(dialect), 100);
    expect(runner.statements[0]!.sql).toMatch(/^SELECT COUNT\(\*\) AS .n. FROM \(SELECT 1 AS .one. FROM .customer. .t. LIMIT 100\) .c.$/);
  });
});

describe('RowStore.findByKeys', () => {
  const keyed = { ...customer, primaryKey: [customer.columns[0]] } as unknown as Resource;

  it('reads the rows that exist, 500 keys per statement', async () => {
    const db = new Database(':memory:');
    db.exec('CREATE TABLE customer (name TEXT PRIMARY KEY, balance NUMERIC)');
    const insert = db.prepare('INSERT INTO customer VALUES (?, ?)');
    for (let i = 1; i <= 1200; i++) insert.run(`c${i}`, i);
    const statements: string[] = [];
    const store = new RowStore(
      { query: async (sql: string, values: unknown[] = []) => (statements.push(sql), db.prepare(sql).all(values)) },
      'sqlite',
    );
    const keys = [...Array.from({ length: 1100 }, (_, i) => [`c${i + 101}`]), ['missing']];
    const rows = await store.findByKeys(keyed, keys);
    expect(rows).toHaveLength(1100);
    expect(new Set(rows.map((r) => r.name)).size).toBe(1100);
    expect(rows.find((r) => r.name === 'c500')?.balance).toBe('500');
    expect(statements).toHaveLength(3);
  });
});

describe('limitLiteral', () => {
  it('writes a non-negative integer', () => {
    expect(limitLiteral(0)).toBe('0');
    expect(limitLiteral(1001)).toBe('1001');
  });

  it.each([-1, 1.5, Number.NaN, Number.POSITIVE_INFINITY, 2 ** 53])('refuses %s: only a checked integer may reach the SQL text', (value) => {
    expect(() => limitLiteral(value)).toThrow(RangeError);
  });
});
