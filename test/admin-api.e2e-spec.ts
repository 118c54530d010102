import bcrypt from 'bcrypt';
import { adminHeader, adminToken, authHeader, createManualToken, loginAs } from './support/auth.js';
import { duringRolledBackWrite } from './support/rolled-back-write.js';
import { describeEachTarget, LOW_BCRYPT_COST, suiteApp, TEST_ADMIN_PASSWORD, TEST_ADMIN_USER, type TestApp } from './support/test-app.js';

describeEachTarget('admin API', (target) => {
  let t: TestApp;
  /** Every secret this suite sends or receives; the final test looks for them in the tables. */
  const secrets = new Set<string>(['Password1', TEST_ADMIN_PASSWORD]);

  // It creates users, sets passwords and logs in often, and times none of it: bcrypt at its least cost.
  suiteApp(target, { bcryptCost: LOW_BCRYPT_COST }, (app) => {
    t = app;
  });

  async function admin(method: 'get' | 'post' | 'patch' | 'put' | 'delete', path: string, body?: unknown) {
    const req = t
      .http()
      [method](`/admin/v1${path}`)
      .set(...(await adminHeader(t)));
    return body === undefined ? req : req.send(body as object);
  }
  async function apiLogin(username: string, password: string): Promise<string> {
    const key = await loginAs(t, username, password);
    secrets.add(key);
    return key;
  }
  const serverinfo = (apikey: string) =>
    t
      .http()
      .get(`${t.base}/@serverinfo`)
      .set(...authHeader(apikey));

  describe('login and separation from the API', () => {
    it('logs an admin in with {apikey, expiration, role}', async () => {
      const res = await t
        .http()
        .post('/admin/v1/@authentication')
        .send({ username: TEST_ADMIN_USER, password: TEST_ADMIN_PASSWORD })
        .expect(200);
      expect(res.body).toEqual({ apikey: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/), expiration: expect.any(String), role: 'admin' });
      secrets.add(res.body.apikey);
      secrets.add(await adminToken(t));
    });

    it("keeps an admin token issued beside another request's write transaction that rolls back", async () => {
      const res = await duringRolledBackWrite(t, () =>
        t.http().post('/admin/v1/@authentication').send({ username: TEST_ADMIN_USER, password: TEST_ADMIN_PASSWORD }),
      );
      expect(res.status).toBe(200);
      secrets.add(res.body.apikey);
      await t.http().get('/admin/v1/users').set('Authorization', `Bearer ${res.body.apikey}`).expect(200);
    });

    it('answers a wrong password and an unknown admin alike: 401 / 4013', async () => {
      const wrong = await t
        .http()
        .post('/admin/v1/@authentication')
        .send({ username: TEST_ADMIN_USER, password: 'not-the-password' })
        .expect(401);
      const unknown = await t.http().post('/admin/v1/@authentication').send({ username: 'root', password: 'not-the-password' }).expect(401);
      expect(wrong.body).toEqual({ statusCode: 401, errorCode: 4013, errorMessage: expect.any(String) });
      expect(unknown.body).toEqual(wrong.body);
    });

    it('does not let API users log in as admins, nor admins log in to the API', async () => {
      await t.http().post('/admin/v1/@authentication').send({ username: 'demo', password: 'Password1' }).expect(401);
      await t.http().post(`${t.base}/@authentication`).send({ username: TEST_ADMIN_USER, password: TEST_ADMIN_PASSWORD }).expect(401);
    });

    it('asks for a token: 401 / 4010', async () => {
      const res = await t.http().get('/admin/v1/users').expect(401);
      expect(res.body).toEqual({ statusCode: 401, errorCode: 4010, errorMessage: expect.any(String) });
    });

    it('refuses API tokens on admin endpoints, and admin tokens on the API', async () => {
      const apiKey = await apiLogin('demo', 'Password1');
      expect(
        (
          await t
            .http()
            .get('/admin/v1/users')
            .set(...authHeader(apiKey))
            .expect(401)
        ).body.errorCode,
      ).toBe(4011);
      expect((await t.http().get('/admin/v1/tokens').set('Authorization', `Bearer ${apiKey}`).expect(401)).body.errorCode).toBe(4011);
      const adminKey = await adminToken(t);
      expect((await serverinfo(adminKey).expect(401)).body.errorCode).toBe(4011);
      expect((await t.http().post(`${t.base}/@authentication`).send({ apikey: adminKey }).expect(401)).body.errorCode).toBe(4011);
    });
  });

  describe('users', () => {
    it('creates a user who can log in at once; the answer holds no hash', async () => {
      secrets.add('Zoe-Passw0rd');
      const res = await admin('post', '/users', {
        login: 'zoe',
        password: 'Zoe-Passw0rd',
        roles: ['Sales rep'],
        globals: { employee_id: 5, region: 'west' },
        email: 'zoe@example.com',
        keyLifetimeSeconds: 3600,
      });
      expect(res.status).toBe(201);
      expect(res.body).toEqual({
        login: 'zoe',
        roles: ['Sales rep'],
        globals: { employee_id: 5, region: 'west' },
        email: 'zoe@example.com',
        keyLifetimeSeconds: 3600,
        active: true,
        lastLoginTs: null,
        lastLoginIP: null,
        created: expect.any(String),
        updated: expect.any(String),
      });
      await apiLogin('zoe', 'Zoe-Passw0rd');
      expect(JSON.stringify((await admin('get', '/users/zoe')).body)).not.toMatch(/\$2[aby]\$/);
    });

    it('refuses a taken login with 409 / 4091', async () => {
      const res = await admin('post', '/users', { login: 'demo', password: 'Password-22', roles: [] });
      expect(res.status).toBe(409);
      expect(res.body.errorCode).toBe(4091);
    });

    it.each([
      ['an unknown field', { login: 'u1', password: 'Password-1', roles: [], isAdmin: true }],
      ['a short password', { login: 'u2', password: 'short', roles: [] }],
      ['a password over 72 bytes', { login: 'u3', password: 'é'.repeat(40), roles: [] }],
      ['roles that are not strings', { login: 'u4', password: 'Password-1', roles: [1] }],
      ['a nested global', { login: 'u5', password: 'Password-1', globals: { a: { b: 1 } } }],
      ['a login with a space', { login: 'u 6', password: 'Password-1' }],
      ['a bad email', { login: 'u7', password: 'Password-1', email: 'not-an-email' }],
      ['no login', { password: 'Password-1' }],
      ['an array body', [{ login: 'u8', password: 'Password-1' }]],
    ])('refuses %s with 400 / 4000', async (_label, body) => {
      const res = await admin('post', '/users', body);
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ statusCode: 400, errorCode: 4000, errorMessage: expect.any(String) });
    });

    it('lists users in pages', async () => {
      const all = (await admin('get', '/users')).body;
      expect(all.total).toBeGreaterThanOrEqual(4);
      expect(all.items.map((u: { login: string }) => u.login)).toEqual(expect.arrayContaining(['demo', 'readonly', 'sam', 'zoe']));
      const page = (await admin('get', '/users?offset=1&pagesize=2')).body;
      expect(page).toMatchObject({ offset: 1, pagesize: 2, total: all.total });
      expect(page.items.map((u: { login: string }) => u.login)).toEqual(all.items.slice(1, 3).map((u: { login: string }) => u.login));
      expect((await admin('get', '/users?pagesize=zero')).status).toBe(400);
    });

    it('shows the seeded demo users with their roles and globals', async () => {
      const sam = (await admin('get', '/users/sam')).body;
      expect(sam).toMatchObject({ login: 'sam', roles: ['Sales rep'], globals: { employee_id: 1 }, active: true });
      expect((await admin('get', '/users/demo')).body.roles).toEqual(['Full access']);
      expect((await admin('get', '/users/readonly')).body.roles).toEqual(['Read only']);
    });

    it('answers 404 for an unknown user', async () => {
      expect((await admin('get', '/users/nobody')).status).toBe(404);
    });

    it('updates roles, globals, email, lifetime and the active flag', async () => {
      const res = await admin('patch', '/users/zoe', {
        roles: ['Read only'],
        globals: { employee_id: 6 },
        email: null,
        keyLifetimeSeconds: 120,
      });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ roles: ['Read only'], globals: { employee_id: 6 }, email: null, keyLifetimeSeconds: 120 });
      const login = await t.http().post(`${t.base}/@authentication`).send({ username: 'zoe', password: 'Zoe-Passw0rd' }).expect(200);
      secrets.add(login.body.apikey);
      expect(Date.parse(login.body.expiration) - Date.now()).toBeLessThanOrEqual(125_000);
      expect((await admin('patch', '/users/zoe', { password: 'x' })).status).toBe(400);
    });

    it('making a user inactive stops their logins and their tokens; reactivating allows logins again', async () => {
      const key = await apiLogin('zoe', 'Zoe-Passw0rd');
      expect((await admin('patch', '/users/zoe', { active: false })).status).toBe(200);
      expect((await serverinfo(key).expect(401)).body.errorCode).toBe(4011);
      await t.http().post(`${t.base}/@authentication`).send({ username: 'zoe', password: 'Zoe-Passw0rd' }).expect(401);
      await admin('patch', '/users/zoe', { active: true });
      await apiLogin('zoe', 'Zoe-Passw0rd');
      expect((await serverinfo(key).expect(401)).body.errorCode).toBe(4011);
    });

    it('sets a password', async () => {
      secrets.add('Zoe-New-Passw0rd');
      expect((await admin('put', '/users/zoe/password', { password: 'Zoe-New-Passw0rd' })).status).toBe(204);
      await t.http().post(`${t.base}/@authentication`).send({ username: 'zoe', password: 'Zoe-Passw0rd' }).expect(401);
      await apiLogin('zoe', 'Zoe-New-Passw0rd');
      expect((await admin('put', '/users/zoe/password', { password: 'short' })).status).toBe(400);
    });

    it('deletes a user; their tokens stop working', async () => {
      const key = await apiLogin('zoe', 'Zoe-New-Passw0rd');
      expect((await admin('delete', '/users/zoe')).status).toBe(204);
      expect((await admin('get', '/users/zoe')).status).toBe(404);
      expect((await serverinfo(key).expect(401)).body.errorCode).toBe(4011);
      await t.http().post(`${t.base}/@authentication`).send({ username: 'zoe', password: 'Zoe-New-Passw0rd' }).expect(401);
    });
  });

  describe('tokens', () => {
    it('creates a hand-made token with a generated key, shown only in the create answer', async () => {
      const res = await admin('post', '/tokens', {
        label: 'Reporting job',
        roles: ['Read only'],
        globals: { tenant: 'acme' },
        userIdentifier: 'job:reporting',
      });
      expect(res.status).toBe(201);
      expect(res.body).toEqual({
        id: expect.any(Number),
        apikey: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
        label: 'Reporting job',
        userIdentifier: 'job:reporting',
        roles: ['Read only'],
        globals: { tenant: 'acme' },
        origin: 'manual',
        status: 'active',
        expiration: null,
        created: expect.any(String),
        lastUsed: null,
      });
      secrets.add(res.body.apikey);
      await serverinfo(res.body.apikey).expect(200);
      const fetched = (await admin('get', `/tokens/${res.body.id}`)).body;
      expect(fetched.apikey).toBeUndefined();
      expect(JSON.stringify((await admin('get', '/tokens?pagesize=1000')).body)).not.toContain(res.body.apikey);
    });

    it('takes a chosen key of 16 characters or more, once', async () => {
      const key = 'my-public-key-for-demos';
      secrets.add(key);
      const res = await admin('post', '/tokens', { label: 'public', key, roles: [] });
      expect(res.status).toBe(201);
      expect(res.body.apikey).toBe(key);
      const again = await admin('post', '/tokens', { label: 'again', key, roles: [] });
      expect(again.status).toBe(409);
      expect(again.body.errorCode).toBe(4091);
    });

    it.each([
      ['a key under 16 characters', { label: 'x', key: 'too-short-key' }],
      ['a key with a space', { label: 'x', key: 'has a space in it ok' }],
      ['the login of a user as identifier', { label: 'x', userIdentifier: 'demo' }],
      ['an expiration without a time zone', { label: 'x', expiration: '2030-01-01T00:00:00' }],
      ['an expiration that is not a date', { label: 'x', expiration: 'tomorrow' }],
      ['no label', { roles: [] }],
      ['an unknown field', { label: 'x', disabled: true }],
    ])('refuses %s with 400 / 4000', async (_label, body) => {
      const res = await admin('post', '/tokens', body);
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ statusCode: 400, errorCode: 4000, errorMessage: expect.any(String) });
    });

    it('lists login tokens and hand-made ones with label, identifier, roles, status, expiration, created and last use', async () => {
      const loginKey = await apiLogin('sam', 'Password1');
      await serverinfo(loginKey).expect(200);
      const expired = await createManualToken(t, { roles: [], label: 'expired one', expiration: '2001-01-01T00:00:00Z' });
      secrets.add(expired);
      const items = (await admin('get', '/tokens?pagesize=1000')).body.items;
      expect(items).toEqual(
        expect.arrayContaining([
          expect.objectContaining({
            label: 'Temp key for sam',
            userIdentifier: 'sam',
            roles: ['Sales rep'],
            globals: { employee_id: 1 },
            origin: 'login',
            status: 'active',
            lastUsed: expect.any(String),
          }),
          expect.objectContaining({ label: 'expired one', status: 'expired', expiration: '2001-01-01T00:00:00.000Z', origin: 'manual' }),
        ]),
      );
    });

    it('disables a token (idempotent; an expired one stays expired) and deletes one', async () => {
      const created = (await admin('post', '/tokens', { label: 'to disable', roles: [] })).body;
      secrets.add(created.apikey);
      expect((await admin('post', `/tokens/${created.id}/disable`)).body.status).toBe('disabled');
      expect((await admin('post', `/tokens/${created.id}/disable`)).body.status).toBe('disabled');
      expect((await serverinfo(created.apikey).expect(401)).body.errorCode).toBe(4011);

      const old = (await admin('post', '/tokens', { label: 'old', roles: [], expiration: '2001-01-01T00:00:00+02:00' })).body;
      secrets.add(old.apikey);
      expect((await admin('post', `/tokens/${old.id}/disable`)).body.status).toBe('expired');

      expect((await admin('delete', `/tokens/${created.id}`)).status).toBe(204);
      expect((await admin('get', `/tokens/${created.id}`)).status).toBe(404);
      expect((await admin('delete', `/tokens/${created.id}`)).status).toBe(404);
      expect((await admin('get', '/tokens/not-a-number')).status).toBe(400);
    });
  });

  describe('audit trail', () => {
    it('lists every change, newest first, with who, what and when, and no secret', async () => {
      const res = await admin('get', '/audit?pagesize=1000');
      expect(res.status).toBe(200);
      const actions = res.body.items.map((e: { action: string }) => e.action);
      for (const action of [
        'user.create',
        'user.update',
        'user.password',
        'user.delete',
        'token.create',
        'token.disable',
        'token.delete',
      ]) {
        expect(actions).toContain(action);
      }
      expect(res.body.items[0]).toEqual({
        id: expect.any(Number),
        admin: TEST_ADMIN_USER,
        action: 'token.delete',
        target: expect.stringMatching(/^token:\d+$/),
        detail: null,
        at: expect.any(String),
      });
      expect(res.body.items.find((e: { action: string }) => e.action === 'user.create').detail).toMatchObject({ roles: ['Sales rep'] });
      const text = JSON.stringify(res.body);
      for (const secret of secrets) expect(text).not.toContain(secret);
    });
  });

  it("hashes every password with the application's one hasher: seeded users, created ones, the first admin", async () => {
    for (const table of ['tessera_users', 'tessera_admin_accounts']) {
      const rows: Array<{ password_hash: string }> = await t.dataSource.query(`SELECT password_hash FROM ${table}`);
      expect(rows.length).toBeGreaterThan(0);
      expect(rows.map((r) => bcrypt.getRounds(r.password_hash))).toEqual(rows.map(() => LOW_BCRYPT_COST));
    }
  });

  // Last: it looks at what every test above left in the tables.
  it('keeps no token value and no password in clear in any auth table', async () => {
    const tables = [
      'tessera_users',
      'tessera_api_tokens',
      'tessera_admin_accounts',
      'tessera_admin_tokens',
      'tessera_admin_audit',
      'tessera_login_attempts',
    ];
    expect(secrets.size).toBeGreaterThan(10);
    for (const table of tables) {
      const rows = await t.dataSource.query(`SELECT * FROM ${table}`);
      expect(rows.length).toBeGreaterThan(0);
      const text = JSON.stringify(rows);
      for (const secret of secrets) expect(text).not.toContain(secret);
    }
  });
});
