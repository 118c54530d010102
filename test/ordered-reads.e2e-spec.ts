import type { QueryRunner } from 'typeorm';
import { suiteAppAs, type Api } from './support/api.js';
import { describeEachTarget, type TestApp } from './support/test-app.js';

interface Statement {
  sql: string;
  params: unknown[];
}

/** The page reads (`SELECT … ORDER BY … LIMIT`) the app's query runners run while `read` goes on. */
async function pageReadsOf(t: TestApp, read: () => Promise<unknown>): Promise<Statement[]> {
  const probe = t.dataSource.createQueryRunner();
  const prototype = Object.getPrototypeOf(probe) as QueryRunner;
  await probe.release();
  const original = prototype.query;
  const seen: Statement[] = [];
  prototype.query = function (this: QueryRunner, ...args: Parameters<QueryRunner['query']>) {
    seen.push({ sql: args[0], params: (args[1] ?? []) as unknown[] });
    return original.apply(this, args);
  } as QueryRunner['query'];
  try {
    await read();
  } finally {
    prototype.query = original;
  }
  return seen.filter((s) => /^SELECT .* ORDER BY .* LIMIT/s.test(s.sql));
}

/** PostgreSQL's plan for a statement when any other way is open than a sort or a whole-table scan: its node types. */
async function planNodesWithoutSort(t: TestApp, statement: Statement): Promise<string[]> {
  const runner = t.dataSource.createQueryRunner();
  try {
    await runner.startTransaction();
    await runner.query('SET LOCAL enable_sort = off');
    await runner.query('SET LOCAL enable_seqscan = off');
    const [row] = (await runner.query(`EXPLAIN (FORMAT JSON) ${statement.sql}`, statement.params)) as Array<{ 'QUERY PLAN': unknown }>;
    const nodes: string[] = [];
    const walk = (node: { 'Node Type': string; Plans?: unknown[] }): void => {
      nodes.push(node['Node Type']);
      for (const child of node.Plans ?? []) walk(child as typeof node);
    };
    walk((row!['QUERY PLAN'] as Array<{ Plan: { 'Node Type': string } }>)[0]!.Plan);
    return nodes;
  } finally {
    await runner.rollbackTransaction().catch(() => undefined);
    await runner.release();
  }
}

/**
 * Issue 31 item 4: a page of a large table is read through an index, not by sorting every row
 * that matches. Two things stood in the way:
 * - the primary key completed every order ascending, so `order=balance desc` could not be read
 *   backwards along an index on balance (which, on InnoDB, holds the key too): MariaDB sorted every
 *   matching row. The key now runs the way the last term does.
 * - on PostgreSQL every term said NULLS FIRST/LAST, which only an index built with that nulls
 *   order serves: even the plain `GET /customer` (by key) sorted the whole table. A NOT NULL
 *   column's term (the key, the demo's balance) now leaves it out, and a plain index serves it.
 */
describeEachTarget('ordered reads: the key follows the last term, and an index serves the page', (target) => {
  let t: TestApp;
  let api: Api;

  suiteAppAs(target, 'demo', (app, client) => {
    t = app;
    api = client;
  });

  beforeAll(async () => {
    // Ties on balance: new customers start at 0, beside the demo's own.
    for (const name of ['Tie Alpha', 'Tie Beta', 'Tie Gamma']) await api.post('/customer', { name, credit_limit: 100 }).expect(201);
  });

  it("orders ties by the key in the last term's direction, the same on every page", async () => {
    const all = (await api.get('/customer?order=balance%20desc&pagesize=100').expect(200)).body as Array<{
      name: string;
      balance: unknown;
    }>;
    const expected = (
      await t.dataSource.query<Array<{ name: string }>>(
        'SELECT name FROM customer ORDER BY (CASE WHEN balance IS NULL THEN 1 ELSE 0 END), balance DESC, name DESC',
      )
    ).map((row) => row.name);
    expect(all.map((c) => c.name)).toEqual(expected);
    expect(all.filter((c) => Number(c.balance) === 0).length).toBeGreaterThanOrEqual(3);

    const paged: string[] = [];
    for (let offset = 0; offset < all.length; offset += 2) {
      const page = (await api.get(`/customer?order=balance%20desc&pagesize=2&offset=${offset}`).expect(200)).body as Array<{
        name?: string;
      }>;
      paged.push(...page.flatMap((c) => (c.name === undefined ? [] : [c.name])));
    }
    expect(paged).toEqual(expected);
  });

  // Not defined on SQLite: Tessera's statements there bypass TypeORM's query runner (`runOnSqlite`), so
  // there is none to listen on; the order of ties above shows the same thing there.
  if (target.database !== 'sqlite') {
    it('reads by the key ascending when no term is given, and descending after a descending term', async () => {
      const [plain] = await pageReadsOf(t, () => api.get('/customer?pagesize=5').expect(200));
      expect(plain!.sql).toMatch(/ORDER BY \S+\.["`]name["`] ASC LIMIT/);
      const [descending] = await pageReadsOf(t, () => api.get('/customer?order=balance%20desc&pagesize=5').expect(200));
      expect(descending!.sql).toMatch(/ORDER BY \S+\.["`]balance["`] DESC( NULLS LAST)?, \S+\.["`]name["`] DESC LIMIT/);
    });
  }

  if (target.database === 'postgres') {
    it('has PostgreSQL read each page along an index, sorting no table (key order, a NOT NULL column descending, the balance index)', async () => {
      const reads = [
        ...(await pageReadsOf(t, () => api.get('/customer?pagesize=5').expect(200))),
        ...(await pageReadsOf(t, () => api.get('/purchaseorder?order=order_number%20desc&pagesize=5').expect(200))),
        ...(await pageReadsOf(t, () =>
          api.get(`/customer?filter=${encodeURIComponent('balance > 0')}&order=balance%20desc&pagesize=5`).expect(200),
        )),
      ];
      expect(reads).toHaveLength(3);
      for (const read of reads) {
        const nodes = await planNodesWithoutSort(t, read);
        expect({ sql: read.sql, nodes }).toEqual({ sql: read.sql, nodes: expect.not.arrayContaining(['Sort', 'Seq Scan']) });
      }
    });
  }
});
