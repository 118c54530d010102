import type { INestApplication } from '@nestjs/common';
import request from 'supertest';
import { LoginThrottle } from '../src/login/login-throttle.js';
import { PasswordHasher } from '../src/login/password-hasher.js';
import { ManualClock } from './support/manual-clock.js';
import { anotherInstance, describeEachTarget, suiteApp, TEST_ADMIN_PASSWORD, TEST_ADMIN_USER, type TestApp } from './support/test-app.js';

const WINDOW_SECONDS = 600;
const MAX_FAILURES = 10;
const MAX_PER_ADDRESS = 25;
const GUESSES = 40;

type Server = () => ReturnType<TestApp['http']>;

/** Counts the bcrypt comparisons an app makes from now on: what a guess costs, and what the throttle must bound. */
function countPasswordChecks(app: INestApplication): { count: number } {
  const hasher = app.get(PasswordHasher);
  const verify = hasher.verify.bind(hasher);
  const counter = { count: 0 };
  hasher.verify = (password, hash) => {
    counter.count += 1;
    return verify(password, hash);
  };
  return counter;
}

/** Status counts of a burst of answers, e.g. { 401: 10, 429: 30 }. */
function statusCounts(answers: request.Response[]): Record<number, number> {
  const counts: Record<number, number> = {};
  for (const res of answers) counts[res.status] = (counts[res.status] ?? 0) + 1;
  return counts;
}

function expectRefusedOrFailed(answers: request.Response[]): void {
  for (const res of answers) {
    if (res.status === 401) {
      expect(res.body.errorCode).toBe(4013);
      continue;
    }
    expect(res.status).toBe(429);
    expect(res.body).toEqual({ statusCode: 429, errorCode: 4290, errorMessage: expect.any(String) });
    const retryAfter = Number(res.headers['retry-after']);
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(WINDOW_SECONDS);
  }
}

describeEachTarget('login throttle under concurrent guesses', (target) => {
  let t: TestApp;
  let checks: { count: number };
  const clock = new ManualClock();

  suiteApp(
    target,
    {
      clock,
      env: {
        LOGIN_MAX_FAILURES: String(MAX_FAILURES),
        LOGIN_MAX_FAILURES_PER_ADDRESS: String(MAX_PER_ADDRESS),
        LOGIN_FAILURE_WINDOW_SECONDS: String(WINDOW_SECONDS),
        TRUST_PROXY: 'true',
      },
    },
    (app) => {
      t = app;
      checks = countPasswordChecks(t.app);
    },
  );
  beforeEach(() => {
    checks.count = 0;
  });

  const apiLogin = (server: Server, username: string, password: string, address: string) =>
    server().post(`${t.base}/@authentication`).set('X-Forwarded-For', address).send({ username, password });
  const adminLogin = (server: Server, username: string, password: string, address: string) =>
    server().post('/admin/v1/@authentication').set('X-Forwarded-For', address).send({ username, password });
  /** Each guess from an address of its own: only the account's limit applies. */
  const burst = (send: (i: number) => PromiseLike<request.Response>, count = GUESSES) =>
    Promise.all(Array.from({ length: count }, (_, i) => send(i)));

  it(`lets at most ${MAX_FAILURES} of ${GUESSES} concurrent wrong API passwords reach bcrypt; the rest get 429 / 4290`, async () => {
    const answers = await burst((i) => apiLogin(() => t.http(), 'sam', `wrong-${i}`, `198.18.1.${i}`));
    expectRefusedOrFailed(answers);
    expect(statusCounts(answers)).toEqual({ 401: MAX_FAILURES, 429: GUESSES - MAX_FAILURES });
    expect(checks.count).toBeLessThanOrEqual(MAX_FAILURES);
    // The right password is refused too until the window has passed, then works.
    expect((await apiLogin(() => t.http(), 'sam', 'Password1', '198.18.1.200')).status).toBe(429);
    clock.advance(WINDOW_SECONDS + 1);
    await apiLogin(() => t.http(), 'sam', 'Password1', '198.18.1.201').expect(200);
  });

  it(`logs in all of ${GUESSES} concurrent logins of one account with the right password: those over the limit wait their turn`, async () => {
    const answers = await burst((i) => apiLogin(() => t.http(), 'readonly', 'Password1', `198.18.7.${i}`));
    expect(statusCounts(answers)).toEqual({ 200: GUESSES });
    // None of them counted as a failure: the account still has its whole allowance.
    for (let i = 0; i < MAX_FAILURES; i++) await apiLogin(() => t.http(), 'readonly', 'typo', `198.18.7.${100 + i}`).expect(401);
    expect((await apiLogin(() => t.http(), 'readonly', 'Password1', '198.18.7.200')).status).toBe(429);
    clock.advance(WINDOW_SECONDS + 1);
  });

  it(`lets concurrent logins of one account in as they came, those over the limit as soon as a slot is free`, async () => {
    const throttle = t.app.get(LoginThrottle);
    const reserve = throttle.reserve.bind(throttle);
    let arrived = 0;
    const admitted: number[] = [];
    throttle.reserve = async (attempt) => {
      const arrival = arrived++;
      const reservation = await reserve(attempt);
      admitted.push(arrival);
      return reservation;
    };
    try {
      const answers = await burst((i) => apiLogin(() => t.http(), 'readonly', 'Password1', `198.18.8.${i}`));
      expect(statusCounts(answers)).toEqual({ 200: GUESSES });
    } finally {
      throttle.reserve = reserve;
    }
    // In the order they came: none passed by a later one (before, 40 to 105 of the 780 pairs were, by polling
    // waiters and by newcomers taking a slot that had just come free).
    expect(admitted).toEqual(Array.from({ length: GUESSES }, (_, i) => i));
    clock.advance(WINDOW_SECONDS + 1);
  });

  it(`lets at most ${MAX_FAILURES} of ${GUESSES} concurrent wrong admin passwords reach bcrypt`, async () => {
    const answers = await burst((i) => adminLogin(() => t.http(), TEST_ADMIN_USER, `wrong-${i}`, `198.18.2.${i}`));
    expectRefusedOrFailed(answers);
    expect(statusCounts(answers)).toEqual({ 401: MAX_FAILURES, 429: GUESSES - MAX_FAILURES });
    expect(checks.count).toBeLessThanOrEqual(MAX_FAILURES);
    expect((await adminLogin(() => t.http(), TEST_ADMIN_USER, TEST_ADMIN_PASSWORD, '198.18.2.200')).status).toBe(429);
    clock.advance(WINDOW_SECONDS + 1);
    await adminLogin(() => t.http(), TEST_ADMIN_USER, TEST_ADMIN_PASSWORD, '198.18.2.201').expect(200);
  });

  it(`admits at most ${MAX_PER_ADDRESS} concurrent guesses from one address across many accounts`, async () => {
    const answers = await burst((i) => apiLogin(() => t.http(), `sprayed-${i}`, 'Password1', '198.18.3.1'));
    expectRefusedOrFailed(answers);
    expect(statusCounts(answers)).toEqual({ 401: MAX_PER_ADDRESS, 429: GUESSES - MAX_PER_ADDRESS });
    expect((await apiLogin(() => t.http(), 'demo', 'Password1', '198.18.3.1')).status).toBe(429);
    await apiLogin(() => t.http(), 'demo', 'Password1', '198.18.3.2').expect(200);
    clock.advance(WINDOW_SECONDS + 1);
  });

  it("does not count an address's successful logins, nor let one good account reset the address's failures", async () => {
    const address = '198.18.4.1';
    // Successes give their attempt back: more of them than the address limit all get in.
    for (let i = 0; i < MAX_PER_ADDRESS + 5; i++) await apiLogin(() => t.http(), 'readonly', 'Password1', address).expect(200);
    for (let i = 0; i < MAX_PER_ADDRESS - 1; i++) await apiLogin(() => t.http(), `sprayed-again-${i}`, 'guess', address).expect(401);
    // A known-good account logging in from the same address leaves the count where it was...
    await apiLogin(() => t.http(), 'readonly', 'Password1', address).expect(200);
    await apiLogin(() => t.http(), 'sprayed-again-x', 'guess', address).expect(401);
    // ...so the address is now at its limit.
    expect((await apiLogin(() => t.http(), 'readonly', 'Password1', address)).status).toBe(429);
    clock.advance(WINDOW_SECONDS + 1);
  });

  it('forgets an account’s failures when its right password gets in, so its user is not locked out by old typos', async () => {
    for (let i = 0; i < MAX_FAILURES - 1; i++) await apiLogin(() => t.http(), 'demo', 'typo', `198.18.5.${i}`).expect(401);
    await apiLogin(() => t.http(), 'demo', 'Password1', '198.18.5.100').expect(200);
    const answers = await burst((i) => apiLogin(() => t.http(), 'demo', 'typo', `198.18.5.${100 + i}`), 20);
    expect(statusCounts(answers)).toEqual({ 401: MAX_FAILURES, 429: 20 - MAX_FAILURES });
    clock.advance(WINDOW_SECONDS + 1);
  });

  it('shares the limit between two instances on the same database, guessed at concurrently', async () => {
    const other: INestApplication = await anotherInstance(t, clock);
    const otherChecks = countPasswordChecks(other);
    try {
      const servers: Server[] = [() => t.http(), () => request(other.getHttpServer())];
      const answers = await burst((i) => apiLogin(servers[i % 2]!, 'demo', `wrong-${i}`, `198.18.6.${i}`));
      expectRefusedOrFailed(answers);
      expect(statusCounts(answers)).toEqual({ 401: MAX_FAILURES, 429: GUESSES - MAX_FAILURES });
      expect(checks.count + otherChecks.count).toBeLessThanOrEqual(MAX_FAILURES);
      expect((await apiLogin(servers[1]!, 'demo', 'Password1', '198.18.6.200')).status).toBe(429);
      clock.advance(WINDOW_SECONDS + 1);
      await apiLogin(servers[1]!, 'demo', 'Password1', '198.18.6.201').expect(200);
    } finally {
      await other.close();
    }
  });
});
