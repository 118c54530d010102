import Database from 'better-sqlite3';
import mysql from 'mysql2/promise';
import pg from 'pg';
import { after } from '../src/logic/rule-dsl.js';
import { Lineitem } from '../src/demo/entities/lineitem.entity.js';
import { demoProject } from '../src/demo/project.js';
import { apiAs, type Api } from './support/api.js';
import { describeEachTarget, suiteApp, type TestApp, type TestTarget } from './support/test-app.js';

/** A transaction on a connection of its own, outside Tessera, that holds row locks until `release`. */
interface LockHolder {
  release(): Promise<void>;
}

/** Locks one purchase order row (SQLite: the whole database's write lock) from a separate connection. */
async function holdOrderLock(t: TestApp, target: TestTarget, order: number): Promise<LockHolder> {
  if (target.database === 'sqlite') {
    const db = new Database(t.config.database.sqlitePath!);
    db.exec('BEGIN IMMEDIATE');
    return {
      release: async () => {
        db.exec('ROLLBACK');
        db.close();
      },
    };
  }
  if (target.database === 'mysql') {
    const connection = await mysql.createConnection(t.config.database.url);
    await connection.query('BEGIN');
    await connection.query('SELECT order_number FROM purchaseorder WHERE order_number = ? FOR UPDATE', [order]);
    return {
      release: async () => {
        await connection.query('ROLLBACK');
        await connection.end();
      },
    };
  }
  const client = new pg.Client({ connectionString: t.config.database.url });
  await client.connect();
  await client.query('BEGIN');
  await client.query('SELECT order_number FROM purchaseorder WHERE order_number = $1 FOR UPDATE', [order]);
  return {
    release: async () => {
      await client.query('ROLLBACK');
      await client.end();
    },
  };
}

describeEachTarget('write conflicts that outlast the retry budget', (target) => {
  let t: TestApp;
  let api: Api;

  // A short lock wait and budget, so the test waits a second rather than a minute (InnoDB counts whole seconds).
  // SQLite's lock wait is its busy timeout, DB_ACQUIRE_TIMEOUT_MS; on a server that is the connect timeout,
  // and 200 ms to open a connection is too little on a loaded machine (the boot failed so once in CI).
  const lockWait: Record<string, string> = target.database === 'sqlite' ? { DB_ACQUIRE_TIMEOUT_MS: '200' } : {};
  suiteApp(
    target,
    { env: { DB_LOCK_TIMEOUT_MS: '200', WRITE_RETRY_BUDGET_MS: '600', ...lockWait, METRICS_ENABLED: 'true' } },
    async (app) => {
      t = app;
      api = await apiAs(t, 'demo');
    },
  );

  it('answers 409 / 4093 with Retry-After while another transaction keeps the parent locked, then writes once it is gone', async () => {
    const items = async (): Promise<number> =>
      (await api.get('/lineitem?sysfilter=equal(order_number:1)&pagesize=100').expect(200)).body.length;
    const before = await items();
    const holder = await holdOrderLock(t, target, 1);
    let blocked;
    const started = Date.now();
    try {
      blocked = await api.post('/lineitem', { order_number: 1, product_number: 1, qty_ordered: 1 });
    } finally {
      await holder.release();
    }
    expect({ status: blocked.status, body: blocked.body }).toEqual({
      status: 409,
      body: { statusCode: 409, errorCode: 4093, errorMessage: expect.stringMatching(/concurrent transaction; retry/) },
    });
    expect(blocked.headers['retry-after']).toBe('1');
    const metrics = (await t.http().get('/metrics').expect(200)).text;
    // InnoDB's lock wait (a whole second) outlasts the 600 ms budget at the first attempt: no retry there.
    expect(metrics).toMatch(target.database === 'mysql' ? /^tessera_write_retries_total 0$/m : /^tessera_write_retries_total [1-9]\d*$/m);
    expect(metrics).toMatch(/^tessera_write_conflicts_total 1$/m);
    // The budget (plus one lock wait, which InnoDB rounds up to a second) bounds the wait.
    expect(Date.now() - started).toBeLessThan(5000);
    expect(await items()).toBe(before);
    await api.post('/lineitem', { order_number: 1, product_number: 1, qty_ordered: 1 }).expect(201);
    expect(await items()).toBe(before + 1);
  }, 20_000);
});

/** Kills every connection the app has open to its database, from a connection of the test's own. */
async function killAppConnections(t: TestApp, target: TestTarget): Promise<number> {
  const database = new URL(t.config.database.url).pathname.slice(1);
  if (target.database === 'mysql') {
    const admin = await mysql.createConnection(t.config.database.url);
    try {
      const [rows] = await admin.query('SELECT id FROM information_schema.processlist WHERE db = ? AND id <> CONNECTION_ID()', [database]);
      const ids = (rows as Array<{ id: number }>).map((r) => r.id);
      for (const id of ids) await admin.query('KILL ?', [id]);
      return ids.length;
    } finally {
      await admin.end();
    }
  }
  const admin = new pg.Client({ connectionString: t.config.database.url });
  await admin.connect();
  try {
    const res = await admin.query(
      'SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()',
    );
    return res.rowCount ?? 0;
  } finally {
    await admin.end();
  }
}

describeEachTarget('the database connection lost in the middle of a write', (target) => {
  // SQLite is a file opened in the process: there is no server to drop the connection.
  if (target.database === 'sqlite') return;

  let t: TestApp;
  let api: Api;
  /** Set by a test: the line-item insert's after event waits on it, with the transaction open. */
  let pause: (() => Promise<void>) | undefined;

  const rules = [
    ...demoProject.rules!,
    after({
      entity: Lineitem,
      on: ['INSERT'],
      run: async () => {
        await pause?.();
      },
    }),
  ];
  suiteApp(target, { project: { ...demoProject, rules } }, async (app) => {
    t = app;
    api = await apiAs(t, 'demo');
  });

  it('answers 503 / 5030 (not 500) when the server kills the connection mid-transaction, and recovers without a restart', async () => {
    let inside!: () => void;
    let resume!: () => void;
    const reached = new Promise<void>((resolve) => (inside = resolve));
    const resumed = new Promise<void>((resolve) => (resume = resolve));
    pause = async () => {
      inside();
      await resumed;
    };
    const write = api.post('/lineitem', { order_number: 2, product_number: 1, qty_ordered: 1 }).then((res) => res);
    await reached;
    expect(await killAppConnections(t, target)).toBeGreaterThan(0);
    // Let the driver see its connection close before the transaction's next statement.
    await new Promise((resolve) => setTimeout(resolve, 200));
    pause = undefined;
    resume();
    const res = await write;
    expect({ status: res.status, errorCode: res.body.errorCode }).toEqual({ status: 503, errorCode: 5030 });
    expect(res.body.errorMessage).not.toMatch(/released|terminat|killed|connection/i);

    // The pool drops the dead connections and opens new ones: reads and writes work again.
    await api.get('/customer/Alpha%20and%20Sons').expect(200);
    const again = await api.post('/lineitem', { order_number: 2, product_number: 1, qty_ordered: 1 });
    expect(again.status).toBe(201);
  });
});
