import { QueryFailedError, type DataSource } from 'typeorm';

/** The parts of better-sqlite3's Statement used here. */
interface SqliteStatement {
  readonly reader: boolean;
  all(...values: unknown[]): unknown[];
  run(...values: unknown[]): { changes: number; lastInsertRowid: number | bigint };
}

/** The parts of better-sqlite3's Database used here. */
export interface SqliteConnection {
  prepare(sql: string): SqliteStatement;
  readonly inTransaction: boolean;
}

/** Whether the data source is the embedded SQLite database (one connection, the DatabaseGate, `runOnSqlite`). */
export function usesSqlite(dataSource: DataSource): boolean {
  return dataSource.options.type === 'better-sqlite3';
}

/** The one connection behind a SQLite data source, once it is initialised. */
export function sqliteConnectionOf(dataSource: DataSource): SqliteConnection {
  const connection = (dataSource.driver as unknown as { databaseConnection?: SqliteConnection }).databaseConnection;
  if (!usesSqlite(dataSource) || !connection) throw new Error('not an initialised SQLite data source');
  return connection;
}

/** Prepared statements kept per connection: Tessera runs a few dozen texts, over and over. */
const STATEMENTS_KEPT = 200;
const statementsOf = new WeakMap<SqliteConnection, Map<string, SqliteStatement>>();

function preparedOn(connection: SqliteConnection, sql: string): SqliteStatement {
  let statements = statementsOf.get(connection);
  if (!statements) statementsOf.set(connection, (statements = new Map<string, SqliteStatement>()));
  let statement = statements.get(sql);
  if (!statement) {
    statement = connection.prepare(sql);
    statements.set(sql, statement);
    if (statements.size > STATEMENTS_KEPT) statements.delete(statements.keys().next().value!);
  }
  return statement;
}

/**
 * Runs one statement on a SQLite connection, prepared once per SQL text, and answers as
 * TypeORM's query runner does: rows for a SELECT (or a statement with RETURNING), the last
 * insert rowid for any other; with `structured`, `{ records, raw, affected }`. Errors come
 * out as TypeORM's QueryFailedError, so they map to the error contract alike.
 *
 * Tessera's own statements take this path rather than TypeORM's runner, whose work around
 * each statement (a logger call, subscriber broadcasts, three awaits, a result object) cost
 * as much as a key read's statement itself. Callers hold the DatabaseGate, as for any
 * statement on SQLite.
 */
export function runOnSqlite(connection: SqliteConnection, sql: string, values: readonly unknown[] = [], structured = false): unknown {
  try {
    const statement = preparedOn(connection, sql);
    // better-sqlite3 binds no booleans; TypeORM's runner turns them into 0/1 too.
    const bound = values.map((v) => (typeof v === 'boolean' ? Number(v) : v));
    if (statement.reader) {
      const rows = statement.all(...bound);
      return structured ? { records: rows, raw: rows, affected: undefined } : rows;
    }
    const result = statement.run(...bound);
    return structured ? { records: [], raw: result.lastInsertRowid, affected: result.changes } : result.lastInsertRowid;
  } catch (error) {
    throw new QueryFailedError(sql, [...values], error as Error);
  }
}
