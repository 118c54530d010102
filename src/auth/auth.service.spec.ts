import { NO_METRICS } from '../observability/metrics.js';
import { Clock } from '../common/clock.js';
import type { LoginAttempt, LoginThrottle } from '../login/login-throttle.js';
import type { PasswordHasher } from '../login/password-hasher.js';
import type { AppConfig } from '../config/app-config.js';
import type { AuthProvider, AuthResult } from '../provider/auth-provider.js';
import type { ApiToken } from '../tokens/api-token.entity.js';
import type { IssueTokenInput, TokensService } from '../tokens/tokens.service.js';
import { AuthService } from './auth.service.js';

const NOW = Date.parse('2030-01-01T00:00:00Z');

class FixedClock extends Clock {
  override now(): number {
    return NOW;
  }
}

function setup(provider: AuthProvider) {
  const issued: IssueTokenInput[] = [];
  const disabledFor: string[] = [];
  const events: string[] = [];
  const tokens = {
    issue: async (input: IssueTokenInput) => {
      issued.push(input);
      events.push('issue');
      return { apikey: 'new-key', token: { ...input, id: 1 } as unknown as ApiToken };
    },
    disableForUser: async (user: string) => {
      disabledFor.push(user);
      events.push('disable');
    },
  } as unknown as TokensService;
  const throttled: LoginAttempt[] = [];
  const throttle = {
    reserve: async (attempt: LoginAttempt) => {
      throttled.push(attempt);
      return { subjects: { account: attempt.account, address: attempt.address }, finished: false };
    },
    finish: async () => undefined,
  } as unknown as LoginThrottle;
  const config = { auth: { tokenLifetimeSeconds: 100 } } as AppConfig;
  const hasher = { admitLogin: <T>(login: () => Promise<T>) => login() } as unknown as PasswordHasher;
  return {
    service: new AuthService(provider, config, tokens, throttle, new FixedClock(), hasher, NO_METRICS),
    issued,
    disabledFor,
    events,
    throttled,
  };
}

/** A provider that accepts everyone; `overrides` change any part of it. */
function fakeProvider(overrides: Partial<AuthProvider> = {}): AuthProvider {
  return {
    name: 'x',
    kind: 'custom',
    authenticate: async () => accepted,
    loginInfo: async () => ({ fields: [], links: [] }),
    describe: async () => ({ name: 'x', kind: 'custom', file: null, configInfo: null }),
    ...overrides,
  };
}

const accepted: AuthResult = { roleNames: ['r'], userIdentifier: 'ext-user', userData: { g: 1 }, userInfo: { email: 'e@x', team: 'blue' } };
const payload = { username: 'ext-user', password: 'pw' };
const context = { clientAddress: '10.0.0.1', enablePasswordChange: true };

describe('AuthService.login', () => {
  it('answers notSupported when the provider cannot change passwords, and still logs in', async () => {
    const { service, issued, disabledFor } = setup(fakeProvider());
    const body = await service.login(payload, context);
    expect(body).toMatchObject({ apikey: 'new-key', changePasswordResult: 'notSupported', changePasswordMessage: expect.any(String) });
    expect(issued).toHaveLength(1);
    expect(disabledFor).toEqual([]);
  });

  it("passes the provider's extras through, with the contract's three always present", async () => {
    const { service } = setup(fakeProvider());
    const body = await service.login(payload, { ...context, enablePasswordChange: false });
    expect(body).toEqual({
      apikey: 'new-key',
      expiration: new Date(NOW + 100_000).toISOString(),
      lastLoginTs: null,
      lastLoginIP: null,
      email: 'e@x',
      team: 'blue',
    });
  });

  it("prefers the provider's keyExpiration, then its keyLifetimeSeconds, to the default lifetime", async () => {
    const fixed = new Date(NOW + 5_000);
    for (const [result, expected] of [
      [{ ...accepted, keyExpiration: fixed, keyLifetimeSeconds: 9 }, fixed.getTime()],
      [{ ...accepted, keyLifetimeSeconds: 9 }, NOW + 9_000],
    ] as const) {
      const { service, issued } = setup(fakeProvider({ authenticate: async () => result }));
      await service.login(payload, { ...context, enablePasswordChange: false });
      expect(issued[0]!.expiration).toBe(expected);
    }
  });

  it("disables the user's other tokens before issuing the new one after a successful change", async () => {
    const { service, disabledFor, events } = setup(fakeProvider({ changePassword: async () => ({ result: 'success', message: 'ok' }) }));
    const body = await service.login(payload, context);
    expect(events).toEqual(['disable', 'issue']);
    expect(disabledFor).toEqual(['ext-user']);
    expect(body.changePasswordResult).toBe('success');
  });

  it("marks tokens from a custom provider's logins as such, and those of built-in users as logins", async () => {
    for (const [kind, origin] of [
      ['custom', 'provider'],
      ['built-in', 'login'],
    ] as const) {
      const { service, issued } = setup(fakeProvider({ kind }));
      await service.login(payload, { ...context, enablePasswordChange: false });
      expect(issued[0]!.origin).toBe(origin);
    }
  });

  it('counts failures of a login without a user name (an OIDC token, a lone password) against the client address', async () => {
    const { service, throttled } = setup(fakeProvider());
    await service.login({ id_token: 'x' }, { ...context, enablePasswordChange: false });
    await service.login({ username: '', password: 'word' }, { ...context, enablePasswordChange: false });
    await service.login(payload, { ...context, enablePasswordChange: false });
    expect(throttled.map((a) => a.account)).toEqual(['api-address:10.0.0.1', 'api-address:10.0.0.1', 'api:ext-user']);
  });
});
