import type { INestApplication } from '@nestjs/common';
import request from 'supertest';
import { LoginAttemptCounter } from '../src/database/schema/login-attempt.entity.js';
import { createUser } from './support/auth.js';
import { ManualClock } from './support/manual-clock.js';
import { duringRolledBackWrite } from './support/rolled-back-write.js';
import { anotherInstance, describeEachTarget, suiteApp, TEST_ADMIN_PASSWORD, TEST_ADMIN_USER, type TestApp } from './support/test-app.js';

const WINDOW_SECONDS = 600;

describeEachTarget('failed-login throttle', (target) => {
  let t: TestApp;
  const clock = new ManualClock();

  suiteApp(
    target,
    {
      clock,
      env: {
        LOGIN_MAX_FAILURES: '3',
        LOGIN_MAX_FAILURES_PER_ADDRESS: '5',
        LOGIN_FAILURE_WINDOW_SECONDS: String(WINDOW_SECONDS),
        TRUST_PROXY: 'true',
      },
    },
    (app) => {
      t = app;
    },
  );

  /** Each test speaks from addresses of its own (TRUST_PROXY is on), so address counts do not leak between tests. */
  const login = (username: string, password: string, address: string, server: TestApp['http'] = () => t.http()) =>
    server().post(`${t.base}/@authentication`).set('X-Forwarded-For', address).send({ username, password });

  function expectThrottled(res: request.Response): void {
    expect(res.status).toBe(429);
    expect(res.body).toEqual({ statusCode: 429, errorCode: 4290, errorMessage: expect.any(String) });
    const retryAfter = Number(res.headers['retry-after']);
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(WINDOW_SECONDS);
  }

  it('honours X-Forwarded-For with TRUST_PROXY', async () => {
    await login('readonly', 'Password1', '198.51.100.1').expect(200);
    const next = await login('readonly', 'Password1', '198.51.100.2').expect(200);
    expect(next.body.lastLoginIP).toBe('198.51.100.1');
  });

  it('blocks an account past the limit with 429 / 4290 and Retry-After, even with the right password, until the window passes', async () => {
    for (let i = 0; i < 3; i++) await login('sam', 'wrong-password', '192.0.2.1').expect(401);
    expectThrottled(await login('sam', 'Password1', '192.0.2.1'));
    // Per account: another address does not help, another case of the login name neither.
    expectThrottled(await login('sam', 'Password1', '192.0.2.2'));
    expectThrottled(await login('SAM', 'Password1', '192.0.2.3'));
    // Another account from the first address is not blocked (3 failures < 5 per address).
    await login('demo', 'Password1', '192.0.2.1').expect(200);
    clock.advance(WINDOW_SECONDS - 60);
    expectThrottled(await login('sam', 'Password1', '192.0.2.1'));
    clock.advance(61);
    await login('sam', 'Password1', '192.0.2.1').expect(200);
  });

  it('counts failures for unknown user names too', async () => {
    for (let i = 0; i < 3; i++) await login('ghost', 'whatever-pw', '192.0.2.10').expect(401);
    expectThrottled(await login('ghost', 'whatever-pw', '192.0.2.11'));
  });

  it('blocks a client address that fails across many accounts', async () => {
    for (let i = 0; i < 5; i++) await login(`sprayed${i}`, 'Password1', '203.0.113.50').expect(401);
    expectThrottled(await login('readonly', 'Password1', '203.0.113.50'));
    await login('readonly', 'Password1', '203.0.113.51').expect(200);
  });

  it('throttles admin logins the same way', async () => {
    for (let i = 0; i < 3; i++) {
      await t
        .http()
        .post('/admin/v1/@authentication')
        .set('X-Forwarded-For', '192.0.2.30')
        .send({ username: TEST_ADMIN_USER, password: 'bad-password' })
        .expect(401);
    }
    const res = await t
      .http()
      .post('/admin/v1/@authentication')
      .set('X-Forwarded-For', '192.0.2.31')
      .send({ username: TEST_ADMIN_USER, password: TEST_ADMIN_PASSWORD });
    expectThrottled(res);
    clock.advance(WINDOW_SECONDS + 1);
  });

  // On SQLite all requests share one connection: what the throttle reads or writes outside the
  // DatabaseGate sees another request's open transaction and is rolled back with it.
  describe("beside another request's write transaction that rolls back", () => {
    it('counts the failures made meanwhile', async () => {
      await duringRolledBackWrite(t, async () => {
        for (let i = 0; i < 3; i++) await login('meanwhile', 'wrong-password', '192.0.2.40').expect(401);
      });
      expectThrottled(await login('meanwhile', 'wrong-password', '192.0.2.41'));
    });

    it("forgets the account's failures on a successful login made meanwhile", async () => {
      await createUser(t, { login: 'forgetful', password: 'Password1' });
      for (let i = 0; i < 2; i++) await login('forgetful', 'wrong-password', '192.0.2.50').expect(401);
      expect((await duringRolledBackWrite(t, () => login('forgetful', 'Password1', '192.0.2.51'))).status).toBe(200);
      await login('forgetful', 'wrong-password', '192.0.2.52').expect(401);
      await login('forgetful', 'Password1', '192.0.2.53').expect(200);
    });

    it('does not count the attempts that transaction has not committed', async () => {
      const uncommitted = { scope: 'account' as const, subject: 'api:readonly', windowStart: clock.now(), failures: 3, pending: 0 };
      const res = await duringRolledBackWrite(
        t,
        () => login('readonly', 'Password1', '192.0.2.60'),
        (manager) => manager.insert(LoginAttemptCounter, uncommitted),
      );
      expect(res.status).toBe(200);
    });
  });

  it('keeps the count in the database: another instance on the same database is blocked as well', async () => {
    for (let i = 0; i < 3; i++) await login('demo', 'not-it-1', '192.0.2.20').expect(401);
    const other: INestApplication = await anotherInstance(t, clock);
    try {
      expectThrottled(await login('demo', 'Password1', '192.0.2.21', () => request(other.getHttpServer())));
    } finally {
      await other.close();
    }
  });
});
