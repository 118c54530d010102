import { ApiToken } from '../src/tokens/api-token.entity.js';
import { TokensService } from '../src/tokens/tokens.service.js';
import { hashTokenValue } from '../src/tokens/token-value.js';
import { adminHeader, authHeader, createManualToken, loginAs } from './support/auth.js';
import { ManualClock } from './support/manual-clock.js';
import { duringRolledBackWrite } from './support/rolled-back-write.js';
import { describeEachTargetOnBothAdapters, suiteApp, type TestApp } from './support/test-app.js';

describeEachTargetOnBothAdapters('API key guard', (target) => {
  describe('with the project defaults (no token in URLs)', () => {
    let t: TestApp;
    const clock = new ManualClock();

    suiteApp(target, { clock }, (app) => {
      t = app;
    });

    const serverinfo = () => t.http().get(`${t.base}/@serverinfo`);
    const tokenList = async () =>
      (
        await t
          .http()
          .get('/admin/v1/tokens?pagesize=1000')
          .set(...(await adminHeader(t)))
          .expect(200)
      ).body.items;

    it.each(['@heartbeat', '@license', '@login_info'])('serves the public %s without a token', async (endpoint) => {
      await t.http().get(`${t.base}/${endpoint}`).expect(200);
    });

    it('describes the login form at @login_info', async () => {
      const res = await t.http().get(`${t.base}/@login_info`).expect(200);
      expect(res.body).toEqual({
        fields: [
          { name: 'username', display: 'User name', type: 'text' },
          { name: 'password', display: 'Password', type: 'password' },
        ],
        links: [],
      });
    });

    it('answers 401 / 4010 without a token, and for a scheme that is not ours', async () => {
      for (const header of [undefined, 'Basic ZGVtbzpQYXNzd29yZDE=', 'Bearer', 'Token abc']) {
        const req = serverinfo();
        if (header) req.set('Authorization', header);
        const res = await req.expect(401);
        expect(res.body).toEqual({ statusCode: 401, errorCode: 4010, errorMessage: expect.any(String) });
      }
    });

    it('answers 404 for an API this service does not serve before asking for a token', async () => {
      const res = await t.http().get('/rest/nobody/demo/v1/@serverinfo').expect(404);
      expect(res.body.errorCode).toBe(4040);
    });

    it('answers 401 / 4011 for an unknown key', async () => {
      const res = await serverinfo().set('Authorization', 'CALiveAPICreator not-a-real-key-000:1').expect(401);
      expect(res.body).toEqual({ statusCode: 401, errorCode: 4011, errorMessage: expect.any(String) });
    });

    it('accepts every header form: CALiveAPICreator, Espresso, Bearer, any case, with or without :n', async () => {
      const key = await loginAs(t, 'readonly', 'Password1');
      for (const header of [
        `CALiveAPICreator ${key}:1`,
        `Espresso ${key}:1`,
        `Bearer ${key}`,
        `bearer ${key}:2`,
        `calIVEapiCREATOR ${key}`,
        `ESPRESSO  ${key}:1 `,
      ]) {
        await serverinfo().set('Authorization', header).expect(200);
      }
    });

    it('refuses ?auth= with 401 / 4014 while the project does not permit it, even with a good key', async () => {
      const key = await loginAs(t, 'readonly', 'Password1');
      const res = await t.http().get(`${t.base}/@serverinfo?auth=${key}:1`).expect(401);
      expect(res.body).toEqual({ statusCode: 401, errorCode: 4014, errorMessage: expect.any(String) });
    });

    it('runs a hand-made token on @serverinfo until it is disabled', async () => {
      const apikey = await createManualToken(t, { roles: ['Full access'], globals: { tenant: 7 }, label: 'machine' });
      await serverinfo()
        .set(...authHeader(apikey))
        .expect(200);
      const [token] = (await tokenList()).filter((x: { label: string }) => x.label === 'machine');
      await t
        .http()
        .post(`/admin/v1/tokens/${token.id}/disable`)
        .set(...(await adminHeader(t)))
        .expect(200);
      expect(
        (
          await serverinfo()
            .set(...authHeader(apikey))
            .expect(401)
        ).body.errorCode,
      ).toBe(4011);
    });

    it('refuses a hand-made token once disabled at @authentication', async () => {
      const apikey = await createManualToken(t, { roles: ['Full access'] });
      await t.http().post(`${t.base}/@authentication`).send({ apikey, disable: true }).expect(200);
      expect(
        (
          await serverinfo()
            .set(...authHeader(apikey))
            .expect(401)
        ).body.errorCode,
      ).toBe(4011);
    });

    it('answers 401 / 4012 for a hand-made token past its expiration', async () => {
      const apikey = await createManualToken(t, { roles: [], expiration: new Date(clock.now() - 1000).toISOString() });
      const res = await serverinfo()
        .set(...authHeader(apikey))
        .expect(401);
      expect(res.body).toEqual({ statusCode: 401, errorCode: 4012, errorMessage: expect.any(String) });
    });

    it('accepts a chosen public key of 16 characters or more', async () => {
      const apikey = await createManualToken(t, { roles: [], key: `public-demo-key-${target.adapter}` });
      expect(apikey).toBe(`public-demo-key-${target.adapter}`);
      await serverinfo()
        .set(...authHeader(apikey))
        .expect(200);
    });

    it('checks a token against committed rows only: a disable in a transaction that rolls back does not count', async () => {
      const apikey = await createManualToken(t, { roles: ['Full access'], label: 'uncommitted' });
      const [token] = (await tokenList()).filter((x: { label: string }) => x.label === 'uncommitted');
      const answer = await duringRolledBackWrite(
        t,
        () => serverinfo().set(...authHeader(apikey)),
        (manager) => manager.update(ApiToken, { id: token.id }, { disabled: true }),
      );
      expect(answer.status).toBe(200);
    });

    it('records a use made while another write transaction is open that then rolls back', async () => {
      const apikey = await createManualToken(t, { roles: [], label: 'used-meanwhile' });
      const tokens = t.app.get(TokensService);
      const { token } = (await tokens.findByKey(apikey))!;
      // The service itself: over HTTP the token check first reads through the gate, so the
      // write that follows meets an open transaction only by chance.
      await duringRolledBackWrite(t, () => tokens.markUsed(token));
      expect((await tokenList()).find((x: { label: string }) => x.label === 'used-meanwhile').lastUsed).toEqual(expect.any(String));
    });

    it('records last use at most once a minute per token', async () => {
      const apikey = await createManualToken(t, { roles: [], label: 'usage' });
      const lastUsed = async () => (await tokenList()).find((x: { label: string }) => x.label === 'usage').lastUsed;
      expect(await lastUsed()).toBeNull();
      await serverinfo()
        .set(...authHeader(apikey))
        .expect(200);
      const first = await lastUsed();
      expect(first).toEqual(expect.any(String));
      clock.advance(10);
      await serverinfo()
        .set(...authHeader(apikey))
        .expect(200);
      expect(await lastUsed()).toBe(first);
      clock.advance(61);
      await serverinfo()
        .set(...authHeader(apikey))
        .expect(200);
      expect(Date.parse(await lastUsed())).toBeGreaterThan(Date.parse(first));
    });
  });

  describe('token cache (TOKEN_CACHE_SECONDS)', () => {
    let cached: TestApp;
    let uncached: TestApp;
    const clock = new ManualClock();

    suiteApp(target, { clock, env: { TOKEN_CACHE_SECONDS: '5' } }, (app) => {
      cached = app;
    });
    suiteApp(target, { env: { TOKEN_CACHE_SECONDS: '0' } }, (app) => {
      uncached = app;
    });

    /** Disables the token in the database directly, as another instance sharing it would. */
    async function disableElsewhere(app: TestApp, apikey: string): Promise<void> {
      const param = app.dataSource.driver.options.type === 'postgres' ? '$1' : '?';
      await app.dataSource.query(
        `UPDATE tessera_api_tokens SET disabled = ${target.database === 'postgres' ? 'true' : '1'} WHERE key_hash = ${param}`,
        [hashTokenValue(apikey)],
      );
    }
    const serverinfoOf = (app: TestApp, apikey: string) =>
      app
        .http()
        .get(`${app.base}/@serverinfo`)
        .set(...authHeader(apikey));

    it('sees a change made elsewhere once the cached row is TOKEN_CACHE_SECONDS old, and at once when the cache is off', async () => {
      const key = await createManualToken(cached, { roles: [] });
      await serverinfoOf(cached, key).expect(200);
      await disableElsewhere(cached, key);
      // ManualClock runs on real time plus the advances: leave a margin for a slow machine.
      clock.advance(3);
      await serverinfoOf(cached, key).expect(200); // the cached row, as documented
      clock.advance(2);
      expect((await serverinfoOf(cached, key).expect(401)).body.errorCode).toBe(4011);

      const other = await createManualToken(uncached, { roles: [] });
      await serverinfoOf(uncached, other).expect(200);
      await disableElsewhere(uncached, other);
      expect((await serverinfoOf(uncached, other).expect(401)).body.errorCode).toBe(4011);
    });

    it('still judges expiration on every request, whatever the cache holds', async () => {
      const key = await createManualToken(cached, { roles: [], expiration: new Date(clock.now() + 2000).toISOString() });
      await serverinfoOf(cached, key).expect(200);
      clock.advance(3);
      expect((await serverinfoOf(cached, key).expect(401)).body.errorCode).toBe(4012);
    });
  });

  describe('with PERMIT_AUTH_IN_URL=true', () => {
    let t: TestApp;

    suiteApp(target, { env: { PERMIT_AUTH_IN_URL: 'true' } }, (app) => {
      t = app;
    });

    it('accepts ?auth=<key>:1 and ?auth=<key> on GET', async () => {
      const key = await loginAs(t, 'readonly', 'Password1');
      await t.http().get(`${t.base}/@serverinfo?auth=${key}:1`).expect(200);
      await t.http().get(`${t.base}/@serverinfo?auth=${key}`).expect(200);
    });

    it('refuses ?auth= on a request that is not a GET', async () => {
      const key = await loginAs(t, 'readonly', 'Password1');
      // HEAD reaches the same route as GET on both adapters; only the method differs.
      await t.http().head(`${t.base}/@serverinfo?auth=${key}:1`).expect(401);
    });

    it('still checks the key given in the URL', async () => {
      const res = await t.http().get(`${t.base}/@serverinfo?auth=no-such-key-000:1`).expect(401);
      expect(res.body.errorCode).toBe(4011);
    });
  });

  describe('with AUTH_PROVIDER=none', () => {
    let t: TestApp;

    suiteApp(target, { env: { AUTH_PROVIDER: 'none' } }, (app) => {
      t = app;
    });

    it('refuses credential logins with 401 / 4013, saying the project uses hand-made tokens', async () => {
      const res = await t.http().post(`${t.base}/@authentication`).send({ username: 'demo', password: 'Password1' }).expect(401);
      expect(res.body).toEqual({ statusCode: 401, errorCode: 4013, errorMessage: expect.stringMatching(/hand-made/) });
    });

    it('serves hand-made tokens', async () => {
      const apikey = await createManualToken(t, { roles: ['Full access'] });
      await t
        .http()
        .get(`${t.base}/@serverinfo`)
        .set(...authHeader(apikey))
        .expect(200);
      await t.http().post(`${t.base}/@authentication`).send({ apikey }).expect(200);
    });

    it('shows an empty login form', async () => {
      expect((await t.http().get(`${t.base}/@login_info`).expect(200)).body).toEqual({ fields: [], links: [] });
    });
  });
});
