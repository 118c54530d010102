import { isAbsolute, resolve } from 'node:path';

export type DatabaseKind = 'sqlite' | 'mysql' | 'mariadb' | 'postgres';

/** Where the database is: the driver kind and the connection facts from the URL. */
export interface DatabaseTarget {
  kind: DatabaseKind;
  /** The URL as configured; only for driver use, never logged (it may hold a password). */
  url: string;
  /** Absolute file path, SQLite only. */
  sqlitePath?: string;
  /** The URL without its password, for logs and @serverinfo. */
  safeUrl: string;
}

/**
 * `sqlite:<path>` (relative to the working directory unless absolute),
 * `mysql://`, `mariadb://`, `postgres://` or `postgresql://`.
 */
export function parseDatabaseUrl(url: string, cwd: string = process.cwd()): DatabaseTarget {
  if (url.startsWith('sqlite:')) {
    const raw = url.slice('sqlite:'.length).replace(/^\/\/(?=\/)/, '');
    if (raw.length === 0) throw new Error('sqlite: needs a file path, e.g. sqlite:./data/tessera.sqlite');
    if (raw === ':memory:') throw new Error('sqlite::memory: is not supported; use a file path');
    const sqlitePath = isAbsolute(raw) ? raw : resolve(cwd, raw);
    return { kind: 'sqlite', url, sqlitePath, safeUrl: `sqlite:${sqlitePath}` };
  }
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new Error('not a valid URL');
  }
  const scheme = parsed.protocol.replace(/:$/, '');
  const kind: DatabaseKind | undefined =
    scheme === 'mysql'
      ? 'mysql'
      : scheme === 'mariadb'
        ? 'mariadb'
        : scheme === 'postgres' || scheme === 'postgresql'
          ? 'postgres'
          : undefined;
  if (!kind) throw new Error(`unsupported scheme "${scheme}"`);
  if (!parsed.hostname) throw new Error('the URL needs a host');
  if (parsed.pathname.replace(/^\//, '') === '') throw new Error('the URL needs a database name, e.g. …/tessera');
  const safe = new URL(url);
  if (safe.password) safe.password = '***';
  return { kind, url, safeUrl: safe.toString() };
}
