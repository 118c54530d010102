import { describeEachTarget, suiteApp, type TestApp } from './support/test-app.js';

/** The test providers folder (test/fixtures/providers/unruly.js misbehaves as the user name asks). */
const FIXTURES = { AUTH_PROVIDERS_DIR: 'test/fixtures/providers' };
const MAX_FAILURES = 2;

describeEachTarget('login throttle with a provider that does not answer', (target) => {
  let t: TestApp;

  suiteApp(
    target,
    {
      env: { ...FIXTURES, AUTH_PROVIDER: 'unruly', AUTH_PROVIDER_TIMEOUT_MS: '100', LOGIN_MAX_FAILURES: String(MAX_FAILURES) },
    },
    (app) => {
      t = app;
    },
  );

  const login = (username: string) => t.http().post(`${t.base}/@authentication`).send({ username, password: 'pw' });

  it('does not count a timed-out login (503 / 5031) as a failure: it judged nothing', async () => {
    for (let i = 0; i < MAX_FAILURES + 2; i++) {
      const res = await login('hang');
      expect(res.status).toBe(503);
      expect(res.body.errorCode).toBe(5031);
    }
    // The account still has its whole allowance of failures, then is throttled.
    for (let i = 0; i < MAX_FAILURES; i++) await login('hang-then-wrong').expect(401);
    expect((await login('hang-then-wrong')).status).toBe(429);
    for (let i = 0; i < MAX_FAILURES; i++) expect((await login('hang')).status).toBe(503);
  });
});
