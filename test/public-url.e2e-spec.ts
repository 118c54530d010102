import type { Test } from 'supertest';
import { authHeader, loginAs } from './support/auth.js';
import { describeEachTarget, suiteApp, type TestApp } from './support/test-app.js';

/** Every link an answer hands out: hrefs, next_batch, the txsummary's hrefs and @docs' server. */
async function linksOf(t: TestApp, key: string, send: (test: Test) => Test): Promise<string[]> {
  const auth = (test: Test) => send(test.set(...authHeader(key)));
  const page = await auth(t.http().get(`${t.base}/customer?pagesize=2`)).expect(200);
  const written = await auth(t.http().post(`${t.base}/product`))
    .send({ name: `Link ${Math.random()}`, price: 1 })
    .expect(201);
  const docs = await auth(t.http().get(`${t.base}/@docs`)).expect(200);
  const rows = page.body as Array<{ '@metadata': { href?: string; next_batch?: string } }>;
  return [
    ...rows.map((r) => r['@metadata'].href ?? r['@metadata'].next_batch!),
    ...(written.body.txsummary as Array<{ '@metadata': { href: string } }>).map((r) => r['@metadata'].href),
    (docs.body.servers as Array<{ url: string }>)[0]!.url,
  ];
}

const HOSTILE_HOSTS: Array<[string, string]> = [
  ['a path', 'evil.example/x'],
  ['a space', 'a b'],
  ['a port out of range', 'x:99999'],
  ['a user', 'user@host'],
  ['an empty value', ''],
  ['a 300-character name', 'a'.repeat(300)],
  ['an unbracketed IPv6 address', '::1'],
  ['a query', 'host?x=1'],
];

describeEachTarget('links and the Host header', (target) => {
  describe('without PUBLIC_URL or TRUST_PROXY', () => {
    let t: TestApp;
    let key: string;
    suiteApp(target, {}, async (app) => {
      t = app;
      key = await loginAs(t, 'demo', 'Password1');
    });

    it.each(HOSTILE_HOSTS)('refuses a Host with %s (400 / 4000), on a read and on @heartbeat alike', async (_label, host) => {
      for (const res of [
        await t
          .http()
          .get(`${t.base}/customer`)
          .set('Host', host)
          .set(...authHeader(key)),
        await t.http().get(`${t.base}/@heartbeat`).set('Host', host),
      ]) {
        expect(res.status).toBe(400);
        expect(res.body).toEqual({ statusCode: 400, errorCode: 4000, errorMessage: 'The Host header is not a valid host[:port].' });
        expect(res.headers['x-request-id']).toEqual(expect.any(String));
        expect(res.headers['cache-control']).toBe('no-store');
      }
    });

    it.each([
      ['a name and port', 'api.example.com:8443', 'http://api.example.com:8443'],
      ['an IPv4 address', '10.1.2.3', 'http://10.1.2.3'],
      ['an IPv6 literal with a port', '[2001:db8::7]:8080', 'http://[2001:db8::7]:8080'],
      ['the IPv6 loopback', '[::1]', 'http://[::1]'],
    ])('builds every link from a Host with %s', async (_label, host, origin) => {
      const links = await linksOf(t, key, (test) => test.set('Host', host));
      expect(links.length).toBeGreaterThanOrEqual(4);
      for (const link of links) expect(link.startsWith(`${origin}/rest/default/demo/v1`)).toBe(true);
    });

    it('ignores X-Forwarded-Host and X-Forwarded-Proto from an untrusted client', async () => {
      const links = await linksOf(t, key, (test) =>
        test.set('Host', 'api.example.com').set('X-Forwarded-Host', 'evil.example').set('X-Forwarded-Proto', 'https'),
      );
      for (const link of links) expect(link.startsWith('http://api.example.com/rest/')).toBe(true);
    });
  });

  describe('with PUBLIC_URL (and TRUST_PROXY)', () => {
    let t: TestApp;
    let key: string;
    suiteApp(target, { env: { PUBLIC_URL: 'https://api.example.com/tessera/', TRUST_PROXY: 'true' } }, async (app) => {
      t = app;
      key = await loginAs(t, 'demo', 'Password1');
    });

    it('starts every link with PUBLIC_URL and its path prefix, whatever Host and X-Forwarded-Host say', async () => {
      const links = await linksOf(t, key, (test) =>
        test.set('Host', 'evil.example').set('X-Forwarded-Host', 'other.example').set('X-Forwarded-Proto', 'http'),
      );
      expect(links.length).toBeGreaterThanOrEqual(4);
      for (const link of links) expect(link.startsWith('https://api.example.com/tessera/rest/default/demo/v1')).toBe(true);
      expect(links.some((l) => /\/customer\?pagesize=2&offset=2$/.test(l))).toBe(true);
    });

    it('hands out a next_batch that works once the proxy strips the prefix', async () => {
      const page = await t
        .http()
        .get(`${t.base}/customer?pagesize=1`)
        .set(...authHeader(key))
        .expect(200);
      const next = new URL(page.body[1]['@metadata'].next_batch as string);
      const follow = await t
        .http()
        .get(`${next.pathname.replace(/^\/tessera/, '')}${next.search}`)
        .set(...authHeader(key))
        .expect(200);
      expect(follow.body[0]['@metadata'].href).not.toBe(page.body[0]['@metadata'].href);
    });

    it('answers a request whose Host is not valid: no link is built from it', async () => {
      const res = await t
        .http()
        .get(`${t.base}/customer/Acme%20Anchors`)
        .set('Host', 'a b')
        .set(...authHeader(key))
        .expect(200);
      expect(res.body[0]['@metadata'].href).toBe('https://api.example.com/tessera/rest/default/demo/v1/customer/Acme%20Anchors');
    });
  });

  describe('with TRUST_PROXY and no PUBLIC_URL', () => {
    let t: TestApp;
    let key: string;
    suiteApp(target, { env: { TRUST_PROXY: 'true' } }, async (app) => {
      t = app;
      key = await loginAs(t, 'demo', 'Password1');
    });

    it("builds links from the proxy's X-Forwarded-Host and X-Forwarded-Proto", async () => {
      const links = await linksOf(t, key, (test) =>
        test.set('Host', 'internal:8080').set('X-Forwarded-Host', 'api.example.com, inner.proxy').set('X-Forwarded-Proto', 'https'),
      );
      for (const link of links) expect(link.startsWith('https://api.example.com/rest/')).toBe(true);
    });

    it('refuses an X-Forwarded-Host that is not a valid host[:port]', async () => {
      const res = await t
        .http()
        .get(`${t.base}/customer`)
        .set('X-Forwarded-Host', 'evil.example/x')
        .set(...authHeader(key));
      expect(res.status).toBe(400);
      expect(res.body).toEqual({
        statusCode: 400,
        errorCode: 4000,
        errorMessage: 'The X-Forwarded-Host header is not a valid host[:port].',
      });
    });
  });
});
