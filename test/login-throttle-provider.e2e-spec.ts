import { ApiError } from '../src/common/api-error.js';
import { ErrorCode } from '../src/common/error-codes.js';
import { PROVIDER_TIMEOUT_MESSAGE } from '../src/provider/custom.provider.js';
import { fakeProvider } from './support/fake-provider.js';
import { describeEachTarget, suiteApp, type TestApp } from './support/test-app.js';

const MAX_FAILURES = 2;

describeEachTarget('login throttle with a provider that does not answer', (target) => {
  let t: TestApp;
  /**
   * Never judges `hang`: it fails as a custom provider's adapter fails one that does not answer
   * within AUTH_PROVIDER_TIMEOUT_MS (503 / 5031). Refuses everyone else.
   */
  const provider = fakeProvider((payload) => {
    if (payload.username === 'hang') throw new ApiError(ErrorCode.PROVIDER_UNAVAILABLE, PROVIDER_TIMEOUT_MESSAGE);
    return { errorMessage: 'Login failed.' };
  });

  suiteApp(target, { authProvider: provider, env: { LOGIN_MAX_FAILURES: String(MAX_FAILURES) } }, (app) => {
    t = app;
  });

  const login = (username: string) => t.http().post(`${t.base}/@authentication`).send({ username, password: 'pw' });
  const askedAbout = (username: string) => provider.asked.filter((payload) => payload.username === username).length;

  it('does not count a timed-out login (503 / 5031) as a failure: it judged nothing', async () => {
    for (let i = 0; i < MAX_FAILURES + 2; i++) {
      const res = await login('hang');
      expect(res.status).toBe(503);
      expect(res.body).toMatchObject({ statusCode: 503, errorCode: 5031, errorMessage: PROVIDER_TIMEOUT_MESSAGE });
    }
    // The account still has its whole allowance of failures, then is throttled before the provider is asked.
    for (let i = 0; i < MAX_FAILURES; i++) await login('hang-then-wrong').expect(401);
    expect((await login('hang-then-wrong')).status).toBe(429);
    expect(askedAbout('hang-then-wrong')).toBe(MAX_FAILURES);
    for (let i = 0; i < MAX_FAILURES; i++) expect((await login('hang')).status).toBe(503);
    expect(askedAbout('hang')).toBe(2 * MAX_FAILURES + 2);
  });
});
