import { apiWithKey } from './support/api.js';
import { authHeader, loginAs } from './support/auth.js';
import { capturedLog } from './support/captured-log.js';
import { describeEachTarget, suiteApp, type TestApp } from './support/test-app.js';

/** Spellings of the `auth` parameter that authenticate: the name is read after URL-decoding. */
const READ_AS_KEY = ['auth', '%61uth', 'a%75th', '%61%75%74%68'];
/** Spellings that do not authenticate, but that a log must not show in clear either. */
const NOT_READ = ['AUTH', 'Auth', '%41uth', 'a%55TH'];

describeEachTarget('an auth key in the URL never reaches the log', (target) => {
  let t: TestApp;
  let key: string;
  const log = capturedLog('info');

  suiteApp(target, { logger: log.logger, env: { PERMIT_AUTH_IN_URL: 'true', LOG_LEVEL: 'info' } }, async (app) => {
    t = app;
    key = await loginAs(t, 'demo', 'Password1');
  });
  beforeEach(() => log.clear());

  /** The request lines logged for `path` (the log line is written when the response finishes). */
  async function requestLines(pathStart: string): Promise<Array<Record<string, unknown>>> {
    for (let wait = 0; wait < 50; wait++) {
      const lines = log.records().filter((r) => r.msg === 'request' && String(r.path).startsWith(pathStart));
      if (lines.length > 0) return lines;
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    return [];
  }

  it.each(READ_AS_KEY)('authenticates with ?%s=<key> and logs the request line without the key', async (name) => {
    const path = `${t.base}/customer?pagesize=2&${name}=${key}:1`;
    const res = await t.http().get(path).set('Host', 'tessera.test').expect(200);
    const next = res.body[res.body.length - 1]['@metadata'].next_batch as string;
    expect(next).toMatch(/offset=2/);
    expect(next).not.toContain(key);
    // The link still works, with the key sent the usual way.
    await apiWithKey(t, key).getUrl(next).expect(200);
    const lines = await requestLines(`${t.base}/customer?pagesize=2&${name}=`);
    expect(lines).toEqual([expect.objectContaining({ path: `${t.base}/customer?pagesize=2&${name}=[REDACTED]`, status: 200 })]);
    expect(log.text()).not.toContain(key);
  });

  it.each(NOT_READ)('logs ?%s=<key> redacted too, and refuses it as an unknown parameter without echoing the key', async (name) => {
    const path = `${t.base}/customer?${name}=${key}&pagesize=2`;
    const res = await t
      .http()
      .get(path)
      .set('Host', 'tessera.test')
      .set(...authHeader(key))
      .expect(400);
    expect(res.body.errorCode).toBe(4000);
    expect(JSON.stringify(res.body)).not.toContain(key);
    const lines = await requestLines(`${t.base}/customer?${name}=`);
    expect(lines).toEqual([expect.objectContaining({ path: `${t.base}/customer?${name}=[REDACTED]&pagesize=2` })]);
    expect(log.text()).not.toContain(key);
  });

  it('keeps the key out of a refused request’s line (a POST may not carry it)', async () => {
    const res = await t.http().post(`${t.base}/customer?a%75th=${key}`).set('Content-Type', 'application/json').send('{}');
    expect(res.body.errorCode).toBe(4014);
    expect((await requestLines(`${t.base}/customer?a%75th=`))[0]).toMatchObject({
      path: `${t.base}/customer?a%75th=[REDACTED]`,
      status: 401,
    });
    expect(log.text()).not.toContain(key);
  });

  // Last: it drops a table of the demo.
  it('keeps the key out of the error line of a failed request', async () => {
    await t.dataSource.query('DROP TABLE purchaseorder_audit');
    const res = await t.http().get(`${t.base}/purchaseorder_audit?%61uth=${key}:1`);
    expect(res.status).toBeGreaterThanOrEqual(500);
    const errors = log.records().filter((r) => r.level === 50 && String(r.path).includes('purchaseorder_audit'));
    expect(errors).toEqual([expect.objectContaining({ path: `${t.base}/purchaseorder_audit?%61uth=[REDACTED]` })]);
    expect(log.text()).not.toContain(key);
  });
});
