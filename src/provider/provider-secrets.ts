import { REDACTED, scrub, sortSecrets } from './provider-logger.js';

/** Setting names that hold secrets by their look, whatever file they come from. */
const SECRET_NAME = /secret|passw|credential|token|private|api_?key/i;
const MAX_DEPTH = 6;

/** Which settings are secret: every key AUTH_PROVIDER_CONFIG sets (the place for secrets) and every key named like one. */
export interface SecretSettings {
  names: ReadonlySet<string>;
  /** Their string values, longest first: blanked wherever they show up in logs or in the admin API. */
  values: readonly string[];
}

export function secretSettings(config: Record<string, unknown>, environmentKeys: readonly string[]): SecretSettings {
  const names = new Set([...environmentKeys, ...Object.keys(config).filter((k) => SECRET_NAME.test(k))]);
  const values: string[] = [];
  const collect = (value: unknown, depth: number): void => {
    if (typeof value === 'string' && value !== '') values.push(value);
    else if (typeof value === 'object' && value !== null && depth < MAX_DEPTH) for (const v of Object.values(value)) collect(v, depth + 1);
  };
  for (const name of names) collect(config[name], 0);
  return { names, values: sortSecrets(values) };
}

/**
 * A provider's `getConfigInfo()` answer as operators may see it: values under secret names
 * replaced, and secret values blanked wherever else they appear (LAC providers list their
 * current settings, secrets included).
 */
export function redactSecrets(info: unknown, secrets: SecretSettings, depth = 0): unknown {
  if (typeof info !== 'object' || info === null) return scrub(info, secrets.values);
  if (depth >= MAX_DEPTH) return '[…]';
  if (Array.isArray(info)) return info.map((v) => redactSecrets(v, secrets, depth + 1));
  return Object.fromEntries(
    Object.entries(info).map(([key, value]) => {
      const secret = (secrets.names.has(key) || SECRET_NAME.test(key)) && value !== null && value !== undefined && value !== '';
      return [key, secret ? REDACTED : redactSecrets(value, secrets, depth + 1)];
    }),
  );
}
