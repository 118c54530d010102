import { adminHeader, authHeader, createManualToken, expectKeyOpensApi } from './support/auth.js';
import { describeEachTarget, startTestApp, suiteApp, testTargets, type TestApp } from './support/test-app.js';

/** Fixture modules, each well made or broken in the way its name says (test/fixtures/providers/README.md). */
const FIXTURES = { AUTH_PROVIDERS_DIR: 'test/fixtures/providers' };

describeEachTarget('custom auth providers', (target) => {
  describe('a provider that accepts anyone (ES module, default export)', () => {
    let t: TestApp;
    suiteApp(target, { env: { ...FIXTURES, AUTH_PROVIDER: 'accept-all' } }, (app) => {
      t = app;
    });
    const login = (body: object) => t.http().post(`${t.base}/@authentication`).send(body);

    it('logs in through @authentication with whatever credential fields it reads; the token opens the API', async () => {
      const res = await login({ ticket: 'anything' }).expect(200);
      expect(res.body).toEqual({
        apikey: expect.any(String),
        expiration: expect.any(String),
        lastLoginTs: null,
        lastLoginIP: null,
        email: 'someone@example.org',
        team: 'blue',
      });
      await expectKeyOpensApi(t, res.body.apikey);
    });

    it('ties its tokens to no built-in user, even one of the same name that is made inactive', async () => {
      const { apikey } = (await login({ username: 'readonly', password: 'not the built-in one' }).expect(200)).body;
      await t
        .http()
        .patch('/admin/v1/users/readonly')
        .set(...(await adminHeader(t)))
        .send({ active: false })
        .expect(200);
      await t
        .http()
        .get(`${t.base}/@serverinfo`)
        .set(...authHeader(apikey))
        .expect(200);
      const tokens = await t
        .http()
        .get('/admin/v1/tokens?pagesize=1000')
        .set(...(await adminHeader(t)))
        .expect(200);
      expect(tokens.body.items).toContainEqual(
        expect.objectContaining({
          label: 'Temp key for readonly',
          userIdentifier: 'readonly',
          origin: 'provider',
          status: 'active',
          roles: ['Full access'],
          globals: { tenant: 'acme' },
        }),
      );
    });

    it('still serves hand-made tokens', async () => {
      const apikey = await createManualToken(t, { roles: ['Full access'] });
      await expectKeyOpensApi(t, apikey);
    });

    it('tells operators which provider is active, and only operators', async () => {
      const res = await t
        .http()
        .get('/admin/v1/provider')
        .set(...(await adminHeader(t)))
        .expect(200);
      expect(res.body).toEqual({ name: 'accept-all', kind: 'custom', file: 'test/fixtures/providers/accept-all.js', configInfo: null });
      await t.http().get('/admin/v1/provider').expect(401);
    });
  });

  describe('a provider written the LAC way (CommonJS factory, settings file, password change)', () => {
    let t: TestApp;
    suiteApp(
      target,
      {
        env: { ...FIXTURES, AUTH_PROVIDER: 'lac-style', AUTH_PROVIDER_CONFIG: '{"adminApiKey": "lac-admin-key-0001"}' },
      },
      (app) => {
        t = app;
      },
    );
    const login = (body: object, query = '') => t.http().post(`${t.base}/@authentication${query}`).send(body);

    it('logs its users in with the settings of lac-style.config.json', async () => {
      const res = await login({ username: 'ada', password: 'lovelace' }).expect(200);
      expect(res.body.email).toBe('ada@example.org');
      const lifetime = Date.parse(res.body.expiration) - Date.now();
      expect(lifetime).toBeGreaterThan(29 * 60_000);
      expect(lifetime).toBeLessThanOrEqual(30 * 60_000);
      await expectKeyOpensApi(t, res.body.apikey);
    });

    it("refuses wrong credentials with 401 / 4013 and the provider's message, and never asks the built-in users", async () => {
      for (const body of [
        { username: 'ada', password: 'wrong' },
        { username: 'demo', password: 'Password1' },
      ]) {
        const res = await login(body).expect(401);
        expect(res.body).toEqual({ statusCode: 401, errorCode: 4013, errorMessage: 'Username or password is not valid' });
      }
    });

    it('serves its login form at the public @login_info', async () => {
      const res = await t.http().get(`${t.base}/@login_info`).expect(200);
      expect(res.body.fields.map((f: { name: string }) => f.name)).toEqual(['username', 'password']);
      expect(res.body.links).toEqual([{ display: 'Forgot password?', href: 'https://example.org/forgot' }]);
    });

    it('changes the password through authenticate with "enablePasswordChange!", and the login stands either way', async () => {
      const tooShort = await login({ username: 'ada', password: 'lovelace', new_password: 'x' }, '?enablePasswordChange!').expect(200);
      expect(tooShort.body).toMatchObject({
        apikey: expect.any(String),
        changePasswordResult: 'failure',
        changePasswordMessage: 'The new password is too short.',
      });
      const changed = await login({ username: 'ada', password: 'lovelace', new_password: 'analytical' }, '?enablePasswordChange!').expect(
        200,
      );
      expect(changed.body).toMatchObject({ changePasswordResult: 'success', changePasswordMessage: 'Password changed.' });
      // The other tokens of the user are disabled; the new one works.
      await t.http().post(`${t.base}/@authentication`).send({ apikey: tooShort.body.apikey }).expect(401);
      await t
        .http()
        .get(`${t.base}/@serverinfo`)
        .set(...authHeader(changed.body.apikey))
        .expect(200);
      await login({ username: 'ada', password: 'lovelace' }).expect(401);
      await login({ username: 'ada', password: 'analytical' }).expect(200);
    });

    it('shows operators its settings without the secret from AUTH_PROVIDER_CONFIG', async () => {
      const res = await t
        .http()
        .get('/admin/v1/provider')
        .set(...(await adminHeader(t)))
        .expect(200);
      expect(res.body).toMatchObject({ name: 'lac-style', kind: 'custom', file: 'test/fixtures/providers/lac-style.cjs' });
      expect(res.body.configInfo.current).toEqual({
        keyLifetimeMinutes: 30,
        serviceUrl: 'https://directory.example.org',
        adminApiKey: '[REDACTED]',
      });
      expect(JSON.stringify(res.body)).not.toContain('lac-admin-key-0001');
    });
  });

  describe('a provider that misbehaves', () => {
    const TIMEOUT_MS = 1000;
    let t: TestApp;
    suiteApp(target, { env: { ...FIXTURES, AUTH_PROVIDER: 'unruly', AUTH_PROVIDER_TIMEOUT_MS: String(TIMEOUT_MS) } }, (app) => {
      t = app;
    });
    const login = (username: string) =>
      t
        .http()
        .post(`${t.base}/@authentication`)
        .send({ username, password: 'pw-of-' + username });

    it.each([
      'throw',
      'reject',
      'nothing',
      'roles-not-array',
      'no-identifier',
      'bad-globals',
      'bad-lifetime',
      'error-number',
      'nul-identifier',
      'nul-role',
      'nul-global',
    ])('answers 401 / 4013 when it does "%s", and makes no token', async (behaviour) => {
      const res = await login(behaviour).expect(401);
      expect(res.body).toEqual({ statusCode: 401, errorCode: 4013, errorMessage: expect.stringMatching(/^Login failed/) });
    });

    it('does not hang the server when it never answers: other requests are served meanwhile, and the login gets 503 / 5031 at the timeout', async () => {
      const started = Date.now();
      let settledAt = 0;
      const pending = login('hang').then((res) => ((settledAt = Date.now()), res));
      for (let i = 0; i < 3; i++) {
        const before = Date.now();
        await t.http().get(`${t.base}/@heartbeat`).expect(200);
        expect(Date.now() - before).toBeLessThan(500);
      }
      expect(settledAt).toBe(0);
      const res = await pending;
      expect(res.status).toBe(503);
      expect(res.body).toEqual({ statusCode: 503, errorCode: 5031, errorMessage: expect.any(String), requestId: expect.any(String) });
      expect(settledAt - started).toBeGreaterThanOrEqual(TIMEOUT_MS - 50);
      expect(settledAt - started).toBeLessThan(TIMEOUT_MS + 2000);
    });

    it('made no token for any of them', async () => {
      const tokens = await t
        .http()
        .get('/admin/v1/tokens?pagesize=1000')
        .set(...(await adminHeader(t)))
        .expect(200);
      expect(tokens.body.items.filter((x: { origin: string }) => x.origin !== 'manual')).toEqual([]);
    });
  });
});

// Boot failures come from the providers folder, not the database: the first target is enough.
describe(`a provider that cannot be used stops the boot [${testTargets()[0]!.name}]`, () => {
  const target = testTargets()[0]!;
  const boot = (name: string, env: Record<string, string> = {}) =>
    startTestApp(target, { env: { ...FIXTURES, AUTH_PROVIDER: name, ...env } });

  it('names the file and the missing authenticate', async () => {
    await expect(boot('no-authenticate')).rejects.toThrow(
      /^Auth provider test\/fixtures\/providers\/no-authenticate\.js cannot be used:\n {2}- it has no authenticate function: add authenticate\(payload, context\)/,
    );
  });

  it('names the file and the syntax error', async () => {
    await expect(boot('syntax-error')).rejects.toThrow(
      /syntax-error\.js cannot be used:\n {2}- the module does not load: SyntaxError: .*\(line 4\): fix the file/,
    );
  });

  it('refuses a name outside the providers folder before anything is read', async () => {
    await expect(boot('../../src/main')).rejects.toThrow(
      /AUTH_PROVIDER must be default, none, or the name of a module directly inside the providers folder/,
    );
  });

  it('lists every shape problem of a module in one error', async () => {
    await expect(boot('broken-shape')).rejects.toThrow(
      /authenticate is a string.*\n.*configure is a number.*\n.*getLoginInfo is an object/,
    );
  });

  it('lists the providers that exist when the name matches none', async () => {
    await expect(boot('my-sso')).rejects.toThrow(
      /no module my-sso\.js, my-sso\.mjs or my-sso\.cjs in test\/fixtures\/providers\/ \(the providers there are: accept-all, /,
    );
  });

  it('stops on bad settings: an unreadable config file, AUTH_PROVIDER_CONFIG that is not an object, configure refusing', async () => {
    await expect(boot('bad-config')).rejects.toThrow(/bad-config\.config\.json is not valid JSON/);
    await expect(boot('accept-all', { AUTH_PROVIDER_CONFIG: '"just text"' })).rejects.toThrow(
      /AUTH_PROVIDER_CONFIG must hold a JSON object, not string/,
    );
    await expect(boot('configure-refuses')).rejects.toThrow(/configure\(config\) refused the settings: the setting "secret" is required/);
  });
});
