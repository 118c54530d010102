import type { AuthProvider } from './auth-provider.js';

/** Raised at boot for an AUTH_PROVIDER this build cannot serve; the boot stops with its message. */
export class ProviderConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ProviderConfigError';
  }
}

/** The provider named by AUTH_PROVIDER. No silent fallback: an unknown name stops the boot. */
export function selectProvider(name: string, builtIn: readonly AuthProvider[]): AuthProvider {
  const provider = builtIn.find((p) => p.name === name);
  if (provider) return provider;
  throw new ProviderConfigError(
    `AUTH_PROVIDER "${name}" is not available: custom providers (modules in providers/) arrive with issue 4. ` +
      `Use ${builtIn.map((p) => `"${p.name}"`).join(' or ')}.`,
  );
}
