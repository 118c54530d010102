import request from 'supertest';
import { adminHeader, createUser } from './support/auth.js';
import { ManualClock } from './support/manual-clock.js';
import { describeEachTarget, suiteApp, TEST_ADMIN_PASSWORD, TEST_ADMIN_USER, type TestApp } from './support/test-app.js';

const QUEUE_MAX = 2;
const BURST = 16;
const MAX_FAILURES = 40;
const WINDOW_SECONDS = 600;

function statusCounts(answers: request.Response[]): Record<number, number> {
  const counts: Record<number, number> = {};
  for (const res of answers) counts[res.status] = (counts[res.status] ?? 0) + 1;
  return counts;
}

/** Every 503 is the contract's 5032 with a Retry-After; the test needs at least one to mean anything. */
function expectQueueFullAnswers(answers: request.Response[]): void {
  const full = answers.filter((res) => res.status === 503);
  expect(full.length).toBeGreaterThan(0);
  for (const res of full) {
    expect(res.body).toEqual({ statusCode: 503, errorCode: 5032, errorMessage: expect.any(String), requestId: expect.any(String) });
    expect(Number(res.headers['retry-after'])).toBeGreaterThanOrEqual(1);
  }
}

describeEachTarget(`logins beyond LOGIN_QUEUE_MAX (${QUEUE_MAX})`, (target) => {
  let t: TestApp;
  const clock = new ManualClock();

  suiteApp(
    target,
    {
      clock,
      env: {
        LOGIN_QUEUE_MAX: String(QUEUE_MAX),
        LOGIN_MAX_FAILURES: String(MAX_FAILURES),
        LOGIN_FAILURE_WINDOW_SECONDS: String(WINDOW_SECONDS),
        TRUST_PROXY: 'true',
      },
    },
    async (app) => {
      t = app;
      await adminHeader(t);
    },
  );

  const apiLogin = (username: string, password: string, address: string) =>
    t.http().post(`${t.base}/@authentication`).set('X-Forwarded-For', address).send({ username, password });
  const burst = (send: (i: number) => PromiseLike<request.Response>) => Promise.all(Array.from({ length: BURST }, (_, i) => send(i)));

  it('answers 503 / 5032 with Retry-After at once, and still logs in the ones it admits', async () => {
    const answers = await burst((i) => apiLogin('demo', 'Password1', `198.19.1.${i}`));
    expectQueueFullAnswers(answers);
    expect(Object.keys(statusCounts(answers)).sort()).toEqual(['200', '503']);
    // Once the burst is over, logins are admitted again.
    await apiLogin('demo', 'Password1', '198.19.1.200').expect(200);
  });

  it('turns logins away before the throttle counts them: no attempt is used up by a 503', async () => {
    const answers = await burst((i) => apiLogin('sam', `wrong-${i}`, `198.19.2.${i}`));
    expectQueueFullAnswers(answers);
    const checked = statusCounts(answers)[401] ?? 0;
    expect(checked + statusCounts(answers)[503]!).toBe(BURST);
    // Exactly the attempts that were checked count: the account has MAX_FAILURES - checked left.
    for (let i = 0; i < MAX_FAILURES - checked; i++) await apiLogin('sam', 'still-wrong', `198.19.2.${100 + i}`).expect(401);
    expect((await apiLogin('sam', 'Password1', '198.19.2.250')).status).toBe(429);
    clock.advance(WINDOW_SECONDS + 1);
  });

  it('bounds admin logins the same way', async () => {
    const answers = await burst((i) =>
      t
        .http()
        .post('/admin/v1/@authentication')
        .set('X-Forwarded-For', `198.19.3.${i}`)
        .send({ username: TEST_ADMIN_USER, password: TEST_ADMIN_PASSWORD }),
    );
    expectQueueFullAnswers(answers);
    expect(Object.keys(statusCounts(answers)).sort()).toEqual(['200', '503']);
  });

  it("bounds operators' password changes, which hash too", async () => {
    await createUser(t, { login: 'busy', password: 'Password1' });
    const header = await adminHeader(t);
    const answers = await burst((i) =>
      t
        .http()
        .put('/admin/v1/users/busy/password')
        .set(...header)
        .send({ password: `New-Passw0rd-${i}` }),
    );
    expectQueueFullAnswers(answers);
    expect(Object.keys(statusCounts(answers)).sort()).toEqual(['204', '503']);
  });
});
