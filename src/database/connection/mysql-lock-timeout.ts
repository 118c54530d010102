import { onEveryMysqlConnection, type MysqlPool } from './mysql-pool.js';

interface MysqlConnection {
  query(sql: string, callback: (error: unknown) => void): void;
}

/** InnoDB counts lock waits in whole seconds (at least 1). */
export function innodbLockWaitSeconds(timeoutMs: number): number {
  return Math.max(1, Math.ceil(timeoutMs / 1000));
}

/**
 * Sets InnoDB's lock wait timeout (default 50 s) on every connection of the pool, so a write
 * stuck behind a row lock fails within DB_LOCK_TIMEOUT_MS and is retried or answered 409 / 4093,
 * rather than holding its connection and its client for most of a minute. The statement is
 * queued on each connection as it opens (and on those already open) ahead of any other.
 */
export function limitMysqlLockWait(pool: MysqlPool<MysqlConnection> | undefined, timeoutMs: number): void {
  const statement = `SET SESSION innodb_lock_wait_timeout = ${innodbLockWaitSeconds(timeoutMs)}`;
  onEveryMysqlConnection(pool, (connection) => connection.query(statement, () => undefined));
}
