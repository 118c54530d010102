import { QueryFailedError, type DataSource } from 'typeorm';

/** Runs one SELECT outside any transaction and answers its rows. */
export type LoneRead = (sql: string, values?: unknown[]) => Promise<Array<Record<string, unknown>>>;

/** The part of a better-sqlite3 connection used here. */
interface SqliteConnection {
  prepare(sql: string): { all(...values: unknown[]): unknown[] };
}

type Statement = ReturnType<SqliteConnection['prepare']>;

/** Prepared statements kept per SQLite connection: the key read, list pages and token lookups are a handful of texts. */
const STATEMENTS_KEPT = 200;
const statementsOf = new WeakMap<SqliteConnection, Map<string, Statement>>();

function preparedOn(connection: SqliteConnection, sql: string): Statement {
  let statements = statementsOf.get(connection);
  if (!statements) statementsOf.set(connection, (statements = new Map()));
  let statement = statements.get(sql);
  if (!statement) {
    statement = connection.prepare(sql);
    statements.set(sql, statement);
    if (statements.size > STATEMENTS_KEPT) statements.delete(statements.keys().next().value!);
  }
  return statement;
}

/**
 * Lone reads: the key read, list pages and the token lookup, which callers run through the
 * DatabaseGate's read side. MySQL/MariaDB and PostgreSQL take a pooled connection through
 * TypeORM. On SQLite a prepared statement per SQL text runs directly on the one connection:
 * TypeORM's query path around it (a logger call, two subscriber broadcasts, three awaits and a
 * result object per statement) cost about as much as the statement itself. Errors come out
 * as TypeORM's QueryFailedError either way, so they map to the error contract alike.
 */
export function loneReads(dataSource: DataSource): LoneRead {
  if (dataSource.options.type !== 'better-sqlite3') {
    return async (sql, values) => (await dataSource.query(sql, values)) as Array<Record<string, unknown>>;
  }
  return async (sql, values = []) => {
    try {
      const connection = (dataSource.driver as unknown as { databaseConnection: SqliteConnection }).databaseConnection;
      // better-sqlite3 binds no booleans; TypeORM's runner turns them into 0/1 too.
      return preparedOn(connection, sql).all(...values.map((v) => (typeof v === 'boolean' ? Number(v) : v))) as Array<Record<string, unknown>>;
    } catch (error) {
      throw new QueryFailedError(sql, values, error as Error);
    }
  };
}
