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
 * TypeORM, READ COMMITTED. SQLite: BEGIN on its one connection, each statement run
 * directly (see `runOnSqlite`); the caller holds the DatabaseGate's write side.
 */
export async function beginWriteSession(dataSource: DataSource): Promise<WriteSession> {
  return usesSqlite(dataSource) ? sqliteSession(sqliteConnectionOf(dataSource)) : typeormSession(dataSource.createQueryRunner());
}

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

async function typeormSession(runner: QueryRunner): Promise<WriteSession> {
  let released = false;
  const release = async () => {
    if (released) return;
    released = true;
    await runner.release();
  };
  try {
    await runner.connect();
    await runner.startTransaction('READ COMMITTED');
  } catch (error) {
    await release();
    throw error;
  }
  return {
    query: (sql, values, structured) => (structured ? runner.query(sql, values, true) : runner.query(sql, values)),
    commit: async () => {
      await runner.commitTransaction();
      await release();
    },
    abandon: async () => {
      if (runner.isTransactionActive) await runner.rollbackTransaction().catch(() => undefined);
      await release().catch(() => undefined);
    },
  };
}
