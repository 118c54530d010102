import { TokensService } from '../src/tokens/tokens.service.js';
import { User } from '../src/users/user.entity.js';
import { adminHeader, authHeader, createUser, loginAs } from './support/auth.js';
import { ManualClock } from './support/manual-clock.js';
import { duringRolledBackWrite } from './support/rolled-back-write.js';
import { describeEachTarget, suiteApp, type TestApp } from './support/test-app.js';

const LOCAL_ADDRESS = /^(127\.0\.0\.1|::1)$/;
const ISO_UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

describeEachTarget('@authentication', (target) => {
  let t: TestApp;
  const clock = new ManualClock();
  let userCount = 0;

  suiteApp(target, { clock }, (app) => {
    t = app;
  });

  const authenticate = (body: unknown, query = '') =>
    t
      .http()
      .post(`${t.base}/@authentication${query}`)
      .send(body as object);
  const serverinfo = (apikey: string) =>
    t
      .http()
      .get(`${t.base}/@serverinfo`)
      .set(...authHeader(apikey));
  /** A user of its own for each test, so tests do not share login history or tokens. */
  async function freshUser(options: { keyLifetimeSeconds?: number; email?: string } = {}): Promise<string> {
    const login = `user${++userCount}`;
    await createUser(t, { login, password: 'Password1', roles: ['Read only'], globals: { region: 'north' }, ...options });
    return login;
  }

  describe('login', () => {
    it('creates a token and answers apikey, expiration and the contract extras (null on the first login)', async () => {
      const login = await freshUser({ email: 'first@example.com' });
      const before = clock.now();
      const res = await authenticate({ username: login, password: 'Password1' }).expect(200);
      expect(res.body).toEqual({
        apikey: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
        expiration: expect.stringMatching(ISO_UTC),
        lastLoginTs: null,
        lastLoginIP: null,
        email: 'first@example.com',
      });
      const expiresIn = Date.parse(res.body.expiration) - before;
      expect(expiresIn).toBeGreaterThanOrEqual(86400_000 - 1000);
      expect(expiresIn).toBeLessThanOrEqual(86400_000 + 5000);
      await serverinfo(res.body.apikey).expect(200);
    });

    it('reports the previous successful login on the next one', async () => {
      const login = await freshUser();
      const first = await authenticate({ username: login, password: 'Password1' }).expect(200);
      clock.advance(5);
      const second = await authenticate({ username: login, password: 'Password1' }).expect(200);
      expect(second.body.lastLoginIP).toMatch(LOCAL_ADDRESS);
      expect(second.body.lastLoginTs).toMatch(ISO_UTC);
      expect(Date.parse(second.body.lastLoginTs)).toBeLessThanOrEqual(Date.parse(first.body.expiration) - 86400_000 + 1000);
      expect(second.body.apikey).not.toBe(first.body.apikey);
    });

    it('ignores X-Forwarded-For without TRUST_PROXY', async () => {
      const login = await freshUser();
      await authenticate({ username: login, password: 'Password1' }).set('X-Forwarded-For', '203.0.113.7').expect(200);
      const next = await authenticate({ username: login, password: 'Password1' }).expect(200);
      expect(next.body.lastLoginIP).toMatch(LOCAL_ADDRESS);
    });

    it('labels login tokens "Temp key for <user>" with the login name as user identifier, the user\'s roles and globals', async () => {
      const login = await freshUser();
      await loginAs(t, login, 'Password1');
      const res = await t
        .http()
        .get('/admin/v1/tokens?pagesize=1000')
        .set(...(await adminHeader(t)))
        .expect(200);
      const mine = res.body.items.filter((x: { userIdentifier: string }) => x.userIdentifier === login);
      expect(mine).toEqual([
        expect.objectContaining({
          label: `Temp key for ${login}`,
          origin: 'login',
          status: 'active',
          roles: ['Read only'],
          globals: { region: 'north' },
        }),
      ]);
    });

    it("uses the user's keyLifetimeSeconds for the expiration", async () => {
      const login = await freshUser({ keyLifetimeSeconds: 60 });
      const before = clock.now();
      const res = await authenticate({ username: login, password: 'Password1' }).expect(200);
      const expiresIn = Date.parse(res.body.expiration) - before;
      expect(expiresIn).toBeGreaterThanOrEqual(59_000);
      expect(expiresIn).toBeLessThanOrEqual(65_000);
    });

    it('answers the same at the @authenticate alias', async () => {
      const res = await t.http().post(`${t.base}/@authenticate`).send({ username: 'demo', password: 'Password1' }).expect(200);
      expect(res.body.apikey).toEqual(expect.any(String));
    });

    it('lets the seeded demo users log in', async () => {
      for (const login of ['demo', 'readonly', 'sam']) await loginAs(t, login, 'Password1');
    });
  });

  describe('bad credentials', () => {
    it('gives an unknown user, a wrong password and an inactive user the same 401 / 4013 answer', async () => {
      const inactive = await freshUser();
      await t
        .http()
        .patch(`/admin/v1/users/${inactive}`)
        .set(...(await adminHeader(t)))
        .send({ active: false })
        .expect(200);
      const answers = await Promise.all([
        authenticate({ username: 'nobody-here', password: 'Password1' }),
        authenticate({ username: 'demo', password: 'wrong-password' }),
        authenticate({ username: inactive, password: 'Password1' }),
        authenticate({ username: 'DEMO', password: 'Password1' }),
      ]);
      for (const res of answers) {
        expect(res.status).toBe(401);
        expect(res.body).toEqual(answers[0].body);
        expect(Object.keys(res.headers).sort()).toEqual(Object.keys(answers[0].headers).sort());
      }
      expect(answers[0].body).toEqual({ statusCode: 401, errorCode: 4013, errorMessage: expect.any(String) });
    });

    it('spends the same bcrypt work on an unknown user as on a wrong password', async () => {
      const timed = async (username: string): Promise<number> => {
        const started = process.hrtime.bigint();
        await authenticate({ username, password: 'not-the-password' }).expect(401);
        return Number(process.hrtime.bigint() - started) / 1e6;
      };
      // Interleaved, and the fastest of each: the other test worker's load only ever adds time,
      // and it must not fall on one side of the comparison only.
      const wrong: number[] = [];
      const unknown: number[] = [];
      for (let i = 0; i < 5; i++) {
        wrong.push(await timed('readonly'));
        unknown.push(await timed('nobody-at-all'));
      }
      const wrongPassword = Math.min(...wrong);
      const unknownUser = Math.min(...unknown);
      // Without the dummy comparison an unknown user answers in about a millisecond.
      expect(unknownUser).toBeGreaterThan(wrongPassword * 0.5);
      expect(unknownUser).toBeLessThan(wrongPassword * 2 + 20);
    });
  });

  describe('body shape', () => {
    it.each([
      ['an array', [{ username: 'demo', password: 'Password1' }]],
      ['a string', '"demo"'],
      ['an empty object', {}],
      ['a username that is a number', { username: 42, password: 'Password1' }],
      ['a password that is an object', { username: 'demo', password: { $ne: '' } }],
      ['no password', { username: 'demo' }],
      ['an apikey that is a number', { apikey: 12345 }],
      ['disable that is a string', { apikey: 'abcdefghijklmnop', disable: 'true' }],
      ['apikey with credentials', { apikey: 'abcdefghijklmnop', username: 'demo', password: 'Password1' }],
    ])('refuses %s with 400 / 4000', async (_label, body) => {
      const res = await t.http().post(`${t.base}/@authentication`).set('Content-Type', 'application/json').send(JSON.stringify(body));
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ statusCode: 400, errorCode: 4000, errorMessage: expect.any(String) });
    });

    it('refuses a missing body with 400 / 4000', async () => {
      const res = await t.http().post(`${t.base}/@authentication`);
      expect(res.status).toBe(400);
      expect(res.body.errorCode).toBe(4000);
    });
  });

  describe('re-validate', () => {
    it('answers the same apikey, its original expiration and the login extras', async () => {
      const login = await freshUser({ email: 'again@example.com' });
      await loginAs(t, login, 'Password1');
      const res = await authenticate({ username: login, password: 'Password1' }).expect(200);
      clock.advance(30);
      const again = await authenticate({ apikey: res.body.apikey }).expect(200);
      expect(again.body).toEqual(res.body);
    });

    it('answers 401 / 4011 for an unknown key', async () => {
      const res = await authenticate({ apikey: 'no-such-key-0123456789' }).expect(401);
      expect(res.body).toEqual({ statusCode: 401, errorCode: 4011, errorMessage: expect.any(String) });
    });
  });

  // Spec §3, one test per row of the state table, plus re-validation in each state.
  describe('token states', () => {
    it('active -> disable -> disabled: answers {apikey, disabled: true}; the token stops working', async () => {
      const apikey = await loginAs(t, 'demo', 'Password1');
      const res = await authenticate({ apikey, disable: true }).expect(200);
      expect(res.body).toEqual({ apikey, disabled: true });
      expect((await authenticate({ apikey }).expect(401)).body.errorCode).toBe(4011);
      expect((await serverinfo(apikey).expect(401)).body.errorCode).toBe(4011);
    });

    it('disabled -> disable again -> disabled: still a success', async () => {
      const apikey = await loginAs(t, 'demo', 'Password1');
      await authenticate({ apikey, disable: true }).expect(200);
      const again = await authenticate({ apikey, disable: true }).expect(200);
      expect(again.body).toEqual({ apikey, disabled: true });
      expect((await authenticate({ apikey }).expect(401)).body.errorCode).toBe(4011);
    });

    it('active -> time passes beyond expiration -> expired: re-validation answers 401 / 4012', async () => {
      const login = await freshUser({ keyLifetimeSeconds: 60 });
      const apikey = await loginAs(t, login, 'Password1');
      await authenticate({ apikey }).expect(200);
      clock.advance(61);
      const res = await authenticate({ apikey }).expect(401);
      expect(res.body).toEqual({ statusCode: 401, errorCode: 4012, errorMessage: expect.any(String) });
      expect((await serverinfo(apikey).expect(401)).body.errorCode).toBe(4012);
    });

    it('expired -> disable -> expired: still a success, and the token stays expired', async () => {
      const login = await freshUser({ keyLifetimeSeconds: 60 });
      const apikey = await loginAs(t, login, 'Password1');
      clock.advance(61);
      const res = await authenticate({ apikey, disable: true }).expect(200);
      expect(res.body).toEqual({ apikey, disabled: true });
      expect((await authenticate({ apikey }).expect(401)).body.errorCode).toBe(4012);
    });

    it('a token disabled before its expiration stays disabled after it', async () => {
      const login = await freshUser({ keyLifetimeSeconds: 60 });
      const apikey = await loginAs(t, login, 'Password1');
      await authenticate({ apikey, disable: true }).expect(200);
      clock.advance(61);
      expect((await authenticate({ apikey }).expect(401)).body.errorCode).toBe(4011);
    });

    it('disabling an unknown token answers 404 / 4042', async () => {
      const res = await authenticate({ apikey: 'no-such-key-0123456789', disable: true }).expect(404);
      expect(res.body).toEqual({ statusCode: 404, errorCode: 4042, errorMessage: expect.any(String) });
    });
  });

  describe('password change', () => {
    const CHANGE = '?enablePasswordChange!';

    it("changes the password, returns a new working token, and disables the user's other tokens", async () => {
      const login = await freshUser();
      const older = await loginAs(t, login, 'Password1');
      const old = await loginAs(t, login, 'Password1');
      const res = await authenticate({ username: login, password: 'Password1', new_password: 'Better-Passw0rd' }, CHANGE).expect(200);
      expect(res.body).toMatchObject({
        apikey: expect.any(String),
        changePasswordResult: 'success',
        changePasswordMessage: expect.any(String),
      });
      await serverinfo(res.body.apikey).expect(200);
      for (const key of [older, old]) expect((await serverinfo(key).expect(401)).body.errorCode).toBe(4011);
      expect((await authenticate({ username: login, password: 'Password1' }).expect(401)).body.errorCode).toBe(4013);
      await loginAs(t, login, 'Better-Passw0rd');
    });

    it('understands newPassword too', async () => {
      const login = await freshUser();
      const res = await authenticate({ username: login, password: 'Password1', newPassword: 'Another-Passw0rd' }, CHANGE).expect(200);
      expect(res.body.changePasswordResult).toBe('success');
      await loginAs(t, login, 'Another-Passw0rd');
    });

    it.each([
      ['too short', 'short1', /too short/],
      ['longer than 72 bytes', 'x'.repeat(73), /too long/],
      ['the same as the current one', 'Password1', /same/],
      ['missing', undefined, /new_password/],
    ])('reports failure when the new password is %s, and the login still succeeds', async (_label, next, reason) => {
      const login = await freshUser();
      const other = await loginAs(t, login, 'Password1');
      const res = await authenticate({ username: login, password: 'Password1', new_password: next }, CHANGE).expect(200);
      expect(res.body).toMatchObject({ changePasswordResult: 'failure', changePasswordMessage: expect.stringMatching(reason) });
      await serverinfo(res.body.apikey).expect(200);
      await serverinfo(other).expect(200);
      await loginAs(t, login, 'Password1');
    });

    it.each(['?enablepasswordchange!', '?enablePasswordChange', '?EnablePasswordChange!'])(
      'ignores %s: the name is exact and case-sensitive',
      async (query) => {
        const login = await freshUser();
        const res = await authenticate({ username: login, password: 'Password1', new_password: 'Changed-Passw0rd' }, query).expect(200);
        expect(res.body.changePasswordResult).toBeUndefined();
        await loginAs(t, login, 'Password1');
      },
    );

    it('changes nothing when the current password is wrong', async () => {
      const login = await freshUser();
      const res = await authenticate({ username: login, password: 'Wrong-one1', new_password: 'Changed-Passw0rd' }, CHANGE).expect(401);
      expect(res.body.errorCode).toBe(4013);
      await loginAs(t, login, 'Password1');
    });
  });

  // On SQLite all requests share one connection: whatever a login reads or writes outside the
  // DatabaseGate sees another request's open transaction and is rolled back with it.
  describe("beside another request's write transaction that rolls back", () => {
    it('a login keeps its token and its record as the last login', async () => {
      const login = await freshUser();
      const res = await duringRolledBackWrite(t, () => authenticate({ username: login, password: 'Password1' }));
      expect(res.status).toBe(200);
      await serverinfo(res.body.apikey).expect(200);
      const next = await authenticate({ username: login, password: 'Password1' }).expect(200);
      expect(next.body.lastLoginTs).toMatch(ISO_UTC);
    });

    it("a login does not see that transaction's change to the user", async () => {
      const login = await freshUser();
      const res = await duringRolledBackWrite(
        t,
        () => authenticate({ username: login, password: 'Password1' }),
        (manager) => manager.update(User, { login }, { active: false }),
      );
      expect(res.status).toBe(200);
    });

    it("a password change at login stays made: the new password, the new token, the user's other tokens disabled", async () => {
      const login = await freshUser();
      const older = await loginAs(t, login, 'Password1');
      const res = await duringRolledBackWrite(t, () =>
        authenticate({ username: login, password: 'Password1', new_password: 'Better-Passw0rd' }, '?enablePasswordChange!'),
      );
      expect(res.status).toBe(200);
      expect(res.body.changePasswordResult).toBe('success');
      await serverinfo(res.body.apikey).expect(200);
      expect((await serverinfo(older).expect(401)).body.errorCode).toBe(4011);
      await loginAs(t, login, 'Better-Passw0rd');
    });

    it('a disabled token stays disabled', async () => {
      const apikey = await loginAs(t, await freshUser(), 'Password1');
      const tokens = t.app.get(TokensService);
      const { token } = (await tokens.findByKey(apikey))!;
      // The service itself: over HTTP the disable first looks the key up through the gate, so
      // its write meets an open transaction only by chance.
      await duringRolledBackWrite(t, () => tokens.disable(token.id));
      expect((await serverinfo(apikey).expect(401)).body.errorCode).toBe(4011);
    });
  });

  describe('users made inactive', () => {
    it('lose their tokens at once through the admin API', async () => {
      const login = await freshUser();
      const apikey = await loginAs(t, login, 'Password1');
      await serverinfo(apikey).expect(200);
      await t
        .http()
        .patch(`/admin/v1/users/${login}`)
        .set(...(await adminHeader(t)))
        .send({ active: false })
        .expect(200);
      expect((await serverinfo(apikey).expect(401)).body.errorCode).toBe(4011);
    });

    it('lose their tokens within TOKEN_CACHE_SECONDS when the flag is changed in the database directly (as by another instance)', async () => {
      const login = await freshUser();
      const apikey = await loginAs(t, login, 'Password1');
      await serverinfo(apikey).expect(200);
      const param = t.dataSource.driver.options.type === 'postgres' ? '$1' : '?';
      await t.dataSource.query(
        `UPDATE tessera_users SET active = ${target.database === 'postgres' ? 'false' : '0'} WHERE login = ${param}`,
        [login],
      );
      clock.advance(t.config.auth.tokenCacheSeconds);
      expect((await serverinfo(apikey).expect(401)).body.errorCode).toBe(4011);
      expect((await authenticate({ apikey }).expect(401)).body.errorCode).toBe(4011);
    });
  });
});
