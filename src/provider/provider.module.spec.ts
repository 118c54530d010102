import 'reflect-metadata';
import { describe, expect, it } from '@jest/globals';
import { Module, type DynamicModule } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import { Clock } from '../common/clock.js';
import { loadConfig } from '../config/app-config.js';
import { ConfigModule } from '../config/config.module.js';
import { Database } from '../database/database.js';
import { createLogger, LOGGER } from '../observability/logger.js';
import { SEED_USERS } from '../users/seed-user.js';
import { AUTH_PROVIDER, type AuthProvider } from './auth-provider.js';
import { DefaultAuthProvider } from './default.provider.js';
import { NoneAuthProvider } from './none.provider.js';
import { ProviderConfigError } from './provider-config.error.js';
import { ProviderController } from './provider.controller.js';
import { ProviderModule } from './provider.module.js';

const SECRET = 'correct-horse-battery-staple';

/**
 * What CoreModule and the configuration give ProviderModule in the app, global as they are
 * there: the configuration from these environment variables, a silent logger, the clock, no
 * seed users, and a stand-in for the database.
 */
function testCore(env: Record<string, string>): DynamicModule {
  @Module({})
  class TestCore {}
  const providers = [
    { provide: LOGGER, useValue: createLogger('silent') },
    // A stand-in: choosing the provider asks nothing of the database.
    { provide: Database, useValue: {} },
    { provide: SEED_USERS, useValue: [] },
    Clock,
  ];
  return {
    module: TestCore,
    global: true,
    imports: [ConfigModule.forRoot(loadConfig(env))],
    providers,
    exports: providers.map((p) => ('provide' in p ? p.provide : p)),
  };
}

/** ProviderModule compiled as the app imports it, with the configuration these variables make. */
async function compile(env: Record<string, string> = {}) {
  const module = await Test.createTestingModule({ imports: [testCore(env), ProviderModule] }).compile();
  return { module, provider: module.get<AuthProvider>(AUTH_PROVIDER) };
}

/** The error compiling with these variables fails with. */
async function compileError(env: Record<string, string>): Promise<unknown> {
  return compile(env).then(
    () => undefined,
    (error: unknown) => error,
  );
}

describe('ProviderModule', () => {
  it("supplies the built-in users' provider when AUTH_PROVIDER is unset: the module's own DefaultAuthProvider", async () => {
    const { module, provider } = await compile();
    expect(provider).toBeInstanceOf(DefaultAuthProvider);
    expect(provider).toBe(module.get(DefaultAuthProvider));
    await expect(provider.describe()).resolves.toEqual({ name: 'default', kind: 'built-in', file: null, configInfo: null });
  });

  it('supplies the none provider with AUTH_PROVIDER=none: it refuses every login and shows no login form', async () => {
    const { provider } = await compile({ AUTH_PROVIDER: 'none' });
    expect(provider).toBeInstanceOf(NoneAuthProvider);
    const refused = await provider.authenticate(
      { username: 'demo', password: 'Password1' },
      { clientAddress: '::1', enablePasswordChange: false },
    );
    expect(refused).toEqual({ errorMessage: expect.stringContaining('hand-made auth tokens only') });
    await expect(provider.loginInfo()).resolves.toEqual({ fields: [], links: [] });
  });

  it("loads a custom provider from providers/ with its settings, and the admin API's view is of that provider", async () => {
    const { module, provider } = await compile({
      AUTH_PROVIDER: 'secret-word',
      AUTH_PROVIDER_CONFIG: JSON.stringify({ secret: SECRET, roles: ['Full access'] }),
    });
    expect(provider).toMatchObject({ name: 'secret-word', kind: 'custom' });
    const context = { clientAddress: '::1', enablePasswordChange: false };
    await expect(provider.authenticate({ username: 'ann', password: SECRET }, context)).resolves.toEqual({
      roleNames: ['Full access'],
      userIdentifier: 'ann',
    });
    await expect(provider.authenticate({ password: 'not the word' }, context)).resolves.toEqual({
      errorMessage: 'Login failed: wrong secret word.',
    });
    const view = await module.get(ProviderController).describe();
    expect(view).toMatchObject({ name: 'secret-word', kind: 'custom', file: 'providers/secret-word.js' });
    expect(JSON.stringify(view)).not.toContain(SECRET);
  });

  it('does not compile with an AUTH_PROVIDER that names no module: one error, naming the file, what exists and the fix', async () => {
    const error = await compileError({ AUTH_PROVIDER: 'my-sso' });
    expect(error).toBeInstanceOf(ProviderConfigError);
    // The whole message but the list, which holds whatever providers/ holds in this checkout.
    expect((error as ProviderConfigError).message).toMatch(
      new RegExp(
        '^Auth provider providers/my-sso\\.js cannot be used:\n' +
          ' {2}- no module my-sso\\.js, my-sso\\.mjs or my-sso\\.cjs in providers/ \\(the providers there are: [^)]*\\bsecret-word\\b[^)]*\\): ' +
          'set AUTH_PROVIDER to one of them, or to default or none$',
      ),
    );
  });

  it('does not compile with a custom provider whose settings it refuses, and never falls back to a built-in one', async () => {
    const error = await compileError({ AUTH_PROVIDER: 'secret-word', AUTH_PROVIDER_CONFIG: '{"secret": "short"}' });
    expect(error).toBeInstanceOf(ProviderConfigError);
    expect((error as ProviderConfigError).message).toMatch(
      /^Auth provider providers\/secret-word\.js cannot be used:\n {2}- .*"secret": a word of at least 8 characters; "roles"/,
    );
  });
});
