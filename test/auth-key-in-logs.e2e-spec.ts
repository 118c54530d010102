import { apiWithKey } from './support/api.js';
import { authHeader, loginAs } from './support/auth.js';
import { capturedLog } from './support/captured-log.js';
import { describeEachTargetOnBothAdapters, suiteApp, type TestApp } from './support/test-app.js';

/**
 * Near misses of `auth`: a key is read only under the exact name, so none of them authenticates, on either
 * adapter (whatever Express's and Fastify's query parsers make of the name), but some reader of the URL could
 * take each for `auth`, so the log must not show its value in clear either.
 */
const NEAR_MISSES = [
  'auth[]',
  '%20auth',
  'AUTH',
  'Auth',
  'auth%20',
  'auth[0]',
  '%61uth',
  'auth[x]',
  '+auth',
  '%2561uth',
  'a%75th',
  '%61%75%74%68',
  'a%55TH',
  '[auth]',
  'auth%5B%5D',
  '%3Fauth',
  '%09auth',
  'auth+',
];

describeEachTargetOnBothAdapters('an auth key in the URL never reaches the log', (target) => {
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

  it('authenticates with ?auth=<key> and logs the request line without the key', async () => {
    const name = 'auth';
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

  it.each(NEAR_MISSES)('does not take ?%s=<key> for a key (401 / 4010) and logs it redacted', async (name) => {
    const res = await t.http().get(`${t.base}/customer?${name}=${key}:1&pagesize=2`).expect(401);
    expect(res.body.errorCode).toBe(4010);
    expect(JSON.stringify(res.body)).not.toContain(key);
    const lines = await requestLines(`${t.base}/customer?${name}=`);
    expect(lines).toEqual([expect.objectContaining({ path: `${t.base}/customer?${name}=[REDACTED]&pagesize=2`, status: 401 })]);
    expect(log.text()).not.toContain(key);
  });

  it.each(NEAR_MISSES)(
    'with the key in the header, ?%s=<key> reaches neither the answer (next_batch included) nor the log',
    async (name) => {
      const res = await t
        .http()
        .get(`${t.base}/customer?pagesize=1&${name}=${key}`)
        .set('Host', 'tessera.test')
        .set(...authHeader(key));
      // A name both adapters' parsers decode to `auth` is the auth parameter (its value unused); any other is unknown.
      expect(res.status).toBe(decodeURIComponent(name) === 'auth' ? 200 : 400);
      expect(JSON.stringify(res.body)).not.toContain(key);
      const lines = await requestLines(`${t.base}/customer?pagesize=1&${name}=`);
      expect(lines).toEqual([expect.objectContaining({ path: `${t.base}/customer?pagesize=1&${name}=[REDACTED]` })]);
      expect(log.text()).not.toContain(key);
    },
  );

  it.each([
    ['auth', 4014],
    ['a%75th', 4010],
  ])('keeps the key out of a refused request’s line (a POST may not carry it): ?%s= answers %d', async (name, code) => {
    const res = await t.http().post(`${t.base}/customer?${name}=${key}`).set('Content-Type', 'application/json').send('{}');
    expect(res.body.errorCode).toBe(code);
    expect((await requestLines(`${t.base}/customer?${name}=`))[0]).toMatchObject({
      path: `${t.base}/customer?${name}=[REDACTED]`,
      status: 401,
    });
    expect(log.text()).not.toContain(key);
  });

  // Last: it drops a table of the demo.
  it('keeps the key out of the error line of a failed request', async () => {
    await t.dataSource.query('DROP TABLE purchaseorder_audit');
    const res = await t.http().get(`${t.base}/purchaseorder_audit?auth=${key}:1`);
    expect(res.status).toBeGreaterThanOrEqual(500);
    const errors = log.records().filter((r) => r.level === 50 && String(r.path).includes('purchaseorder_audit'));
    expect(errors).toEqual([expect.objectContaining({ path: `${t.base}/purchaseorder_audit?auth=[REDACTED]` })]);
    expect(log.text()).not.toContain(key);
  });
});
