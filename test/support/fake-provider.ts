import type { AuthProvider, AuthResult, LoginPayload } from '../../src/provider/auth-provider.js';

/** A provider written in a suite, and every login payload it has been asked about, in order. */
export interface FakeProvider extends AuthProvider {
  readonly asked: LoginPayload[];
}

/**
 * A custom provider that answers with `authenticate`, for `authProvider` in the test app's
 * options (`overrideProvider(AUTH_PROVIDER)`): no module in a providers folder, no AUTH_PROVIDER.
 * Like a custom provider's adapter, it may throw the `ApiError` the client gets (e.g. 503 / 5031
 * for one that timed out). The suites that load real modules are custom-provider and providers/.
 */
export function fakeProvider(authenticate: (payload: LoginPayload) => AuthResult | Promise<AuthResult>): FakeProvider {
  const asked: LoginPayload[] = [];
  return {
    name: 'fake',
    kind: 'custom',
    asked,
    authenticate: async (payload) => {
      asked.push(payload);
      return authenticate(payload);
    },
    loginInfo: () => Promise.resolve({ fields: [], links: [] }),
    describe: () => Promise.resolve({ name: 'fake', kind: 'custom', file: null, configInfo: null }),
  };
}
