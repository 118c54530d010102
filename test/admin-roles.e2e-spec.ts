import type { Response } from 'supertest';
import { adminEndpointsOf } from './support/admin-endpoints.js';
import { adminToken, authHeader, loginAs } from './support/auth.js';
import { describeEachTarget, startTestApp, TEST_ADMIN_PASSWORD, TEST_ADMIN_USER, type TestApp } from './support/test-app.js';

type Method = 'get' | 'post' | 'patch' | 'put' | 'delete';

/**
 * An admin API call as this suite makes it. `{user}`, `{token}` and `{admin}` in a path stand
 * for a user, an API token and an admin account made for the write endpoints (see `WRITES`).
 */
interface Call {
  method: Method;
  /** The route as the controller declares it, e.g. `/users/:login`. */
  route: string;
  path: string;
  body?: object;
  /** What an admin gets (the writes run in this order). */
  status: number;
}

/** Every read endpoint of the admin API: an auditor may use them all. */
const READS: Call[] = [
  { method: 'get', route: '/users', path: '/users', status: 200 },
  { method: 'get', route: '/users/:login', path: '/users/demo', status: 200 },
  { method: 'get', route: '/tokens', path: '/tokens', status: 200 },
  { method: 'get', route: '/tokens/:id', path: '/tokens/{token}', status: 200 },
  { method: 'get', route: '/audit', path: '/audit', status: 200 },
  { method: 'get', route: '/roles', path: '/roles', status: 200 },
  { method: 'get', route: '/provider', path: '/provider', status: 200 },
  { method: 'get', route: '/admins', path: '/admins', status: 200 },
  { method: 'get', route: '/admins/:username', path: `/admins/${TEST_ADMIN_USER}`, status: 200 },
  { method: 'get', route: '/@me', path: '/@me', status: 200 },
];

/** Every write endpoint of the admin API but the own password change: only `admin` may use them. */
const WRITES: Call[] = [
  { method: 'post', route: '/users', path: '/users', body: { login: 'eve', password: 'Eve-Passw0rd', roles: [] }, status: 201 },
  { method: 'patch', route: '/users/:login', path: '/users/{user}', body: { active: false }, status: 200 },
  { method: 'put', route: '/users/:login/password', path: '/users/{user}/password', body: { password: 'Wendy-Passw0rd-2' }, status: 204 },
  { method: 'delete', route: '/users/:login', path: '/users/{user}', status: 204 },
  { method: 'post', route: '/tokens', path: '/tokens', body: { label: 'by auditor?', roles: [] }, status: 201 },
  { method: 'post', route: '/tokens/:id/disable', path: '/tokens/{token}/disable', status: 200 },
  { method: 'delete', route: '/tokens/:id', path: '/tokens/{token}', status: 204 },
  { method: 'post', route: '/admins', path: '/admins', body: { username: 'eve', password: 'Eve-Passw0rd', role: 'auditor' }, status: 201 },
  { method: 'patch', route: '/admins/:username', path: '/admins/{admin}', body: { role: 'auditor' }, status: 200 },
  {
    method: 'put',
    route: '/admins/:username/password',
    path: '/admins/{admin}/password',
    body: { password: 'Walter-Passw0rd-2' },
    status: 204,
  },
  { method: 'delete', route: '/admins/:username', path: '/admins/{admin}', status: 204 },
];

/** The one write an auditor may make: its own password. */
const OWN_PASSWORD = 'PUT /admin/v1/@me/password';

const routeOf = (call: Call) => `${call.method.toUpperCase()} /admin/v1${call.route}`;

describeEachTarget('admin roles', (target) => {
  let t: TestApp;
  let root: string;
  /** The API token and the targets of `WRITES`. */
  const targets = { token: '', user: 'wendy', admin: 'walter' };
  /** Every password and key this suite uses; none may show in the audit trail. */
  const secrets = new Set<string>([TEST_ADMIN_PASSWORD]);

  beforeAll(async () => {
    t = await startTestApp(target, { env: { LOGIN_MAX_FAILURES: '3' } });
    root = await adminToken(t);
    secrets.add(root);
  });
  afterAll(async () => {
    await t.close();
  });

  function call(key: string, method: Method, path: string, body?: object) {
    const expanded = path.replace(/\{(\w+)\}/g, (_m, name: keyof typeof targets) => targets[name]);
    const req = t.http()[method](`/admin/v1${expanded}`).set('Authorization', `Bearer ${key}`);
    return body === undefined ? req : req.send(body);
  }
  async function adminLogin(username: string, password: string): Promise<{ apikey: string; expiration: string; role: string }> {
    const res = await t.http().post('/admin/v1/@authentication').send({ username, password });
    if (res.status !== 200) throw new Error(`admin login of ${username} answered ${res.status}: ${JSON.stringify(res.body)}`);
    secrets.add(res.body.apikey);
    return res.body;
  }
  /** Creates an admin account (as the test admin) and logs it in. */
  async function newAdmin(username: string, role: 'admin' | 'auditor', password = `${username}-Passw0rd`): Promise<string> {
    secrets.add(password);
    const res = await call(root, 'post', '/admins', { username, password, role });
    if (res.status !== 201) throw new Error(`creating ${username} answered ${res.status}: ${JSON.stringify(res.body)}`);
    return (await adminLogin(username, password)).apikey;
  }
  const expectError = (res: Response, status: number, errorCode: number) => {
    expect({ status: res.status, body: res.body }).toEqual({
      status,
      body: { statusCode: status, errorCode, errorMessage: expect.any(String) },
    });
  };
  const rolesOf = async (): Promise<Record<string, string>> => {
    const items = (await call(root, 'get', '/admins?pagesize=1000').expect(200)).body.items as Array<{ username: string; role: string }>;
    return Object.fromEntries(items.map((a) => [a.username, a.role]));
  };
  const auditEntries = async (): Promise<Array<{ admin: string; action: string; target: string; detail: unknown }>> =>
    (await call(root, 'get', '/audit?pagesize=1000').expect(200)).body.items;

  describe('an auditor', () => {
    let auditor: string;

    beforeAll(async () => {
      auditor = await newAdmin('audrey', 'auditor');
      const token = await call(root, 'post', '/tokens', { label: 'write target', roles: [] }).expect(201);
      targets.token = String(token.body.id);
      secrets.add(token.body.apikey);
      secrets.add('Wendy-Passw0rd');
      await call(root, 'post', '/users', { login: targets.user, password: 'Wendy-Passw0rd', roles: [] }).expect(201);
      await newAdmin(targets.admin, 'admin');
    });

    it('signs in with its role in the answer', async () => {
      const res = await t.http().post('/admin/v1/@authentication').send({ username: 'audrey', password: 'audrey-Passw0rd' }).expect(200);
      expect(res.body).toEqual({ apikey: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/), expiration: expect.any(String), role: 'auditor' });
      secrets.add(res.body.apikey);
    });

    it('the suite tries every admin endpoint: READS, WRITES and the own password change', () => {
      const endpoints = adminEndpointsOf(t);
      const byRole = (role: string | undefined) =>
        endpoints
          .filter((e) => e.role === role)
          .map((e) => e.route)
          .sort();
      expect(byRole('admin')).toEqual(WRITES.map(routeOf).sort());
      expect(byRole('auditor')).toEqual([...READS.map(routeOf), OWN_PASSWORD].sort());
      // Public: the sign-in, and the admin API's OpenAPI document (the code's shape, nothing of the installation).
      expect(byRole(undefined)).toEqual(['GET /admin/v1/openapi.json', 'POST /admin/v1/@authentication']);
    });

    it.each(READS.map((c) => [`${c.method.toUpperCase()} ${c.path}`, c] as const))('may %s', async (_label, read) => {
      const res = await call(auditor, read.method, read.path);
      expect(res.status).toBe(200);
    });

    it.each(WRITES.map((c) => [`${c.method.toUpperCase()} ${c.path}`, c] as const))('may not %s: 403 / 4030', async (_label, write) => {
      expectError(await call(auditor, write.method, write.path, write.body), 403, 4030);
    });

    it('may not give itself the role admin', async () => {
      expectError(await call(auditor, 'patch', '/admins/audrey', { role: 'admin' }), 403, 4030);
      expect((await call(auditor, 'get', '/@me').expect(200)).body).toEqual({ username: 'audrey', role: 'auditor' });
    });

    it('changed nothing with those attempts, and left no audit entry', async () => {
      expect((await call(root, 'get', `/users/${targets.user}`).expect(200)).body.active).toBe(true);
      expect((await call(root, 'get', '/users/eve')).status).toBe(404);
      expect((await call(root, 'get', `/tokens/${targets.token}`).expect(200)).body.status).toBe('active');
      expect(await rolesOf()).toEqual({ [TEST_ADMIN_USER]: 'admin', audrey: 'auditor', [targets.admin]: 'admin' });
      expect((await auditEntries()).filter((e) => e.admin === 'audrey')).toEqual([]);
      await adminLogin(TEST_ADMIN_USER, TEST_ADMIN_PASSWORD);
      await adminLogin(targets.admin, `${targets.admin}-Passw0rd`);
    });

    it('an admin may use every read and write endpoint', async () => {
      for (const read of READS)
        expect({ read: read.path, status: (await call(root, read.method, read.path)).status }).toEqual({ read: read.path, status: 200 });
      for (const write of WRITES) {
        const res = await call(root, write.method, write.path, write.body);
        expect({ write: `${write.method} ${write.path}`, status: res.status }).toEqual({
          write: `${write.method} ${write.path}`,
          status: write.status,
        });
        if (res.body?.apikey) secrets.add(res.body.apikey);
      }
      secrets.add('Eve-Passw0rd');
      expect((await call(root, 'get', '/users/eve')).status).toBe(200);
      expect((await call(root, 'get', `/users/${targets.user}`)).status).toBe(404);
      expect((await call(root, 'get', `/tokens/${targets.token}`)).status).toBe(404);
      expect(await rolesOf()).toEqual({ [TEST_ADMIN_USER]: 'admin', audrey: 'auditor', eve: 'auditor' });
    });
  });

  describe('managing admin accounts', () => {
    let carol: string;

    it('creates an account that can sign in at once; the answer holds no hash', async () => {
      secrets.add('Carol-Passw0rd');
      const res = await call(root, 'post', '/admins', { username: 'carol', password: 'Carol-Passw0rd', role: 'admin' });
      expect(res.status).toBe(201);
      expect(res.body).toEqual({ username: 'carol', role: 'admin', created: expect.stringMatching(/^\d{4}-\d\d-\d\dT/) });
      const login = await adminLogin('carol', 'Carol-Passw0rd');
      expect(login.role).toBe('admin');
      carol = login.apikey;
      expect(JSON.stringify((await call(root, 'get', '/admins/carol')).body)).not.toMatch(/\$2[aby]\$/);
    });

    it.each([
      ['a taken user name', 'carol'],
      ['a taken user name in another case', 'Carol'],
      ['the first admin', TEST_ADMIN_USER],
    ])('refuses %s with 409 / 4091', async (_label, username) => {
      expectError(await call(root, 'post', '/admins', { username, password: 'Other-Passw0rd', role: 'auditor' }), 409, 4091);
    });

    it.each([
      ['an unknown field', { username: 'v1', password: 'Password-1', role: 'admin', isRoot: true }],
      ['no role', { username: 'v2', password: 'Password-1' }],
      ['an unknown role', { username: 'v3', password: 'Password-1', role: 'root' }],
      ['a role in another case', { username: 'v4', password: 'Password-1', role: 'Admin' }],
      ['a short password', { username: 'v5', password: 'short', role: 'auditor' }],
      ['a password over 72 bytes', { username: 'v6', password: 'é'.repeat(40), role: 'auditor' }],
      ['a password with a NUL', { username: 'v7', password: 'Password\u00001', role: 'auditor' }],
      ['a password that is not a string', { username: 'v8', password: 12345678, role: 'auditor' }],
      ['a user name with a space', { username: 'v 9', password: 'Password-1', role: 'auditor' }],
      ['a user name with a slash', { username: 'v/10', password: 'Password-1', role: 'auditor' }],
      ['a user name of 101 characters', { username: 'v'.repeat(101), password: 'Password-1', role: 'auditor' }],
      ['an empty user name', { username: '', password: 'Password-1', role: 'auditor' }],
      ['no user name', { password: 'Password-1', role: 'auditor' }],
      ['an array body', [{ username: 'v11', password: 'Password-1', role: 'auditor' }]],
    ])('refuses %s with 400 / 4000', async (_label, body) => {
      expectError(await call(root, 'post', '/admins', body), 400, 4000);
    });

    it('created none of the refused accounts; takes a name of 100 characters', async () => {
      expect(Object.keys(await rolesOf()).sort()).toEqual([TEST_ADMIN_USER, 'audrey', 'carol', 'eve'].sort());
      await call(root, 'post', '/admins', { username: 'l'.repeat(100), password: 'Long-Passw0rd', role: 'auditor' }).expect(201);
      await call(root, 'delete', `/admins/${'l'.repeat(100)}`).expect(204);
    });

    it('reads one account by its exact user name: another case or a trailing space is 404 / 4040', async () => {
      expect((await call(root, 'get', '/admins/carol').expect(200)).body).toEqual({
        username: 'carol',
        role: 'admin',
        created: expect.any(String),
      });
      expectError(await call(root, 'get', '/admins/CAROL'), 404, 4040);
      expectError(await call(root, 'get', '/admins/carol%20'), 404, 4040);
      expectError(await call(root, 'get', '/admins/nobody'), 404, 4040);
    });

    it('lists accounts in pages, by user name', async () => {
      const all = (await call(root, 'get', '/admins').expect(200)).body;
      expect(all).toEqual({ items: expect.any(Array), offset: 0, pagesize: expect.any(Number), total: 4 });
      const names = all.items.map((a: { username: string }) => a.username);
      expect(names).toEqual(['audrey', 'carol', 'eve', TEST_ADMIN_USER]);
      const page = (await call(root, 'get', '/admins?offset=1&pagesize=2').expect(200)).body;
      expect(page).toEqual({ items: all.items.slice(1, 3), offset: 1, pagesize: 2, total: 4 });
      expectError(await call(root, 'get', '/admins?pagesize=0'), 400, 4000);
      expectError(await call(root, 'get', '/admins?sort=role'), 400, 4000);
    });

    it('changes a role; a demoted admin keeps reading but may no longer write, from its next request', async () => {
      await call(carol, 'post', '/tokens', { label: 'by carol', roles: [] }).expect(201);
      const res = await call(root, 'patch', '/admins/carol', { role: 'auditor' });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ username: 'carol', role: 'auditor', created: expect.any(String) });
      expectError(await call(carol, 'post', '/tokens', { label: 'by carol', roles: [] }), 403, 4030);
      expectError(await call(carol, 'patch', '/admins/carol', { role: 'admin' }), 403, 4030);
      await call(carol, 'get', '/users').expect(200);
      expect((await call(carol, 'get', '/@me').expect(200)).body).toEqual({ username: 'carol', role: 'auditor' });
      await call(root, 'patch', '/admins/carol', { role: 'admin' }).expect(200);
      await call(carol, 'post', '/tokens', { label: 'by carol again', roles: [] }).expect(201);
    });

    it.each([
      ['an unknown role', '/admins/carol', { role: 'superuser' }, 400, 4000],
      ['an unknown field', '/admins/carol', { role: 'admin', password: 'Password-1' }, 400, 4000],
      ['no role', '/admins/carol', {}, 400, 4000],
      ['an unknown account', '/admins/nobody', { role: 'auditor' }, 404, 4040],
      ['another case', '/admins/CAROL', { role: 'auditor' }, 404, 4040],
    ])('refuses a role change with %s', async (_label, path, body, status, code) => {
      expectError(await call(root, 'patch', path, body), status, code);
      expect((await rolesOf()).carol).toBe('admin');
    });

    it("resets another account's password, which ends that account's tokens", async () => {
      secrets.add('Carol-New-Passw0rd');
      const second = (await adminLogin('carol', 'Carol-Passw0rd')).apikey;
      await call(root, 'put', '/admins/carol/password', { password: 'Carol-New-Passw0rd' }).expect(204);
      expectError(await call(carol, 'get', '/@me'), 401, 4011);
      expectError(await call(second, 'get', '/@me'), 401, 4011);
      expectError(await t.http().post('/admin/v1/@authentication').send({ username: 'carol', password: 'Carol-Passw0rd' }), 401, 4013);
      carol = (await adminLogin('carol', 'Carol-New-Passw0rd')).apikey;
      await call(root, 'get', '/@me').expect(200);
    });

    it.each([
      ['a short password', '/admins/carol/password', { password: 'short' }, 400, 4000],
      ['an unknown field', '/admins/carol/password', { password: 'Password-1', newPassword: 'Password-2' }, 400, 4000],
      ['an unknown account', '/admins/nobody/password', { password: 'Password-1' }, 404, 4040],
    ])('refuses a password reset with %s', async (_label, path, body, status, code) => {
      expectError(await call(root, 'put', path, body), status, code);
      await call(carol, 'get', '/@me').expect(200);
    });

    it('deletes an account: its tokens are refused at once with 401 / 4011, and it can no longer sign in', async () => {
      await call(root, 'delete', '/admins/carol').expect(204);
      expectError(await call(carol, 'get', '/@me'), 401, 4011);
      expectError(await call(carol, 'post', '/tokens', { label: 'by a ghost', roles: [] }), 401, 4011);
      expectError(await call(root, 'get', '/admins/carol'), 404, 4040);
      expectError(await t.http().post('/admin/v1/@authentication').send({ username: 'carol', password: 'Carol-New-Passw0rd' }), 401, 4013);
      expectError(await call(root, 'delete', '/admins/carol'), 404, 4040);
    });

    it('audits every change with who, what and the role, never a password', async () => {
      const entries = (await auditEntries()).filter((e) => e.target === 'admin:carol');
      expect(entries.map((e) => e.action).reverse()).toEqual([
        'admin.create',
        'admin.role',
        'admin.role',
        'admin.password',
        'admin.delete',
      ]);
      expect(entries.every((e) => e.admin === TEST_ADMIN_USER)).toBe(true);
      const [deleted, password, promoted, demoted, created] = entries;
      expect(created?.detail).toEqual({ role: 'admin' });
      expect(demoted?.detail).toEqual({ role: 'auditor', previous: 'admin' });
      expect(promoted?.detail).toEqual({ role: 'admin', previous: 'auditor' });
      expect(password?.detail).toBeNull();
      expect(deleted?.detail).toBeNull();
      const text = JSON.stringify(await auditEntries());
      for (const secret of secrets) expect(text).not.toContain(secret);
      expect(text).not.toMatch(/\$2[aby]\$/);
    });
  });

  describe('the last admin', () => {
    it('is the test admin alone now', async () => {
      expect(Object.entries(await rolesOf()).filter(([, role]) => role === 'admin')).toEqual([[TEST_ADMIN_USER, 'admin']]);
    });

    it('can be neither demoted nor deleted: 409 / 4094, and nothing changes or is audited', async () => {
      const before = (await auditEntries()).length;
      const demote = await call(root, 'patch', `/admins/${TEST_ADMIN_USER}`, { role: 'auditor' });
      expectError(demote, 409, 4094);
      expect(demote.body.errorMessage).toMatch(/last admin/);
      expectError(await call(root, 'delete', `/admins/${TEST_ADMIN_USER}`), 409, 4094);
      expect((await rolesOf())[TEST_ADMIN_USER]).toBe('admin');
      expect((await auditEntries()).length).toBe(before);
      await call(root, 'post', '/tokens', { label: 'still an admin', roles: [] }).expect(201);
    });

    it('may be given the role it has, and auditors may be demoted or deleted freely', async () => {
      await call(root, 'patch', `/admins/${TEST_ADMIN_USER}`, { role: 'admin' }).expect(200);
      await call(root, 'patch', '/admins/eve', { role: 'auditor' }).expect(200);
      await call(root, 'delete', '/admins/eve').expect(204);
    });

    it('may be demoted once another admin exists', async () => {
      const dora = await newAdmin('dora', 'admin');
      await call(dora, 'patch', `/admins/${TEST_ADMIN_USER}`, { role: 'auditor' }).expect(200);
      expectError(await call(root, 'post', '/tokens', { label: 'no longer', roles: [] }), 403, 4030);
      expectError(await call(dora, 'delete', '/admins/dora'), 409, 4094);
      await call(dora, 'patch', `/admins/${TEST_ADMIN_USER}`, { role: 'admin' }).expect(200);
      await call(root, 'delete', '/admins/dora').expect(204);
    });
  });

  describe('the own account', () => {
    it('tells who is signed in, with the role as it is now', async () => {
      expect((await call(root, 'get', '/@me').expect(200)).body).toEqual({ username: TEST_ADMIN_USER, role: 'admin' });
      const auditor = (await adminLogin('audrey', 'audrey-Passw0rd')).apikey;
      expect((await call(auditor, 'get', '/@me').expect(200)).body).toEqual({ username: 'audrey', role: 'auditor' });
      expectError(await t.http().get('/admin/v1/@me'), 401, 4010);
    });

    it("lets an auditor change its own password: this token keeps working, the account's others end", async () => {
      secrets.add('Audrey-New-Passw0rd');
      const used = (await adminLogin('audrey', 'audrey-Passw0rd')).apikey;
      const other = (await adminLogin('audrey', 'audrey-Passw0rd')).apikey;
      await call(used, 'put', '/@me/password', { password: 'audrey-Passw0rd', newPassword: 'Audrey-New-Passw0rd' }).expect(204);
      await call(used, 'get', '/@me').expect(200);
      expectError(await call(other, 'get', '/@me'), 401, 4011);
      expectError(await t.http().post('/admin/v1/@authentication').send({ username: 'audrey', password: 'audrey-Passw0rd' }), 401, 4013);
      await adminLogin('audrey', 'Audrey-New-Passw0rd');
      await call(root, 'get', '/@me').expect(200);
      const [entry] = await auditEntries();
      expect(entry).toEqual({
        id: expect.any(Number),
        admin: 'audrey',
        action: 'admin.password',
        target: 'admin:audrey',
        detail: { own: true },
        at: expect.any(String),
      });
    });

    it.each([
      ['a wrong current password', { password: 'not-the-password', newPassword: 'Fresh-Passw0rd' }, 401, 4013],
      ['a short new password', { password: 'Audrey-New-Passw0rd', newPassword: 'short' }, 400, 4000],
      ['the current password again', { password: 'Audrey-New-Passw0rd', newPassword: 'Audrey-New-Passw0rd' }, 400, 4000],
      ['no new password', { password: 'Audrey-New-Passw0rd' }, 400, 4000],
      ['an unknown field', { password: 'Audrey-New-Passw0rd', newPassword: 'Fresh-Passw0rd', role: 'admin' }, 400, 4000],
    ])('refuses %s', async (_label, body, status, code) => {
      const key = (await adminLogin('audrey', 'Audrey-New-Passw0rd')).apikey;
      expectError(await call(key, 'put', '/@me/password', body), status, code);
      await call(key, 'get', '/@me').expect(200);
      await adminLogin('audrey', 'Audrey-New-Passw0rd');
    });

    it('throttles wrong current passwords with the logins of the account: 429 / 4290, even with the right one', async () => {
      const key = await newAdmin('tom', 'auditor', 'Tom-Passw0rd');
      for (let i = 0; i < 3; i++) {
        expectError(
          await call(key, 'put', '/@me/password', { password: `wrong-${i}-password`, newPassword: 'Tom-New-Passw0rd' }),
          401,
          4013,
        );
      }
      const refused = await call(key, 'put', '/@me/password', { password: 'Tom-Passw0rd', newPassword: 'Tom-New-Passw0rd' });
      expectError(refused, 429, 4290);
      expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
      expectError(await t.http().post('/admin/v1/@authentication').send({ username: 'tom', password: 'Tom-Passw0rd' }), 429, 4290);
      await call(key, 'get', '/@me').expect(200);
    });
  });

  describe('admin and API tokens stay apart', () => {
    it('an admin token never opens /rest, an API token never opens /admin', async () => {
      const apiKey = await loginAs(t, 'demo', 'Password1');
      secrets.add(apiKey);
      for (const path of ['/@me', '/admins', `/admins/${TEST_ADMIN_USER}`]) {
        expectError(
          await t
            .http()
            .get(`/admin/v1${path}`)
            .set(...authHeader(apiKey)),
          401,
          4011,
        );
        expectError(await t.http().get(`/admin/v1${path}`).set('Authorization', `Bearer ${apiKey}`), 401, 4011);
      }
      expectError(
        await t
          .http()
          .put('/admin/v1/@me/password')
          .set('Authorization', `Bearer ${apiKey}`)
          .send({ password: 'Password1', newPassword: 'Password-2' }),
        401,
        4011,
      );
      expectError(
        await t
          .http()
          .post('/admin/v1/admins')
          .set('Authorization', `Bearer ${apiKey}`)
          .send({ username: 'x', password: 'Password-1', role: 'admin' }),
        401,
        4011,
      );
      const auditor = (await adminLogin('audrey', 'Audrey-New-Passw0rd')).apikey;
      for (const key of [root, auditor]) {
        expectError(
          await t
            .http()
            .get(`${t.base}/@serverinfo`)
            .set(...authHeader(key)),
          401,
          4011,
        );
        expectError(await t.http().get(`${t.base}/customer`).set('Authorization', `Bearer ${key}`), 401, 4011);
      }
    });
  });

  describe('two admins changing each other at once', () => {
    const ROUNDS = 4;
    const keys: Record<string, string> = {};

    beforeAll(async () => {
      keys.ann = await newAdmin('ann', 'admin');
      keys.ben = await newAdmin('ben', 'admin');
      await call(keys.ann, 'patch', `/admins/${TEST_ADMIN_USER}`, { role: 'auditor' }).expect(200);
    });
    afterAll(async () => {
      const survivor = Object.entries(await rolesOf()).find(([name, role]) => role === 'admin' && name in keys);
      if (survivor) await call(keys[survivor[0]]!, 'patch', `/admins/${TEST_ADMIN_USER}`, { role: 'admin' });
    });

    /** ann and ben are the only admins. */
    const admins = async () =>
      Object.entries(await rolesOf())
        .filter(([, role]) => role === 'admin')
        .map(([name]) => name);

    it('demoting each other leaves exactly one of them admin', async () => {
      for (let round = 0; round < ROUNDS; round++) {
        expect(await admins()).toEqual(['ann', 'ben']);
        const [byAnn, byBen] = await Promise.all([
          call(keys.ann!, 'patch', '/admins/ben', { role: 'auditor' }),
          call(keys.ben!, 'patch', '/admins/ann', { role: 'auditor' }),
        ]);
        const statuses = [byAnn.status, byBen.status];
        expect(statuses.filter((s) => s === 200)).toHaveLength(1);
        expect(statuses.filter((s) => s !== 200).map((s) => [403, 409].includes(s))).toEqual([true]);
        const left = await admins();
        expect(left).toHaveLength(1);
        const other = left[0] === 'ann' ? 'ben' : 'ann';
        await call(keys[left[0]!]!, 'patch', `/admins/${other}`, { role: 'admin' }).expect(200);
      }
    });

    it('deleting each other leaves exactly one of them', async () => {
      for (let round = 0; round < ROUNDS; round++) {
        expect(await admins()).toEqual(['ann', 'ben']);
        const [byAnn, byBen] = await Promise.all([call(keys.ann!, 'delete', '/admins/ben'), call(keys.ben!, 'delete', '/admins/ann')]);
        const statuses = [byAnn.status, byBen.status];
        expect(statuses.filter((s) => s === 204)).toHaveLength(1);
        expect(statuses.filter((s) => s !== 204).map((s) => [401, 409].includes(s))).toEqual([true]);
        const left = await admins();
        expect(left).toHaveLength(1);
        const survivor = left[0]!;
        const gone = survivor === 'ann' ? 'ben' : 'ann';
        expectError(await call(keys[gone]!, 'get', '/@me'), 401, 4011);
        await call(keys[survivor]!, 'post', '/admins', { username: gone, password: `${gone}-Passw0rd`, role: 'admin' }).expect(201);
        keys[gone] = (await adminLogin(gone, `${gone}-Passw0rd`)).apikey;
      }
    });

    it('a demotion racing a deletion leaves one admin', async () => {
      for (let round = 0; round < ROUNDS; round++) {
        expect(await admins()).toEqual(['ann', 'ben']);
        const [byAnn, byBen] = await Promise.all([
          call(keys.ann!, 'patch', '/admins/ben', { role: 'auditor' }),
          call(keys.ben!, 'delete', '/admins/ann'),
        ]);
        expect([byAnn.status, byBen.status].filter((s) => s === 200 || s === 204)).toHaveLength(1);
        const left = await admins();
        expect(left).toHaveLength(1);
        if (left[0] === 'ann') {
          await call(keys.ann!, 'patch', '/admins/ben', { role: 'admin' }).expect(200);
        } else {
          await call(keys.ben!, 'post', '/admins', { username: 'ann', password: 'ann-Passw0rd', role: 'admin' }).expect(201);
          keys.ann = (await adminLogin('ann', 'ann-Passw0rd')).apikey;
        }
      }
    });
  });
});
