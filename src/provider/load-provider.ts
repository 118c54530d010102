import { spawnSync } from 'node:child_process';
import { pathToFileURL } from 'node:url';
import type { Logger } from 'pino';
import { CustomAuthProvider } from './custom.provider.js';
import { instantiate, shapeProblems, unwrapModule, type JsProvider } from './js-provider.js';
import { messageOf, settleWithin } from '../common/settle-within.js';
import { ProviderConfigError } from './provider-config.error.js';
import { displayPath, findProviderModule, readProviderSettings } from './provider-files.js';
import { scrub } from './provider-logger.js';
import { secretSettings } from './provider-secrets.js';

export interface LoadProviderOptions {
  /** AUTH_PROVIDER: a module name in `dir`. */
  name: string;
  /** The providers folder (absolute). */
  dir: string;
  /** AUTH_PROVIDER_CONFIG, raw. */
  configJson?: string;
  timeoutMs: number;
  logger: Logger;
}

/**
 * Loads a custom provider once, at boot: finds the module directly inside the providers
 * folder, reads its settings, imports it (ESM or CommonJS, `default` unwrapped), makes the
 * provider object (calling a factory), checks its shape and hands it its settings through
 * `configure`. Every problem found on the way is reported in one `ProviderConfigError` that
 * names the file; the boot stops. There is no fallback to another provider.
 */
export async function loadCustomProvider(options: LoadProviderOptions): Promise<CustomAuthProvider> {
  const { name, dir, timeoutMs } = options;
  const located = findProviderModule(dir, name);
  const file = displayPath(located.file);
  if (located.problems.length > 0) throw new ProviderConfigError(file, located.problems);

  const settings = readProviderSettings(located.file, name, options.configJson);
  const problems = [...settings.problems];
  const secrets = secretSettings(settings.config, settings.environmentKeys);
  const fail = (more: string[]): never => {
    throw new ProviderConfigError(
      file,
      [...more, ...problems].map((p) => scrub(p, secrets.values) as string),
    );
  };

  let namespace: unknown;
  try {
    namespace = await import(pathToFileURL(located.file).href);
  } catch (error) {
    fail([`the module does not load: ${messageOf(error)}${syntaxErrorLine(error, located.file)}: fix the file`]);
  }

  let candidate = unwrapModule(namespace);
  if (typeof candidate === 'function') {
    const factory = candidate as (...args: unknown[]) => unknown;
    const made = await settleWithin(timeoutMs, () => instantiate(factory));
    if (made.status === 'timeout') fail([`its factory function did not return within ${timeoutMs} ms (AUTH_PROVIDER_TIMEOUT_MS)`]);
    if (made.status === 'error') fail([`its factory function threw: ${messageOf(made.error)}`]);
    candidate = (made as { value: unknown }).value;
  }
  const shape = shapeProblems(candidate);
  if (shape.length > 0 || problems.length > 0) fail(shape);

  const provider = candidate as JsProvider;
  if (provider.configure) {
    const configured = await settleWithin(timeoutMs, () => provider.configure!(structuredClone(settings.config)));
    if (configured.status === 'timeout') fail([`configure(config) did not finish within ${timeoutMs} ms (AUTH_PROVIDER_TIMEOUT_MS)`]);
    if (configured.status === 'error') fail([`configure(config) refused the settings: ${messageOf(configured.error)}`]);
  }
  options.logger.info({ provider: name, file }, 'custom auth provider loaded');
  return new CustomAuthProvider({
    name,
    file,
    provider,
    config: Object.freeze(structuredClone(settings.config)),
    secrets,
    timeoutMs,
    logger: options.logger,
  });
}

/**
 * Where a syntax error is: the import's error does not say, so ask `node --check`, which
 * prints `<file>:<line>` first. Only on this failure path, once, at boot.
 */
function syntaxErrorLine(error: unknown, file: string): string {
  if ((error as { name?: unknown } | null | undefined)?.name !== 'SyntaxError') return '';
  const check = spawnSync(process.execPath, ['--check', file], { encoding: 'utf8', timeout: 5000 });
  // Typed as a string, but null when the check could not be started at all.
  const first = ((check.stderr as string | null) ?? '').split('\n', 1)[0] ?? '';
  const line = first.includes(file) ? /:(\d+)$/.exec(first)?.[1] : undefined;
  return line ? ` (line ${line})` : '';
}
