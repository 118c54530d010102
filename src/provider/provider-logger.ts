import type { Logger } from 'pino';
import type { ProviderLogger } from './js-provider.js';

export const REDACTED = '[REDACTED]';
const MAX_DEPTH = 6;

/**
 * Copies `value` with every occurrence of a secret blanked out of its strings (errors become
 * `{name, message, stack}` first). Secrets are the credentials of the current request and
 * the provider's secret settings, so neither a provider's own log line nor an error it throws
 * can carry them into the log.
 */
export function scrub(value: unknown, secrets: readonly string[], depth = 0): unknown {
  if (typeof value === 'string') return scrubText(value, secrets);
  if (typeof value !== 'object' || value === null) return value;
  if (depth >= MAX_DEPTH) return '[…]';
  if (Array.isArray(value)) return value.map((v) => scrub(v, secrets, depth + 1));
  const source = isErrorLike(value) ? { name: value.name, message: value.message, stack: value.stack } : value;
  return Object.fromEntries(Object.entries(source).map(([k, v]) => [k, scrub(v, secrets, depth + 1)]));
}

function scrubText(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const secret of secrets) if (out.includes(secret)) out = out.split(secret).join(REDACTED);
  return out;
}

function isErrorLike(value: object): value is { name?: unknown; message: string; stack?: unknown } {
  return typeof (value as { message?: unknown }).message === 'string' && 'stack' in value;
}

/** The credential values of a login body: every string in it but the user name, longest first. */
export function credentialsOf(payload: Record<string, unknown>): string[] {
  const found: string[] = [];
  const collect = (value: unknown, depth: number): void => {
    if (typeof value === 'string') {
      if (value !== '') found.push(value);
    } else if (typeof value === 'object' && value !== null && depth < MAX_DEPTH) {
      for (const v of Object.values(value)) collect(v, depth + 1);
    }
  };
  for (const [field, value] of Object.entries(payload)) if (field !== 'username') collect(value, 0);
  return sortSecrets(found);
}

/** Longest first, so a secret that contains another is blanked whole. */
export function sortSecrets(secrets: Iterable<string>): string[] {
  return [...new Set(secrets)].sort((a, b) => b.length - a.length);
}

/** A provider's logger on Tessera's log: tagged with the provider, with `secrets` blanked out. */
export function providerLogger(log: Logger, secrets: readonly string[]): ProviderLogger {
  const write =
    (level: 'debug' | 'info' | 'warn' | 'error') =>
    (message: string, details?: unknown): void => {
      // eslint-disable-next-line @typescript-eslint/no-unnecessary-type-conversion -- providers are plain JavaScript: a message may be anything
      const text = scrubText(String(message), secrets);
      if (details === undefined) log[level](text);
      else log[level]({ details: scrub(details, secrets) }, text);
    };
  return { debug: write('debug'), info: write('info'), warn: write('warn'), error: write('error') };
}
