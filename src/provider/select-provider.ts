import type { Logger } from 'pino';
import type { AppConfig } from '../config/app-config.js';
import type { AuthProvider } from './auth-provider.js';
import { loadCustomProvider } from './load-provider.js';

/**
 * The provider named by AUTH_PROVIDER: a built-in one, or the module of that name in the
 * providers folder. No silent fallback: a module that cannot be used stops the boot.
 */
export async function selectProvider(auth: AppConfig['auth'], builtIn: readonly AuthProvider[], logger: Logger): Promise<AuthProvider> {
  const provider = builtIn.find((p) => p.name === auth.provider);
  if (provider) return provider;
  return loadCustomProvider({
    name: auth.provider,
    dir: auth.providersDir,
    configJson: auth.providerConfigJson,
    timeoutMs: auth.providerTimeoutMs,
    logger,
  });
}
