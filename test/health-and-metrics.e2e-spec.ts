import { setTimeout as sleep } from 'node:timers/promises';
import mysql from 'mysql2/promise';
import pg from 'pg';
import { Database } from '../src/database/database.js';
import { apiWithKey, type Api } from './support/api.js';
import { adminToken, createUser, loginAs } from './support/auth.js';
import {
  describeEachTargetOnBothAdapters,
  startTestApp,
  suiteApp,
  TEST_ADMIN_PASSWORD,
  type TestApp,
  type TestTarget,
} from './support/test-app.js';
import { TEST_MYSQL_URL, TEST_POSTGRES_URL } from './support/test-databases.js';

const METRICS_TOKEN = 'scrape-7f3c9e1b2d4a6f80-token';
// Distinctive strings the scenario sends: none may appear anywhere in /metrics.
const USER = 'zz-metrics-user-q7w3';
const PASSWORD = 'Pw-metrics-9x8c7v6b5n';
const WRONG_PASSWORD = 'Wrong-pw-4k3j2h1g';
const UNKNOWN_USER = 'nobody-metrics-u5y6t7';
const CUSTOMER = 'Cust-metrics-r4e3w2';
const CREDIT_LIMIT = '4242.17';

/** The route labels the scenario below produces: the same on both adapters (route patterns, never URLs). */
const EXPECTED_ROUTES = [
  'GET /health/ready',
  'GET /rest/:account/:project/:version/:resource/:pk',
  'GET unmatched',
  'POST /admin/v1/@authentication',
  'POST /admin/v1/users',
  'POST /rest/:account/:project/:version/:resource',
  'POST /rest/:account/:project/:version/@authentication',
  'PUT /rest/:account/:project/:version/:resource/:pk',
];

/** Sample lines of one metric, e.g. `tessera_logins_total{kind="api",result="failed"} 2`. */
function samples(text: string, name: string): string[] {
  return text.split('\n').filter((line) => line.startsWith(`${name}{`) || line.startsWith(`${name} `));
}

function value(text: string, name: string, labels: string): number {
  const line = samples(text, name).find((l) => l.startsWith(`${name}{${labels}}`));
  return line === undefined ? 0 : Number(line.slice(line.lastIndexOf(' ') + 1));
}

/** A scrape with METRICS_TOKEN, another token, or (null) none. */
function scrape(t: TestApp, token: string | null = METRICS_TOKEN) {
  const req = t.http().get('/metrics');
  return token === null ? req : req.set('Authorization', `Bearer ${token}`);
}

/** The placeholder the target's driver binds a parameter with. */
function placeholder(target: TestTarget): string {
  return target.database === 'postgres' ? '$1' : '?';
}

describeEachTargetOnBothAdapters('readiness and metrics', (target) => {
  let t: TestApp;

  suiteApp(
    target,
    { env: { METRICS_ENABLED: 'true', METRICS_TOKEN, LOGIN_MAX_FAILURES: '3', LOGIN_MAX_FAILURES_PER_ADDRESS: '50' } },
    (app) => {
      t = app;
    },
  );

  it('is ready without a token: the database answers and every migration is applied', async () => {
    const res = await t.http().get('/health/ready').expect(200);
    expect(res.body).toEqual({ status: 'ready', checks: { database: 'ok', migrations: 'ok' } });
    expect(res.headers['cache-control']).toBe('no-store');
  });

  it('answers 503 naming a migration the database has not applied, and is ready again once it is', async () => {
    const table = target.database === 'mysql' ? '`tessera_migrations`' : '"tessera_migrations"';
    const rows = await t.dataSource.query<Array<Record<string, unknown>>>(`SELECT * FROM ${table} ORDER BY id DESC`);
    const last = rows[0]!;
    await t.dataSource.query(`DELETE FROM ${table} WHERE name = ${placeholder(target)}`, [last.name]);
    try {
      const res = await t.http().get('/health/ready').expect(503);
      expect(res.body).toEqual({
        status: 'unavailable',
        failed: 'migrations',
        checks: { database: 'ok', migrations: `pending: ${String(last.name)}` },
      });
    } finally {
      const p = target.database === 'postgres' ? ['$1', '$2', '$3'] : ['?', '?', '?'];
      await t.dataSource.query(`INSERT INTO ${table} (id, timestamp, name) VALUES (${p.join(', ')})`, [last.id, last.timestamp, last.name]);
    }
    await t.http().get('/health/ready').expect(200);
  });

  it('answers 503 when the database does not answer within a second (every connection busy)', async () => {
    const database = t.app.get(Database);
    // SQLite has one connection (behind the gate); the others a pool of DB_POOL_SIZE = 5.
    const holders = target.database === 'sqlite' ? 1 : 5;
    const held = Array.from({ length: holders }, () => database.writeTransaction(() => sleep(2500)));
    await sleep(200);
    const started = Date.now();
    const res = await t.http().get('/health/ready').expect(503);
    expect(Date.now() - started).toBeLessThan(2000);
    expect(res.body).toEqual({
      status: 'unavailable',
      failed: 'database',
      checks: { database: 'no answer within 1000 ms', migrations: 'not checked' },
    });
    await Promise.all(held);
    await t.http().get('/health/ready').expect(200);
  });

  describe('/metrics', () => {
    let api: Api;
    let apikey: string;

    it('asks for METRICS_TOKEN', async () => {
      await scrape(t, null).expect(401);
      await scrape(t, 'not-the-metrics-token-at-all').expect(401);
      const res = await scrape(t).expect(200);
      expect(res.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
    });

    it('counts requests by route pattern, logins, throttling, tokens and rules; no label holds a secret or a value', async () => {
      await createUser(t, { login: USER, password: PASSWORD, roles: ['Full access'] });
      apikey = await loginAs(t, USER, PASSWORD);
      api = apiWithKey(t, apikey);
      await t.http().post(`${t.base}/@authentication`).send({ username: USER, password: WRONG_PASSWORD }).expect(401);
      for (let i = 0; i < 3; i++) {
        await t.http().post(`${t.base}/@authentication`).send({ username: UNKNOWN_USER, password: WRONG_PASSWORD }).expect(401);
      }
      await t.http().post(`${t.base}/@authentication`).send({ username: UNKNOWN_USER, password: WRONG_PASSWORD }).expect(429);
      await api.post('/customer', { name: CUSTOMER, credit_limit: CREDIT_LIMIT }).expect(201);
      await api.get(`/customer/${CUSTOMER}`).expect(200);
      // The demo's constraint: a balance may not exceed the credit limit.
      await api.put(`/customer/${CUSTOMER}`, { '@metadata': { checksum: 'override' }, credit_limit: '-1' }).expect(422);
      await t.http().get(`/no/such/${CUSTOMER}?key=${apikey}`).expect(404);
      await t.http().get('/health/ready').expect(200);

      const text = (await scrape(t).expect(200)).text;
      for (const secret of [
        USER,
        PASSWORD,
        WRONG_PASSWORD,
        UNKNOWN_USER,
        CUSTOMER,
        CREDIT_LIMIT,
        apikey,
        await adminToken(t),
        TEST_ADMIN_PASSWORD,
        METRICS_TOKEN,
      ]) {
        expect({ secret, found: text.includes(secret) }).toEqual({ secret, found: false });
      }

      const routes = samples(text, 'tessera_http_requests_total').map((line) => {
        const [, method, route] = /method="([^"]+)",route="([^"]*)"/.exec(line)!;
        return `${method} ${route}`;
      });
      expect([...new Set(routes)].sort()).toEqual(EXPECTED_ROUTES);
      expect(
        value(text, 'tessera_http_requests_total', 'method="POST",route="/rest/:account/:project/:version/@authentication",status="401"'),
      ).toBe(4);
      expect(
        value(text, 'tessera_http_requests_total', 'method="PUT",route="/rest/:account/:project/:version/:resource/:pk",status="422"'),
      ).toBe(1);
      expect(value(text, 'tessera_http_requests_total', 'method="GET",route="unmatched",status="404"')).toBe(1);
      expect(
        value(
          text,
          'tessera_http_request_duration_seconds_count',
          'method="GET",route="/rest/:account/:project/:version/:resource/:pk",status="200"',
        ),
      ).toBe(1);

      expect(value(text, 'tessera_logins_total', 'kind="api",result="succeeded"')).toBe(1);
      expect(value(text, 'tessera_logins_total', 'kind="api",result="failed"')).toBe(4);
      expect(value(text, 'tessera_logins_total', 'kind="api",result="throttled"')).toBe(1);
      expect(value(text, 'tessera_logins_total', 'kind="admin",result="succeeded"')).toBe(1);
      expect(value(text, 'tessera_tokens_issued_total', 'origin="login"')).toBe(1);
      expect(value(text, 'tessera_tokens_issued_total', 'origin="admin"')).toBe(1);
      // The demo's constraint is its rule 6 (src/demo/rules.ts); it ran on the insert and on the refused update.
      const constraint = samples(text, 'tessera_rule_executions_total').find((l) => l.includes('kind="constraint",resource="customer"'));
      expect(constraint).toMatch(/^tessera_rule_executions_total\{rule="\d+",kind="constraint",resource="customer"\} 2$/);
      expect(samples(text, 'tessera_constraint_failures_total').filter((l) => !l.endsWith(' 0'))).toEqual([
        constraint!.replace('tessera_rule_executions_total', 'tessera_constraint_failures_total').replace(/ 2$/, ' 1'),
      ]);

      expect(value(text, 'tessera_write_retries_total', '')).toBe(0);
      for (const name of [
        'tessera_write_conflicts_total',
        'tessera_db_pool_in_use',
        'tessera_db_pool_waiting',
        'process_resident_memory_bytes',
        'nodejs_eventloop_lag_seconds',
        'nodejs_heap_size_used_bytes',
      ]) {
        expect({ name, samples: samples(text, name).length }).toEqual({ name, samples: 1 });
      }
    });

    it('keeps one registry per app: a second instance in the same process counts only its own requests', async () => {
      const heartbeat = 'method="GET",route="/rest/:account/:project/:version/@heartbeat",status="200"';
      const other = await startTestApp(target, { env: { METRICS_ENABLED: 'true' } });
      try {
        await other.http().get(`${other.base}/@heartbeat`).expect(200);
        await other.http().get(`${other.base}/@heartbeat`).expect(200);
        const before = value((await scrape(t).expect(200)).text, 'tessera_http_requests_total', heartbeat);
        await t.http().get(`${t.base}/@heartbeat`).expect(200);
        const mine = (await scrape(t).expect(200)).text;
        const theirs = (await other.http().get('/metrics').expect(200)).text;
        expect(value(mine, 'tessera_http_requests_total', heartbeat)).toBe(before + 1);
        expect(value(theirs, 'tessera_http_requests_total', heartbeat)).toBe(2);
      } finally {
        await other.close();
      }
    });

    it('does not count its own scrapes', async () => {
      await scrape(t).expect(200);
      expect((await scrape(t).expect(200)).text).not.toContain('route="/metrics"');
    });
  });
});

/** Makes the app's database stop answering: SQLite's connection closed, a server's database dropped under it. */
async function takeDatabaseDown(t: TestApp, target: TestTarget): Promise<void> {
  if (target.database === 'sqlite') {
    await t.dataSource.destroy();
    return;
  }
  const name = new URL(t.config.database.url).pathname.slice(1);
  if (target.database === 'mysql') {
    const admin = await mysql.createConnection(TEST_MYSQL_URL!);
    const [rows] = await admin.query('SELECT ID AS id FROM information_schema.PROCESSLIST WHERE DB = ? AND ID <> CONNECTION_ID()', [name]);
    for (const row of rows as Array<{ id: unknown }>) await admin.query(`KILL ${Number(row.id)}`).catch(() => undefined);
    await admin.query(`DROP DATABASE \`${name}\``);
    await admin.end();
    return;
  }
  const admin = new pg.Client({ connectionString: TEST_POSTGRES_URL });
  await admin.connect();
  await admin.query(`DROP DATABASE "${name}" WITH (FORCE)`);
  await admin.end();
}

describeEachTargetOnBothAdapters('readiness when the database is gone, metrics off', (target) => {
  let t: TestApp;

  suiteApp(target, {}, (app) => {
    t = app;
  });

  it('serves no /metrics unless METRICS_ENABLED', async () => {
    await t.http().get('/metrics').expect(404);
  });

  it('answers 503 naming the database while @heartbeat (liveness) stays OK', async () => {
    await t.http().get('/health/ready').expect(200);
    await takeDatabaseDown(t, target);
    const res = await t.http().get('/health/ready').expect(503);
    expect(res.body).toMatchObject({ status: 'unavailable', failed: 'database', checks: { migrations: 'not checked' } });
    expect(['the database refused the query', 'no answer within 1000 ms']).toContain(res.body.checks.database);
    await t.http().get(`${t.base}/@heartbeat`).expect(200);
  });
});
