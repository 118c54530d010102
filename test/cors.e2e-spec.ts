import type { Response } from 'supertest';
import { adminHeader, authHeader, loginAs } from './support/auth.js';
import { suiteApp, testTargets, type TestApp } from './support/test-app.js';

const APP = 'https://app.example.com';
const DEV = 'http://localhost:5173';
const CORS_ORIGINS = `${APP}, ${DEV}`;

/** Every Access-Control-* header of an answer. */
function corsHeadersOf(res: Response): Record<string, string> {
  return Object.fromEntries(Object.entries(res.headers as Record<string, string>).filter(([name]) => name.startsWith('access-control-')));
}

function expectActualCors(res: Response, origin: string): void {
  expect(res.headers['access-control-allow-origin']).toBe(origin);
  // A resource GET's answer also depends on Accept (README, "CSV and XML").
  expect(res.headers.vary).toMatch(/^Origin(, Accept)?$/);
  expect(res.headers['access-control-expose-headers']).toBe('ETag, X-Request-Id, Retry-After');
  expect(res.headers['access-control-allow-credentials']).toBeUndefined();
}

const PREFLIGHT_REFUSED = {
  statusCode: 404,
  errorCode: 4040,
  errorMessage: 'No cross-origin access: this service does not answer browsers calling it from that origin (see CORS_ORIGINS).',
};

// CORS is decided in front of the HTTP framework, before any database work: SQLite on both adapters covers it.
for (const target of testTargets({ adapters: 'both' }).filter((t) => t.database === 'sqlite')) {
  describe(`CORS with CORS_ORIGINS set [${target.name}]`, () => {
    let t: TestApp;
    let key: string;

    suiteApp(target, { env: { CORS_ORIGINS } }, async (app) => {
      t = app;
      key = await loginAs(t, 'demo', 'Password1');
    });

    it.each([
      ['a data API collection', APP, () => `${t.base}/customer`, 'PUT'],
      ['a data API row', DEV, () => `${t.base}/customer/Acme%20Anchors`, 'DELETE'],
      ['the data API login', APP, () => `${t.base}/@authentication`, 'POST'],
      ['the admin API', DEV, () => '/admin/v1/users', 'PATCH'],
      ['the admin login', APP, () => '/admin/v1/@authentication', 'POST'],
    ])('answers a preflight to %s from an allowed origin with 204 and what the API accepts', async (_label, origin, path, method) => {
      const res = await t
        .http()
        .options(path())
        .set('Origin', origin)
        .set('Access-Control-Request-Method', method)
        .set('Access-Control-Request-Headers', 'authorization,content-type,if-match');
      expect(res.status).toBe(204);
      expect(res.text).toBe('');
      expect(corsHeadersOf(res)).toEqual({
        'access-control-allow-origin': origin,
        'access-control-allow-methods': 'GET, POST, PUT, PATCH, DELETE, OPTIONS',
        'access-control-allow-headers': 'Authorization, Content-Type, If-Match, If-None-Match, X-Request-Id',
        'access-control-max-age': '600',
      });
      expect(res.headers.vary).toBe('Origin');
      // Every answer's headers, this one's too.
      expect(res.headers['cache-control']).toBe('no-store');
      expect(res.headers['x-request-id']).toEqual(expect.any(String));
    });

    it('gives actual answers the origin, Vary: Origin and the headers a script may read (ETag, X-Request-Id)', async () => {
      const row = await t
        .http()
        .get(`${t.base}/customer/Acme%20Anchors`)
        .set('Origin', APP)
        .set(...authHeader(key))
        .expect(200);
      expectActualCors(row, APP);
      expect(row.headers.etag).toMatch(/^"R:/);
      const admin = await t
        .http()
        .get('/admin/v1/users')
        .set('Origin', DEV)
        .set(...(await adminHeader(t)))
        .expect(200);
      expectActualCors(admin, DEV);
      const login = await t
        .http()
        .post('/admin/v1/@authentication')
        .set('Origin', APP)
        .send({ username: 'nobody', password: 'wrong-password' });
      expect(login.status).toBe(401);
      expectActualCors(login, APP);
    });

    it('gives error envelopes the same headers: 401, 404, 400, and 414 and bad Host refused before routing', async () => {
      const answers: Array<[number, Response]> = [
        [401, await t.http().get(`${t.base}/customer`).set('Origin', APP)],
        [401, await t.http().get('/admin/v1/users').set('Origin', APP)],
        [
          404,
          await t
            .http()
            .get(`${t.base}/no_such_table`)
            .set('Origin', APP)
            .set(...authHeader(key)),
        ],
        [
          400,
          await t
            .http()
            .post(`${t.base}/customer`)
            .set('Origin', APP)
            .set(...authHeader(key))
            .set('Content-Type', 'application/json')
            .send('{"name": '),
        ],
        [
          414,
          await t
            .http()
            .get(`${t.base}/customer?x=${'a'.repeat(9000)}`)
            .set('Origin', APP),
        ],
        [400, await t.http().get(`${t.base}/@heartbeat`).set('Origin', APP).set('Host', 'bad host')],
      ];
      for (const [status, res] of answers) {
        expect(res.status).toBe(status);
        expect(res.body).toMatchObject({ statusCode: status, errorCode: expect.any(Number), errorMessage: expect.any(String) });
        expectActualCors(res, APP);
      }
    });

    it.each([
      ['an origin not listed', 'https://evil.example'],
      ['a listed host on another port', 'https://app.example.com:8443'],
      ['a listed host over another scheme', 'http://app.example.com'],
      ['a longer host ending like a listed one', 'https://app.example.com.evil.example'],
      ['the opaque origin of a sandboxed page or file', 'null'],
    ])('names no origin to %s: its preflight is a 404 envelope, its answers carry no CORS header', async (_label, origin) => {
      const preflight = await t.http().options(`${t.base}/customer`).set('Origin', origin).set('Access-Control-Request-Method', 'GET');
      expect(preflight.status).toBe(404);
      expect(preflight.body).toEqual(PREFLIGHT_REFUSED);
      expect(corsHeadersOf(preflight)).toEqual({});
      const read = await t
        .http()
        .get(`${t.base}/customer`)
        .set('Origin', origin)
        .set(...authHeader(key))
        .expect(200);
      expect(corsHeadersOf(read)).toEqual({});
      // The answer still depends on Origin, so a cache must key on it (and on Accept: README, "CSV and XML").
      expect(read.headers.vary).toBe('Origin, Accept');
    });

    it('answers nothing cross-origin outside /rest and /admin/v1', async () => {
      const preflight = await t.http().options('/health/ready').set('Origin', APP).set('Access-Control-Request-Method', 'GET');
      expect(preflight.status).toBe(404);
      expect(corsHeadersOf(preflight)).toEqual({});
      const health = await t.http().get('/health/ready').set('Origin', APP).expect(200);
      expect(corsHeadersOf(health)).toEqual({});
      expect(health.headers.vary).toBeUndefined();
    });

    it('leaves a plain OPTIONS (no Access-Control-Request-Method) to the router: 404 as before', async () => {
      const res = await t.http().options(`${t.base}/customer`).set('Origin', APP);
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ statusCode: 404, errorCode: 4040, errorMessage: 'No such resource or endpoint.' });
      expect(res.headers['access-control-allow-origin']).toBe(APP);
      expect(res.headers['access-control-allow-methods']).toBeUndefined();
    });

    it('reads a body without Content-Type from a listed origin only while Sec-Fetch-Site does not say another site', async () => {
      // A Buffer: supertest sends it without a Content-Type.
      const login = Buffer.from(JSON.stringify({ username: 'demo', password: 'Password1' }));
      const post = (headers: Record<string, string>) => t.http().post(`${t.base}/@authentication`).set(headers).send(login);
      expect((await post({ Origin: APP })).status).toBe(200);
      expect((await post({ Origin: DEV, 'Sec-Fetch-Site': 'same-origin' })).status).toBe(200);
      const crossSite = await post({ Origin: APP, 'Sec-Fetch-Site': 'cross-site' });
      expect(crossSite.body).toMatchObject({ statusCode: 415, errorCode: 4150 });
      expectActualCors(crossSite, APP);
      expect((await post({ Origin: 'https://evil.example' })).body).toMatchObject({ statusCode: 415, errorCode: 4150 });
    });
  });

  describe(`CORS without CORS_ORIGINS [${target.name}]`, () => {
    let t: TestApp;
    let key: string;

    suiteApp(target, {}, async (app) => {
      t = app;
      key = await loginAs(t, 'demo', 'Password1');
    });

    it.each([
      ['the data API', () => `${t.base}/customer`],
      ['the admin API', () => '/admin/v1/users'],
    ])('refuses a preflight to %s with a 404 envelope that says why, and no CORS header', async (_label, path) => {
      const res = await t
        .http()
        .options(path())
        .set('Origin', APP)
        .set('Access-Control-Request-Method', 'POST')
        .set('Access-Control-Request-Headers', 'authorization,content-type');
      expect(res.status).toBe(404);
      expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
      expect(res.body).toEqual(PREFLIGHT_REFUSED);
      expect(corsHeadersOf(res)).toEqual({});
    });

    it('sends no CORS header, nor Vary: Origin, on answers to a page of another origin', async () => {
      const res = await t
        .http()
        .get(`${t.base}/customer`)
        .set('Origin', APP)
        .set(...authHeader(key))
        .expect(200);
      expect(corsHeadersOf(res)).toEqual({});
      // Only the Accept a resource GET is negotiated by (README, "CSV and XML").
      expect(res.headers.vary).toBe('Accept');
    });
  });
}
