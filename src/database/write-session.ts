import type { DataSource, QueryRunner } from 'typeorm';
import { runOnSqlite, sqliteConnectionOf, usesSqlite, type SqliteConnection } from './connection/sqlite-connection.js';

/** One open write transaction: statements on one connection, then `commit` or `abandon`. */
export interface WriteSession {
  query(sql: string, values?: unknown[], structuredResult?: boolean): Promise<unknown>;
  /** Commits and gives the connection back; on failure the transaction is still open: `abandon` it. */
  commit(): Promise<void>;
  /** Rolls back what is still open and gives the connection back; never throws. */
  abandon(): Promise<void>;
}

/**
 * Begins a write transaction. MySQL/MariaDB and PostgreSQL: a pooled connection through
 * TypeORM's query runner, READ COMMITTED (see `BEGIN_READ_COMMITTED`). SQLite: BEGIN on its one
 * connection, each statement run directly (see `runOnSqlite`); the caller holds the
 * DatabaseGate's write side.
 */
export async function beginWriteSession(dataSource: DataSource): Promise<WriteSession> {
  if (usesSqlite(dataSource)) return sqliteSession(sqliteConnectionOf(dataSource));
  return pooledSession(dataSource.createQueryRunner(), BEGIN_READ_COMMITTED[dataSource.options.type === 'postgres' ? 'postgres' : 'mysql']);
}

/**
 * The statements that open a READ COMMITTED transaction, each a round trip to the server:
 * PostgreSQL names the level in its START TRANSACTION; MySQL and MariaDB set the next
 * transaction's level first. (TypeORM's `startTransaction` sends two on PostgreSQL too.)
 */
export const BEGIN_READ_COMMITTED = {
  postgres: ['START TRANSACTION ISOLATION LEVEL READ COMMITTED'],
  mysql: ['SET TRANSACTION ISOLATION LEVEL READ COMMITTED', 'START TRANSACTION'],
} as const;

function sqliteSession(connection: SqliteConnection): WriteSession {
  runOnSqlite(connection, 'BEGIN TRANSACTION');
  return {
    query: async (sql, values, structured) => runOnSqlite(connection, sql, values, structured),
    commit: async () => void runOnSqlite(connection, 'COMMIT'),
    abandon: async () => {
      if (!connection.inTransaction) return;
      try {
        runOnSqlite(connection, 'ROLLBACK');
      } catch {
        // SQLite has already rolled back whatever it could not keep.
      }
    },
  };
}

/**
 * A transaction on one pooled connection, opened, committed and rolled back with statements of
 * its own rather than the runner's transaction methods (which cost an extra round trip to open
 * on PostgreSQL). `open` is whether a ROLLBACK may still be owed: from a successful begin until
 * a COMMIT succeeds or the rollback is tried, so a COMMIT that failed (the connection dropped
 * halfway, say) is still rolled back by `abandon`.
 */
async function pooledSession(runner: QueryRunner, begin: readonly string[]): Promise<WriteSession> {
  let released = false;
  let open = false;
  const release = async () => {
    if (released) return;
    released = true;
    await runner.release();
  };
  try {
    await runner.connect();
    for (const statement of begin) await runner.query(statement);
    open = true;
  } catch (error) {
    await release();
    throw error;
  }
  return {
    query: (sql, values, structured) => (structured ? runner.query(sql, values, true) : runner.query(sql, values)),
    commit: async () => {
      await runner.query('COMMIT');
      open = false;
      await release();
    },
    abandon: async () => {
      if (open) {
        open = false;
        await runner.query('ROLLBACK').catch(() => undefined);
      }
      await release().catch(() => undefined);
    },
  };
}
