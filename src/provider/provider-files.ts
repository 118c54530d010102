import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, dirname, join, relative, sep } from 'node:path';
import { PROJECT_ROOT } from '../config/project-root.js';
import { PROVIDER_NAME } from '../config/environment.schema.js';

/** The module kinds a provider may be written as: `.js` follows package.json (ESM here), `.mjs` ESM, `.cjs` CommonJS. */
export const PROVIDER_EXTENSIONS = ['.js', '.mjs', '.cjs'] as const;

/** A path as operators know it: relative to the project root when inside it. */
export function displayPath(path: string): string {
  const rel = relative(PROJECT_ROOT, path);
  return rel.startsWith('..') || rel === '' ? path : rel.split(sep).join('/');
}

/** The provider names the folder offers (module files, without their extension). */
export function providersIn(dir: string): string[] {
  if (!isDirectory(dir)) return [];
  const names = readdirSync(dir)
    .filter((file) => PROVIDER_EXTENSIONS.some((ext) => file.endsWith(ext)) && !file.endsWith('.d.ts'))
    .map((file) => file.replace(/\.(c|m)?js$/, ''))
    .filter((name) => PROVIDER_NAME.test(name));
  return [...new Set(names)].sort();
}

/**
 * The module file of provider `name` directly inside `dir`, or the problems that stop it
 * from being one (refused name, no such file, more than one candidate).
 */
export function findProviderModule(dir: string, name: string): { file: string; problems: string[] } {
  const wanted = join(dir, `${name}.js`);
  // AUTH_PROVIDER was checked at boot already; this is the last guard before a file is read.
  if (!PROVIDER_NAME.test(name)) {
    return {
      file: wanted,
      problems: [
        `"${name}" is not a provider name: only files directly inside ${displayPath(dir)}/ are loaded; use letters, digits, "_", "." or "-", without path separators or ".."`,
      ],
    };
  }
  if (!isDirectory(dir)) {
    return {
      file: wanted,
      problems: [
        `the providers folder ${displayPath(dir)} does not exist: create it, or point AUTH_PROVIDERS_DIR at the folder that holds ${name}.js`,
      ],
    };
  }
  const found = PROVIDER_EXTENSIONS.map((ext) => join(dir, `${name}${ext}`)).filter((file) => existsSync(file) && statSync(file).isFile());
  if (found.length === 0) {
    const available = providersIn(dir);
    const offer = available.length > 0 ? `the providers there are: ${available.join(', ')}` : 'the folder holds no provider modules';
    return {
      file: wanted,
      problems: [
        `no module ${name}.js, ${name}.mjs or ${name}.cjs in ${displayPath(dir)}/ (${offer}): set AUTH_PROVIDER to one of them, or to default or none`,
      ],
    };
  }
  if (found.length > 1) {
    return {
      file: found[0]!,
      problems: [`more than one module is named ${name}: ${found.map((f) => basename(f)).join(' and ')}; keep one of them`],
    };
  }
  return { file: found[0]!, problems: [] };
}

/** Provider settings: `<name>.config.json` beside the module, overlaid key by key by AUTH_PROVIDER_CONFIG. */
export interface ProviderSettings {
  config: Record<string, unknown>;
  /** Keys set by AUTH_PROVIDER_CONFIG, the place for secrets: their values are never shown to operators. */
  environmentKeys: string[];
  problems: string[];
}

export function readProviderSettings(moduleFile: string, name: string, environmentJson: string | undefined): ProviderSettings {
  const problems: string[] = [];
  const configFile = join(dirname(moduleFile), `${name}.config.json`);
  let fromFile: Record<string, unknown> = {};
  if (existsSync(configFile)) {
    const parsed = parseObject(readFileSync(configFile, 'utf8'));
    if (typeof parsed === 'string')
      problems.push(`${displayPath(configFile)} ${parsed}: fix the file (or remove it and configure through AUTH_PROVIDER_CONFIG)`);
    else fromFile = parsed;
  }
  let fromEnvironment: Record<string, unknown> = {};
  if (environmentJson !== undefined) {
    const parsed = parseObject(environmentJson);
    if (typeof parsed === 'string') problems.push(`AUTH_PROVIDER_CONFIG ${parsed}: set it to a JSON object such as {"secret":"…"}`);
    else fromEnvironment = parsed;
  }
  return { config: { ...fromFile, ...fromEnvironment }, environmentKeys: Object.keys(fromEnvironment), problems };
}

/** The JSON object in `text`, or what is wrong with it. */
function parseObject(text: string): Record<string, unknown> | string {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return `is not valid JSON (${(error as Error).message})`;
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return `must hold a JSON object, not ${Array.isArray(value) ? 'an array' : value === null ? 'null' : typeof value}`;
  }
  return value as Record<string, unknown>;
}

function isDirectory(path: string): boolean {
  return existsSync(path) && statSync(path).isDirectory();
}
