import { ApiError } from '../common/api-error.js';
import { ErrorCode } from '../common/error-codes.js';
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
  'SQLITE_BUSY',
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
];

function codesOf(error: unknown): { code?: string; errno?: number; message: string } {
  const e = error as { code?: unknown; errno?: unknown; message?: unknown; driverError?: unknown };
  const inner = (e?.driverError ?? e) as { code?: unknown; errno?: unknown; message?: unknown };
  return {
    code: typeof inner?.code === 'string' ? inner.code : typeof e?.code === 'string' ? e.code : undefined,
    errno: typeof inner?.errno === 'number' ? inner.errno : undefined,
    message: String(inner?.message ?? e?.message ?? ''),
  };
}

/** True when the error means the database cannot be reached right now. */
export function isDatabaseUnavailable(error: unknown): boolean {
  const { code, message } = codesOf(error);
  if (code && CONNECTION_CODES.has(code)) return true;
  return CONNECTION_MESSAGES.some((re) => re.test(message));
}

/**
 * Maps a database error to the error contract, or returns undefined when it is not a
 * database condition the client should hear about (the caller then answers 500).
 * Never copies driver text into the message.
 */
export function apiErrorFromDatabase(error: unknown): ApiError | undefined {
  if (isDatabaseUnavailable(error)) {
    return new ApiError(ErrorCode.DATABASE_UNAVAILABLE, 'The database is unavailable; try again shortly.');
  }
  const { code, errno } = codesOf(error);
  // duplicate key: MySQL 1062, PostgreSQL 23505, SQLite constraint unique / primary key
  if (code === 'ER_DUP_ENTRY' || errno === 1062 || code === '23505'
    || code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY') {
    return new ApiError(ErrorCode.DUPLICATE_KEY, 'An object with this key already exists.');
  }
  // foreign key, not null, check
  if (code === 'ER_NO_REFERENCED_ROW_2' || code === 'ER_ROW_IS_REFERENCED_2' || code === 'ER_BAD_NULL_ERROR'
    || code === 'ER_CHECK_CONSTRAINT_VIOLATED' || errno === 4025
    || code === '23503' || code === '23502' || code === '23514'
    || code === 'SQLITE_CONSTRAINT_FOREIGNKEY' || code === 'SQLITE_CONSTRAINT_NOTNULL'
    || code === 'SQLITE_CONSTRAINT_CHECK') {
    return new ApiError(ErrorCode.DATABASE_CONSTRAINT, 'The change violates a database constraint (foreign key, not null or check).');
  }
  // a value its column cannot hold, past Tessera's own checks (see value-refusals.ts)
  if (isValueRefused(code, errno)) {
    return new ApiError(ErrorCode.BAD_REQUEST, 'A value does not fit its column in the database.');
  }
  // deadlock and lock wait timeout: the caller may retry
  if (code === 'ER_LOCK_DEADLOCK' || code === 'ER_LOCK_WAIT_TIMEOUT' || code === '40P01' || code === '40001'
    || code === '55P03') {
    return new ApiError(ErrorCode.CHECKSUM_MISMATCH, 'The object is being changed by another transaction; reload it and try again.');
  }
  return undefined;
}
