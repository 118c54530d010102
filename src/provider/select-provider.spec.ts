import { pino } from 'pino';
import { loadConfig } from '../config/app-config.js';
import type { AuthProvider } from './auth-provider.js';
import { ProviderConfigError } from './provider-config.error.js';
import { selectProvider } from './select-provider.js';

const builtIn = (name: string): AuthProvider => ({
  name,
  kind: 'built-in',
  authenticate: async () => ({ errorMessage: 'x' }),
  loginInfo: async () => ({ fields: [], links: [] }),
  describe: async () => ({ name, kind: 'built-in', file: null, configInfo: null }),
});
const silent = pino({ level: 'silent' });

describe('selectProvider', () => {
  const builtIns = [builtIn('default'), builtIn('none')];
  const auth = (env: Record<string, string>) => loadConfig({ AUTH_PROVIDERS_DIR: 'test/fixtures/providers', ...env }).auth;

  it('picks a built-in provider by name', async () => {
    expect(await selectProvider(auth({ AUTH_PROVIDER: 'none' }), builtIns, silent)).toBe(builtIns[1]);
  });

  it('loads any other name from the providers folder', async () => {
    const provider = await selectProvider(auth({ AUTH_PROVIDER: 'accept-all' }), builtIns, silent);
    expect(provider).toMatchObject({ name: 'accept-all', kind: 'custom' });
  });

  it('never falls back to a built-in provider when the module is missing', async () => {
    await expect(selectProvider(auth({ AUTH_PROVIDER: 'my-sso' }), builtIns, silent)).rejects.toThrow(ProviderConfigError);
  });
});
