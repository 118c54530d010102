import type { DatabaseTarget } from '../../config/database-url.js';

/** Why the service cannot use its database: one plain line (or a list), printed as config errors are, then exit 1. */
export class DatabaseBootError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'DatabaseBootError';
  }
}

/** Host, port, database and user of a server URL: what a boot message names (never the password). */
export interface ServerFacts {
  host: string;
  port: string;
  database: string;
  user: string;
}

const DEFAULT_PORTS: Record<string, string> = { mysql: '3306', mariadb: '3306', postgres: '5432' };

export function serverFactsOf(target: DatabaseTarget): ServerFacts {
  const url = new URL(target.url);
  return {
    host: url.hostname,
    port: url.port || DEFAULT_PORTS[target.kind] || '',
    database: decodeURIComponent(url.pathname.replace(/^\//, '')),
    user: decodeURIComponent(url.username),
  };
}

/** An identifier as the fix's SQL writes it: bare when it may be, quoted otherwise. */
function sqlName(kind: DatabaseTarget['kind'], name: string): string {
  if (/^[a-z_][a-z0-9_]*$/.test(name)) return name;
  return kind === 'postgres' ? `"${name.replace(/"/g, '""')}"` : `\`${name.replace(/`/g, '``')}\``;
}

function driverFacts(error: unknown): { code?: string; errno?: number; message: string } {
  const e = error as { code?: unknown; errno?: unknown; message?: unknown; errors?: unknown } | null | undefined;
  // Node's happy-eyeballs connect reports an AggregateError whose code may sit on its parts.
  const first = Array.isArray(e?.errors) ? (e.errors[0] as { code?: unknown } | undefined) : undefined;
  const code = typeof e?.code === 'string' ? e.code : typeof first?.code === 'string' ? first.code : undefined;
  return { code, errno: typeof e?.errno === 'number' ? e.errno : undefined, message: typeof e?.message === 'string' ? e.message : '' };
}

const MISSING_DATABASE = new Set(['ER_BAD_DB_ERROR', '3D000']);
const ACCESS_DENIED = new Set([
  'ER_ACCESS_DENIED_ERROR',
  'ER_DBACCESS_DENIED_ERROR',
  'ER_ACCESS_DENIED_NO_PASSWORD_ERROR',
  '28P01',
  '28000',
]);
const UNREACHABLE: Record<string, string> = {
  ECONNREFUSED: 'the connection was refused',
  ENOTFOUND: 'the host name is not known',
  EAI_AGAIN: 'the host name could not be looked up',
  EHOSTUNREACH: 'the host cannot be reached',
  ENETUNREACH: 'the network cannot be reached',
  ETIMEDOUT: 'no answer in time',
  ECONNRESET: 'the server closed the connection',
};
const TIMEOUT_MESSAGES = [/timeout/i, /timed out/i];

/**
 * The plain line for a database the service could not connect to at boot: which host, port
 * and database, what went wrong, and the fix. Never the password; the driver's code only when
 * the condition is none of those known here.
 */
export function connectFailureMessage(target: DatabaseTarget, error: unknown, acquireTimeoutMs: number): string {
  const { code, errno, message } = driverFacts(error);
  if (target.kind === 'sqlite') {
    return `Cannot open the SQLite database ${target.sqlitePath ?? target.safeUrl}: ${message || code}. Check that the file and its folder are readable and writable by this user, or set DATABASE_URL to another file.`;
  }
  const { host, port, database, user } = serverFactsOf(target);
  const where = `${host}:${port}`;
  if ((code && MISSING_DATABASE.has(code)) || errno === 1049) {
    const create =
      target.kind === 'postgres'
        ? `CREATE DATABASE ${sqlName(target.kind, database)};`
        : `CREATE DATABASE ${sqlName(target.kind, database)} CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci;`;
    return `Database "${database}" does not exist on ${where}. Create it: ${create}`;
  }
  if ((code && ACCESS_DENIED.has(code)) || errno === 1045 || errno === 1044) {
    return `Access denied to database "${database}" on ${where} for user "${user}". Check the user name and password in DATABASE_URL, or create that user on the server and grant it access to "${database}".`;
  }
  const unreachable = code ? UNREACHABLE[code] : undefined;
  const timedOut = code === 'ETIMEDOUT' || TIMEOUT_MESSAGES.some((re) => re.test(message));
  if (unreachable || timedOut) {
    const why = timedOut ? `no answer within ${acquireTimeoutMs} ms (DB_ACQUIRE_TIMEOUT_MS)` : unreachable;
    return `Cannot reach the database server at ${where} (database "${database}"): ${why}. Check that the server is running and that DATABASE_URL names the right host and port.`;
  }
  return `Cannot connect to the database at ${target.safeUrl}: ${code ?? message}`;
}
