import { Writable } from 'node:stream';
import { pino } from 'pino';
import { ApiError } from '../common/api-error.js';
import { ErrorCode } from '../common/error-codes.js';
import { CustomAuthProvider } from './custom.provider.js';
import type { JsProvider } from './js-provider.js';
import { secretSettings } from './provider-secrets.js';

const context = { clientAddress: '10.1.2.3', enablePasswordChange: false };
const login = { username: 'ada', password: 'correct horse battery' };

/** Providers here misbehave on purpose, so they are not held to the contract's types. */
type AnyProvider = { [K in keyof JsProvider]: (...args: Parameters<NonNullable<JsProvider[K]>>) => unknown };

function adapt(provider: AnyProvider, config: Record<string, unknown> = {}, environmentKeys: string[] = []) {
  const lines: string[] = [];
  const sink = new Writable({
    write: (chunk, _enc, done) => {
      lines.push(String(chunk));
      done();
    },
  });
  const adapter = new CustomAuthProvider({
    name: 'test',
    file: 'providers/test.js',
    provider: provider as unknown as JsProvider,
    config,
    secrets: secretSettings(config, environmentKeys),
    timeoutMs: 200,
    logger: pino({ level: 'debug' }, sink),
  });
  return { adapter, log: () => lines.join('') };
}

async function errorOf(work: Promise<unknown>): Promise<ApiError> {
  try {
    await work;
  } catch (error) {
    expect(error).toBeInstanceOf(ApiError);
    return error as ApiError;
  }
  throw new Error('no error');
}

describe('CustomAuthProvider', () => {
  it('passes the payload and a context with the client address, config, logger and fetch', async () => {
    let seen: unknown;
    const { adapter } = adapt(
      { authenticate: (payload, ctx) => ((seen = { payload, ctx }), { roleNames: ['r'], userIdentifier: 'ada' }) },
      { region: 'eu' },
    );
    await expect(adapter.authenticate(login, context)).resolves.toEqual({ roleNames: ['r'], userIdentifier: 'ada' });
    expect(seen).toMatchObject({
      payload: login,
      ctx: { clientAddress: '10.1.2.3', config: { region: 'eu' }, fetch: expect.any(Function), logger: expect.any(Object) },
    });
  });

  it("passes a refusal through as the client's message", async () => {
    const { adapter } = adapt({ authenticate: () => ({ errorMessage: 'Wrong secret word.' }) });
    await expect(adapter.authenticate(login, context)).resolves.toEqual({ errorMessage: 'Wrong secret word.' });
  });

  it.each([
    [
      'throws',
      () => {
        throw new Error('boom');
      },
    ],
    ['rejects', () => Promise.reject(new Error('boom'))],
    ['answers nothing', () => undefined],
    ['answers roles that are not a list', () => ({ roleNames: 'admin', userIdentifier: 'x' })],
    ['answers no user identifier', () => ({ roleNames: ['r'] })],
    ['answers nested globals', () => ({ roleNames: ['r'], userIdentifier: 'x', userData: { a: { b: 1 } } })],
    ['answers a non-string errorMessage', () => ({ errorMessage: 42 })],
    ['answers an unreadable expiration', () => ({ roleNames: ['r'], userIdentifier: 'x', keyExpiration: 'tomorrow' })],
  ])('turns a provider that %s into 401 / 4013, never a token', async (_what, authenticate) => {
    const { adapter } = adapt({ authenticate });
    const error = await errorOf(adapter.authenticate(login, context));
    expect(error.errorCode).toBe(ErrorCode.LOGIN_FAILED);
  });

  it('answers 503 / 5031 within the timeout when the provider never answers', async () => {
    const { adapter, log } = adapt({ authenticate: () => new Promise(() => undefined) });
    const started = Date.now();
    const error = await errorOf(adapter.authenticate(login, context));
    expect(error.statusCode).toBe(503);
    expect(error.errorCode).toBe(5031);
    expect(Date.now() - started).toBeLessThan(1000);
    expect(log()).toMatch(/did not answer within AUTH_PROVIDER_TIMEOUT_MS/);
  });

  it("keeps credentials and secret settings out of the log: the provider's own lines and its errors", async () => {
    const { adapter, log } = adapt(
      {
        authenticate: (payload, ctx) => {
          ctx.logger.info(`checking ${String(payload.password)} with ${String(ctx.config.bindPassword)}`, { payload });
          throw new Error(`refused ${String(payload.password)}`);
        },
      },
      { bindPassword: 'directory-pw-42', url: 'ldap://x' },
    );
    await errorOf(adapter.authenticate(login, context));
    const text = log();
    expect(text).toContain('checking [REDACTED] with [REDACTED]');
    expect(text).toContain('refused [REDACTED]');
    expect(text).toContain('"username":"ada"');
    expect(text).not.toContain('correct horse battery');
    expect(text).not.toContain('directory-pw-42');
  });

  it("accepts LAC's keyExpiration Date and errorMessage null with a success", async () => {
    const expiry = new Date('2031-01-01T00:00:00Z');
    const { adapter } = adapt({ authenticate: () => ({ errorMessage: null, roleNames: [], userIdentifier: 'x', keyExpiration: expiry }) });
    await expect(adapter.authenticate(login, context)).resolves.toEqual({ roleNames: [], userIdentifier: 'x', keyExpiration: expiry });
  });

  describe('password change', () => {
    it('calls authenticate again with "enablePasswordChange!" and reads changePasswordResult', async () => {
      const calls: unknown[] = [];
      const { adapter } = adapt({
        authenticate: (payload) => {
          calls.push(payload);
          return {
            roleNames: ['r'],
            userIdentifier: 'ada',
            ...(payload['enablePasswordChange!'] ? { changePasswordResult: 'failure', changePasswordMessage: 'Too short.' } : {}),
          };
        },
      });
      await expect(
        adapter.changePassword({ ...login, new_password: 'x' }, { roleNames: ['r'], userIdentifier: 'ada' }, context),
      ).resolves.toEqual({
        result: 'failure',
        message: 'Too short.',
      });
      expect(calls).toEqual([{ ...login, new_password: 'x', 'enablePasswordChange!': true }]);
    });

    it('answers notSupported for a provider that ignores the flag, and failure when it breaks', async () => {
      const ignores = adapt({ authenticate: () => ({ roleNames: ['r'], userIdentifier: 'ada' }) }).adapter;
      expect((await ignores.changePassword(login, { roleNames: ['r'], userIdentifier: 'ada' }, context)).result).toBe('notSupported');
      const breaks = adapt({ authenticate: () => Promise.reject(new Error('x')) }).adapter;
      expect((await breaks.changePassword(login, { roleNames: ['r'], userIdentifier: 'ada' }, context)).result).toBe('failure');
    });
  });

  describe('login info and config info', () => {
    it("serves LAC's {fields, links}, and username/password when the provider has no getLoginInfo", async () => {
      const withInfo = adapt({
        authenticate: () => undefined,
        getLoginInfo: () => ({
          fields: [{ name: 'id_token', display: 'ID token', type: 'password' }, { display: 'no name' }],
          links: [{ display: 'Help', href: 'https://x' }],
        }),
      }).adapter;
      expect(await withInfo.loginInfo()).toEqual({
        fields: [{ name: 'id_token', display: 'ID token', type: 'password' }],
        links: [{ display: 'Help', href: 'https://x' }],
      });
      expect((await adapt({ authenticate: () => undefined }).adapter.loginInfo()).fields.map((f) => f.name)).toEqual([
        'username',
        'password',
      ]);
    });

    it('describes the provider for operators with secrets blanked', async () => {
      const { adapter } = adapt(
        {
          authenticate: () => undefined,
          getConfigInfo: () => ({ current: { url: 'ldap://x', bindPassword: 'pw-1', note: 'uses token t-99' } }),
        },
        { url: 'ldap://x', bindPassword: 'pw-1', apiToken: 't-99' },
      );
      expect(await adapter.describe()).toEqual({
        name: 'test',
        kind: 'custom',
        file: 'providers/test.js',
        configInfo: { current: { url: 'ldap://x', bindPassword: '[REDACTED]', note: 'uses token [REDACTED]' } },
      });
    });
  });
});
