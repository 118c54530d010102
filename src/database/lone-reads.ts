import type { DataSource } from 'typeorm';
import { runOnSqlite, sqliteConnectionOf, usesSqlite } from './connection/sqlite-connection.js';

/** Runs one SELECT outside any transaction and answers its rows. */
export type LoneRead = (sql: string, values?: unknown[]) => Promise<Array<Record<string, unknown>>>;

/**
 * Lone reads: the key read, list pages and the token lookup, which callers run through the
 * DatabaseGate's read side. MySQL/MariaDB and PostgreSQL take a pooled connection through
 * TypeORM; SQLite runs the statement directly on its one connection (see `runOnSqlite`).
 */
export function loneReads(dataSource: DataSource): LoneRead {
  if (!usesSqlite(dataSource)) {
    return (sql, values) => dataSource.query<Array<Record<string, unknown>>>(sql, values);
  }
  // The connection is looked up per statement: it is opened when the data source initialises.
  return async (sql, values) => runOnSqlite(sqliteConnectionOf(dataSource), sql, values) as Array<Record<string, unknown>>;
}
