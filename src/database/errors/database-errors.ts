import { ApiError } from '../../common/api-error.js';
import { ErrorCode } from '../../common/error-codes.js';
import { describeViolation, type ConstraintViolation } from './constraint-violations.js';
import { isValueRefused } from './value-refusals.js';

const CONNECTION_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'ENOTFOUND',
  'EHOSTUNREACH',
  'PROTOCOL_CONNECTION_LOST',
  'PROTOCOL_SEQUENCE_TIMEOUT',
  'ER_CON_COUNT_ERROR',
  'POOL_CLOSED',
  // PostgreSQL: admin shutdown, crash shutdown, cannot connect now, too many connections
  '57P01',
  '57P02',
  '57P03',
  '53300',
  '08000',
  '08003',
  '08006',
  '08001',
  '08004',
]);

const CONNECTION_MESSAGES = [
  /connection terminated/i,
  /timeout exceeded when trying to connect/i,
  /pool is closed/i,
  /connection is not open/i,
  /can't add new command when connection is in closed state/i,
  /client has encountered a connection error/i,
  /Connection lost/i,
  /is not currently accepting connections/i,
  /the database system is (starting up|shutting down|in recovery mode)/i,
  // MariaDB Galera (1047): this node is not in the primary component (cut off, still joining)
  // and refuses every statement before running it; another node may serve.
  /WSREP has not yet prepared node for application use/i,
];

/** A driver's message, whatever it is (drivers put strings there; anything else is not read). */
function textOf(message: unknown): string {
  return typeof message === 'string' ? message : '';
}

function codesOf(error: unknown): { code?: string; errno?: number; message: string } {
  const e = error as { code?: unknown; errno?: unknown; message?: unknown; driverError?: unknown } | null | undefined;
  const inner = (e?.driverError ?? e) as { code?: unknown; errno?: unknown; message?: unknown } | null;
  return {
    code: typeof inner?.code === 'string' ? inner.code : typeof e?.code === 'string' ? e.code : undefined,
    errno: typeof inner?.errno === 'number' ? inner.errno : undefined,
    message: textOf(inner?.message ?? e?.message),
  };
}

/**
 * TypeORM's errors for a query runner whose connection is gone: the PostgreSQL runner releases
 * itself when its connection reports an error (a terminated backend, a server going down), and
 * the next statement of the transaction then fails with this rather than a driver error.
 */
const CONNECTION_GONE_ERRORS = new Set(['QueryRunnerAlreadyReleasedError', 'ConnectionIsNotSetError']);

/** True when the error means the database cannot be reached right now. */
export function isDatabaseUnavailable(error: unknown): boolean {
  if (CONNECTION_GONE_ERRORS.has((error as { name?: unknown } | null | undefined)?.name as string)) return true;
  const { code, message } = codesOf(error);
  if (code && CONNECTION_CODES.has(code)) return true;
  return CONNECTION_MESSAGES.some((re) => re.test(message));
}

/**
 * Conflicts with concurrent transactions that a new attempt of the whole transaction may get
 * through: deadlocks (MySQL/MariaDB 1213, also how Galera reports a certification failure at
 * COMMIT; PostgreSQL 40P01), serialization failures (40001), lock waits that timed out (MySQL
 * 1205, PostgreSQL 55P03 from lock_timeout), and SQLite's lock held by another connection or
 * process past the busy timeout. The statement that failed changed nothing that survives: the
 * caller rolls the transaction back before it tries again.
 */
const CONFLICT_CODES = new Set([
  'ER_LOCK_DEADLOCK',
  'ER_LOCK_WAIT_TIMEOUT',
  '40P01',
  '40001',
  '55P03',
  'SQLITE_BUSY',
  'SQLITE_BUSY_SNAPSHOT',
  'SQLITE_LOCKED',
]);
const CONFLICT_ERRNOS = new Set([1213, 1205]);

export function isRetryableConflict(error: unknown): boolean {
  const { code, errno } = codesOf(error);
  return (code !== undefined && CONFLICT_CODES.has(code)) || (errno !== undefined && CONFLICT_ERRNOS.has(errno));
}

/** A conflict's driver code and number, for a log line (never its message, which may quote values). */
export function conflictCodes(error: unknown): { code?: string; errno?: number } {
  const { code, errno } = codesOf(error);
  return { code, errno };
}

/** What a client hears when retries within the budget did not get a transaction through. */
export function concurrentConflict(): ApiError {
  return new ApiError(ErrorCode.CONCURRENT_CONFLICT, 'The change conflicted with a concurrent transaction; retry it.', {
    'Retry-After': '1',
  });
}

/** Which constraint a refused write broke, in metadata's names (see `ConstraintCatalog`), or undefined. */
export type ViolationFinder = (error: unknown) => ConstraintViolation | undefined;

/** `…: unique: product.name.`: the kind and the columns when they are known, never SQL or a constraint name. */
function refusalMessage(generic: string, violation: ConstraintViolation | undefined): string {
  return violation ? `${generic.replace(/\.$/, '')}: ${describeViolation(violation)}.` : generic;
}

/**
 * Maps a database error to the error contract, or returns undefined when it is not a
 * database condition the client should hear about (the caller then answers 500).
 * Never copies driver text into the message: a refused constraint is named through
 * `findViolation` (entity metadata), kind and columns only.
 */
export function apiErrorFromDatabase(error: unknown, findViolation?: ViolationFinder): ApiError | undefined {
  if (isDatabaseUnavailable(error)) {
    return new ApiError(ErrorCode.DATABASE_UNAVAILABLE, 'The database is unavailable; try again shortly.');
  }
  const { code, errno } = codesOf(error);
  // duplicate key: MySQL 1062, PostgreSQL 23505, SQLite constraint unique / primary key
  if (
    code === 'ER_DUP_ENTRY' ||
    errno === 1062 ||
    code === '23505' ||
    code === 'SQLITE_CONSTRAINT_UNIQUE' ||
    code === 'SQLITE_CONSTRAINT_PRIMARYKEY'
  ) {
    return new ApiError(ErrorCode.DUPLICATE_KEY, refusalMessage('An object with this key already exists.', findViolation?.(error)));
  }
  // foreign key, not null, check
  if (
    code === 'ER_NO_REFERENCED_ROW_2' ||
    code === 'ER_ROW_IS_REFERENCED_2' ||
    code === 'ER_BAD_NULL_ERROR' ||
    code === 'ER_CHECK_CONSTRAINT_VIOLATED' ||
    errno === 4025 ||
    code === '23503' ||
    code === '23502' ||
    code === '23514' ||
    code === 'SQLITE_CONSTRAINT_FOREIGNKEY' ||
    code === 'SQLITE_CONSTRAINT_NOTNULL' ||
    code === 'SQLITE_CONSTRAINT_CHECK'
  ) {
    const violation = findViolation?.(error);
    return new ApiError(
      ErrorCode.DATABASE_CONSTRAINT,
      violation
        ? `The change violates a database constraint: ${describeViolation(violation)}.`
        : 'The change violates a database constraint (foreign key, not null or check).',
    );
  }
  // a value its column cannot hold, past Tessera's own checks (see value-refusals.ts)
  if (isValueRefused(code, errno)) {
    return new ApiError(ErrorCode.BAD_REQUEST, 'A value does not fit its column in the database.');
  }
  // A conflict nobody retried (the write engine retries its own): the client may.
  if (isRetryableConflict(error)) return concurrentConflict();
  return undefined;
}
