import { API_HOST } from './support/api.js';
import { authHeader, createUser, loginAs } from './support/auth.js';
import { describeEachTargetOnBothAdapters, suiteApp, type TestApp } from './support/test-app.js';

const basic = (user: string, password: string): string => `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;

describeEachTargetOnBothAdapters('HTTP Basic', (target) => {
  describe('with HTTP_BASIC_AUTH=true', () => {
    let t: TestApp;
    suiteApp(target, { env: { HTTP_BASIC_AUTH: 'true', LOGIN_MAX_FAILURES: '3' } }, (app) => {
      t = app;
    });
    const get = (path: string, authorization?: string) => {
      const test = t.http().get(`${t.base}${path}`).set('Host', API_HOST);
      return authorization ? test.set('Authorization', authorization) : test;
    };

    it('answers curl -u demo:Password1 <base>/customer with 200, the same rows as with a token', async () => {
      const res = await get('/customer', basic('demo', 'Password1')).expect(200);
      const key = await loginAs(t, 'demo', 'Password1');
      const withKey = await get('/customer', authHeader(key)[1]).expect(200);
      expect(res.body).toEqual(withKey.body);
      // Again, from the cache.
      await get('/customer', basic('demo', 'Password1')).expect(200);
    });

    it('challenges a request without credentials: 401 / 4010 with WWW-Authenticate: Basic realm', async () => {
      const res = await get('/customer').expect(401);
      expect(res.body.errorCode).toBe(4010);
      expect(res.headers['www-authenticate']).toBe('Basic realm="default/demo", charset="UTF-8"');
    });

    it('refuses a wrong password or an unknown user alike (401 / 4013, the same message), with the challenge', async () => {
      const wrong = await get('/customer', basic('demo', 'wrong')).expect(401);
      const nobody = await get('/customer', basic('nobody-here', 'wrong')).expect(401);
      expect(wrong.body).toEqual(nobody.body);
      expect(wrong.body.errorCode).toBe(4013);
      expect(wrong.headers['www-authenticate']).toMatch(/^Basic realm=/);
      const unreadable = await get('/customer', 'Basic %%%').expect(401);
      expect(unreadable.body.errorCode).toBe(4013);
    });

    it('counts a wrong password against the login throttle, as a failed login', async () => {
      await createUser(t, { login: 'basic-throttled', password: 'Password1', roles: ['Full access'] });
      for (let i = 0; i < 3; i++) await get('/customer', basic('basic-throttled', `wrong-${i}`)).expect(401);
      const login = await t
        .http()
        .post(`${t.base}/@authentication`)
        .set('Host', API_HOST)
        .send({ username: 'basic-throttled', password: 'Password1' })
        .expect(429);
      expect(login.body.errorCode).toBe(4290);
      expect((await get('/customer', basic('basic-throttled', 'Password1')).expect(429)).headers['retry-after']).toMatch(/^\d+$/);
    });

    it('forgets cached credentials once the password changes', async () => {
      await createUser(t, { login: 'basic-changer', password: 'Password1', roles: ['Full access'] });
      await get('/customer', basic('basic-changer', 'Password1')).expect(200);
      await t
        .http()
        .post(`${t.base}/@authentication?enablePasswordChange!`)
        .set('Host', API_HOST)
        .send({ username: 'basic-changer', password: 'Password1', new_password: 'Password2-longer' })
        .expect(200);
      expect((await get('/customer', basic('basic-changer', 'Password1')).expect(401)).body.errorCode).toBe(4013);
      await get('/customer', basic('basic-changer', 'Password2-longer')).expect(200);
    });

    it('@apioptions says HTTP Basic is on', async () => {
      const options = (await get('/@apioptions', basic('demo', 'Password1')).expect(200)).body as Record<
        string,
        { name: string; option_value: string }
      >;
      expect(Object.values(options).find((o) => o.name === 'Enable HTTP Basic Authentication')?.option_value).toBe('true');
    });

    it('keeps API keys working; a key in the header is used as before', async () => {
      const key = await loginAs(t, 'demo', 'Password1');
      await get('/customer?pagesize=1', authHeader(key)[1]).expect(200);
      expect((await get('/customer', 'CALiveAPICreator no-such-key:1').expect(401)).body.errorCode).toBe(4011);
    });
  });

  describe('by default (off)', () => {
    let t: TestApp;
    suiteApp(target, {}, (app) => {
      t = app;
    });

    it('ignores Basic credentials: 401 / 4010, no challenge', async () => {
      const res = await t
        .http()
        .get(`${t.base}/customer`)
        .set('Host', API_HOST)
        .set('Authorization', basic('demo', 'Password1'))
        .expect(401);
      expect(res.body.errorCode).toBe(4010);
      expect(res.headers['www-authenticate']).toBeUndefined();
    });
  });
});
