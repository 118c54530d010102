import { join } from 'node:path';
import { pino } from 'pino';
import { PROJECT_ROOT } from '../config/project-root.js';
import { loadCustomProvider } from './load-provider.js';
import { ProviderConfigError } from './provider-config.error.js';

const FIXTURES = join(PROJECT_ROOT, 'test', 'fixtures', 'providers');
const silent = pino({ level: 'silent' });

function load(name: string, configJson?: string) {
  return loadCustomProvider({ name, dir: FIXTURES, configJson, timeoutMs: 1000, logger: silent });
}

/** The boot error's message; fails the test when the provider loads. */
async function bootError(name: string, configJson?: string): Promise<ProviderConfigError> {
  try {
    await load(name, configJson);
  } catch (error) {
    expect(error).toBeInstanceOf(ProviderConfigError);
    return error as ProviderConfigError;
  }
  throw new Error(`${name} loaded`);
}

describe('loadCustomProvider', () => {
  it('loads an ES module that exports the provider object as its default', async () => {
    const provider = await load('accept-all');
    expect(provider).toMatchObject({ name: 'accept-all', kind: 'custom' });
    expect((await provider.describe()).file).toBe('test/fixtures/providers/accept-all.js');
  });

  it('loads an ES module with named exports only, and a CommonJS factory', async () => {
    const named = await load('named-exports');
    expect(await named.authenticate({ password: 'open sesame' }, { clientAddress: '::1', enablePasswordChange: false })).toMatchObject({
      userIdentifier: 'named',
    });
    const lac = await load('lac-style');
    expect((await lac.describe()).file).toBe('test/fixtures/providers/lac-style.cjs');
  });

  it('overlays AUTH_PROVIDER_CONFIG on <name>.config.json, key by key, and hands the result to configure', async () => {
    const provider = await load('lac-style', '{"keyLifetimeMinutes": 5}');
    const result = await provider.authenticate(
      { username: 'ada', password: 'lovelace' },
      { clientAddress: '::1', enablePasswordChange: false },
    );
    const lifetime = (result as { keyExpiration: Date }).keyExpiration.getTime() - Date.now();
    expect(lifetime).toBeGreaterThan(4 * 60_000);
    expect(lifetime).toBeLessThanOrEqual(5 * 60_000);
    expect((await provider.describe()).configInfo).toMatchObject({ current: { serviceUrl: 'https://directory.example.org' } });
  });

  it('never shows operators a secret: values set through AUTH_PROVIDER_CONFIG or under secret-looking names are blanked', async () => {
    const provider = await load('lac-style', '{"adminApiKey": "k-123-very-secret"}');
    const shown = JSON.stringify(await provider.describe());
    expect(shown).not.toContain('k-123-very-secret');
    expect(shown).toContain('[REDACTED]');
  });

  it('refuses a missing module, listing the providers that exist', async () => {
    const error = await bootError('my-sso');
    expect(error.message).toContain('test/fixtures/providers/my-sso.js');
    expect(error.message).toMatch(
      /no module my-sso\.js, my-sso\.mjs or my-sso\.cjs .*the providers there are: .*accept-all.*lac-style.*named-exports/,
    );
  });

  it('refuses a name that is not a plain file name, reading nothing', async () => {
    const error = await bootError('../accept-all');
    expect(error.message).toMatch(
      /"\.\.\/accept-all" is not a provider name: only files directly inside test\/fixtures\/providers\/ are loaded/,
    );
  });

  it('names the file and the fix when authenticate is missing', async () => {
    const error = await bootError('no-authenticate');
    expect(error.message).toMatch(/^Auth provider test\/fixtures\/providers\/no-authenticate\.js cannot be used:/);
    expect(error.problems).toEqual([expect.stringMatching(/it has no authenticate function: add authenticate\(payload, context\)/)]);
  });

  it('reports every shape problem at once', async () => {
    const error = await bootError('broken-shape');
    expect(error.problems).toEqual([
      expect.stringMatching(/^authenticate is a string, not a function/),
      expect.stringMatching(/^configure is a number, not a function/),
      expect.stringMatching(/^getLoginInfo is an object, not a function/),
    ]);
  });

  it("reports a syntax error with the loader's message", async () => {
    const error = await bootError('syntax-error');
    expect(error.message).toContain('test/fixtures/providers/syntax-error.js');
    expect(error.problems).toEqual([expect.stringMatching(/^the module does not load: SyntaxError: .+ \(line 4\): fix the file$/)]);
  });

  it('refuses a module that exports no provider', async () => {
    expect((await bootError('not-a-provider')).problems).toEqual([expect.stringMatching(/^it exports a number, not a provider/)]);
  });

  it("reports an unreadable config file and a bad AUTH_PROVIDER_CONFIG together with the module's problems", async () => {
    expect((await bootError('bad-config')).problems).toEqual([
      expect.stringMatching(/^test\/fixtures\/providers\/bad-config\.config\.json is not valid JSON/),
    ]);
    expect((await bootError('no-authenticate', '["not", "an object"]')).problems).toEqual([
      expect.stringMatching(/no authenticate function/),
      expect.stringMatching(/^AUTH_PROVIDER_CONFIG must hold a JSON object, not an array/),
    ]);
    expect((await bootError('accept-all', '{oops')).problems).toEqual([expect.stringMatching(/^AUTH_PROVIDER_CONFIG is not valid JSON/)]);
  });

  it('stops the boot when configure refuses the settings, with its reason and without the secrets', async () => {
    const error = await bootError('configure-refuses', '{"secret": 12345}');
    expect(error.problems).toEqual(['configure(config) refused the settings: the setting "secret" is required']);
  });
});
