import helmet from 'helmet';
import { authHeader, loginAs } from './support/auth.js';
import { describeEachTargetOnBothAdapters, suiteApp, type TestApp } from './support/test-app.js';

/** The headers helmet() sets with its defaults, lower-cased, as supertest shows them. */
function helmetDefaults(): Record<string, string> {
  const headers: Record<string, string> = {};
  const res = {
    setHeader: (name: string, value: string) => void (headers[name.toLowerCase()] = value),
    removeHeader: () => undefined,
  };
  helmet()({} as never, res as never, () => undefined);
  return headers;
}

describeEachTargetOnBothAdapters('foundation', (target) => {
  let t: TestApp;

  suiteApp(target, {}, (app) => {
    t = app;
  });

  it('serves @heartbeat with a request id and security headers, without X-Powered-By', async () => {
    const res = await t.http().get(`${t.base}/@heartbeat`).expect(200);
    expect(res.body).toEqual({ status: 'OK' });
    expect(res.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['x-powered-by']).toBeUndefined();
  });

  it("sends every one of helmet's default headers, on answers and on errors alike", async () => {
    const expected = helmetDefaults();
    expect(Object.keys(expected).length).toBeGreaterThan(10);
    const answers = [
      await t.http().get(`${t.base}/@heartbeat`).expect(200),
      await t.http().get(`${t.base}/customer`).expect(401),
      await t.http().get('/nothing-here').expect(404),
      await t.http().post(`${t.base}/@heartbeat`).set('Content-Type', 'text/plain').send('hello').expect(415),
    ];
    for (const res of answers) {
      expect(res.headers).toMatchObject(expected);
      expect(res.headers['x-powered-by']).toBeUndefined();
    }
  });

  it('keeps a safe incoming X-Request-Id and replaces an unsafe one', async () => {
    const kept = await t.http().get(`${t.base}/@heartbeat`).set('X-Request-Id', 'abc-123').expect(200);
    expect(kept.headers['x-request-id']).toBe('abc-123');
    const replaced = await t.http().get(`${t.base}/@heartbeat`).set('X-Request-Id', 'a b\u00e9').expect(200);
    expect(replaced.headers['x-request-id']).not.toBe('a b\u00e9');
  });

  it('serves @license', async () => {
    const res = await t.http().get(`${t.base}/@license`).expect(200);
    expect(res.body).toMatchObject({ license_type: 'Apache-2.0' });
  });

  it('serves @serverinfo with the database type, to a token holder only', async () => {
    const anonymous = await t.http().get(`${t.base}/@serverinfo`).expect(401);
    expect(anonymous.body).toEqual({ statusCode: 401, errorCode: 4010, errorMessage: expect.any(String) });
    const apikey = await loginAs(t, 'demo', 'Password1');
    const res = await t
      .http()
      .get(`${t.base}/@serverinfo`)
      .set(...authHeader(apikey))
      .expect(200);
    expect(res.body).toMatchObject({ name: 'Tessera', databaseType: target.database });
  });

  it.each([
    ['unknown endpoint', '/rest/default/demo/v1/no_such_thing/1/2/3'],
    ['unknown account', '/rest/nobody/demo/v1/@heartbeat'],
    ['unknown project', '/rest/default/other/v1/@heartbeat'],
    ['unknown version', '/rest/default/demo/v9/@heartbeat'],
    ['path outside the API', '/nothing-here'],
  ])('answers 404 / 4040 for an %s', async (_label, path) => {
    const res = await t.http().get(path).expect(404);
    expect(res.body).toEqual({ statusCode: 404, errorCode: 4040, errorMessage: expect.any(String) });
    expect(res.headers['content-type']).toMatch(/application\/json/);
  });

  it('answers 400 / 4000 for malformed JSON', async () => {
    const res = await t.http().post(`${t.base}/@heartbeat`).set('Content-Type', 'application/json').send('{"a": ');
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ statusCode: 400, errorCode: 4000, errorMessage: expect.any(String) });
  });

  it.each(['{"__proto__": {"admin": true}}', '{"a": {"constructor": {"prototype": {}}}}', '[{"constructor": 1}]'])(
    'refuses a body with a prototype-polluting key: %s',
    async (body) => {
      const res = await t.http().post(`${t.base}/@heartbeat`).set('Content-Type', 'application/json').send(body);
      expect(res.status).toBe(400);
      expect(res.body.errorCode).toBe(4000);
    },
  );

  it('answers 413 / 4130 for a 2 MiB body', async () => {
    const big = JSON.stringify({ data: 'x'.repeat(2 * 1024 * 1024) });
    const res = await t.http().post(`${t.base}/@heartbeat`).set('Content-Type', 'application/json').send(big);
    expect(res.status).toBe(413);
    expect(res.body).toEqual({ statusCode: 413, errorCode: 4130, errorMessage: expect.any(String) });
  });

  it('answers 415 / 4150 for a body that is not JSON', async () => {
    const res = await t.http().post(`${t.base}/@heartbeat`).set('Content-Type', 'text/plain').send('hello');
    expect(res.status).toBe(415);
    expect(res.body).toEqual({ statusCode: 415, errorCode: 4150, errorMessage: expect.any(String) });
  });

  it('created its system tables by migration', async () => {
    const names = [
      'tessera_meta',
      'tessera_migrations',
      'tessera_users',
      'tessera_api_tokens',
      'tessera_login_attempts',
      'tessera_admin_accounts',
      'tessera_admin_tokens',
      'tessera_admin_audit',
    ];
    const runner = t.dataSource.createQueryRunner();
    const tables = await runner.getTables(names).finally(() => runner.release());
    expect(tables.map((x) => x.name.replace(/^.*\./, '')).sort()).toEqual([...names].sort());
    const rows = await t.dataSource.query(
      t.dataSource.driver.options.type === 'postgres'
        ? 'SELECT value FROM tessera_meta WHERE name = $1'
        : 'SELECT value FROM tessera_meta WHERE name = ?',
      ['installed_at'],
    );
    expect(rows).toHaveLength(1);
  });
});
