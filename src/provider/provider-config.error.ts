/**
 * Raised at boot when the configured AUTH_PROVIDER cannot be served: the boot stops with its
 * message, which names the module and lists every problem found, each with its fix.
 */
export class ProviderConfigError extends Error {
  constructor(
    readonly file: string,
    readonly problems: string[],
  ) {
    super(`Auth provider ${file} cannot be used:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ProviderConfigError';
  }
}
