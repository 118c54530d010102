import { getMetadataArgsStorage } from 'typeorm';
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

/** A relation's target as the decorator took it: a class name, or a function that returns the class. */
function relationTarget(type: unknown, entities: Function[]): Function | undefined {
  if (typeof type === 'string') return entities.find((entity) => entity.name === type);
  if (typeof type !== 'function') return undefined;
  try {
    const target: unknown = (type as () => unknown)();
    return entities.find((entity) => entity === target);
  } catch {
    return undefined;
  }
}

/**
 * A loop of NOT NULL (`nullable: false`) many-to-one relations among the entities, as
 * `Store.manager → Staff`, read from the decorators (TypeORM's own message garbles the names).
 */
function notNullRelationLoop(entities: Function[]): string[] | undefined {
  const edges = new Map<Function, Array<{ name: string; to: Function }>>();
  for (const relation of getMetadataArgsStorage().relations) {
    if (relation.relationType !== 'many-to-one' || relation.options.nullable !== false) continue;
    const from = entities.find((entity) => entity === relation.target);
    const to = relationTarget(relation.type, entities);
    if (from && to) edges.set(from, [...(edges.get(from) ?? []), { name: `${from.name}.${relation.propertyName} → ${to.name}`, to }]);
  }
  const path: Array<{ entity: Function; via?: string }> = [];
  const done = new Set<Function>();
  const visit = (entity: Function): string[] | undefined => {
    for (const edge of edges.get(entity) ?? []) {
      const at = path.findIndex((step) => step.entity === edge.to);
      if (at >= 0) return [...path.slice(at + 1).map((step) => step.via!), edge.name];
      if (done.has(edge.to)) continue;
      path.push({ entity: edge.to, via: edge.name });
      const loop = visit(edge.to);
      if (loop) return loop;
      path.pop();
    }
    done.add(entity);
    return undefined;
  };
  for (const entity of entities) {
    path.splice(0, path.length, { entity });
    const loop = visit(entity);
    if (loop) return loop;
  }
  return undefined;
}

const REGENERATE = 'or regenerate the project from the database: npm run generate -- --from <DATABASE_URL> --name <project> --force';

/**
 * The plain line for entities TypeORM refused while building their metadata, which it does
 * before connecting (see `openDataSource`): what is wrong, naming the entity, relation or
 * column, and the fix. Never a connection message: the database was not asked anything yet.
 */
export function entityFailureMessage(target: DatabaseTarget, entities: Function[], error: unknown): string {
  const head = "The project's entities cannot be used (TypeORM refused them before connecting to the database)";
  const name = (error as { name?: unknown } | null)?.name;
  const message = ((error as { message?: unknown } | null)?.message as string | undefined) ?? String(error);
  if (name === 'CircularRelationsError') {
    const loop = notNullRelationLoop(entities);
    const what = loop
      ? `the relations ${loop.join(', ')} form a loop of NOT NULL (nullable: false) many-to-ones, which TypeORM cannot order its saves by`
      : message;
    return `${head}: ${what}. Fix: give one @ManyToOne of the loop { nullable: true } (its column stays NOT NULL: the option only orders TypeORM's own saves, and npm run generate writes it so), ${REGENERATE}.`;
  }
  if (name === 'DataTypeNotSupportedError') {
    const driver = target.kind === 'sqlite' ? 'better-sqlite3' : target.kind;
    return `${head}: ${message.replace(/\.$/, '')}. Fix: declare the column with a type the ${driver} driver supports (on SQLite e.g. datetime for timestamp, character for char), ${REGENERATE}.`;
  }
  return `${head}: ${message.replace(/\.$/, '')}. Fix: correct the entity it names (src/project/entities/), ${REGENERATE}.`;
}
