import type { DataSource, QueryRunner } from 'typeorm';
import { QueryFailedError } from 'typeorm';
import { sqliteConnectionOf, usesSqlite } from './connection/sqlite-connection.js';

/**
 * What a result column holds, as far as the driver tells (PostgreSQL's type oid, MySQL/MariaDB's column type,
 * SQLite's declared type of a column read straight from a table); undefined when it does not.
 */
export type ResultKind = 'integer' | 'decimal' | 'float' | 'boolean' | 'date' | 'datetime' | 'json' | 'binary' | 'string';

/** One result set: its rows as the driver gave them, and the kind of each column by name. */
export interface ResultSet {
  rows: Array<Record<string, unknown>>;
  kinds: ReadonlyMap<string, ResultKind | undefined>;
}

/** PostgreSQL type oids (pg_type) of the kinds told apart here. */
const PG_KINDS: Record<number, ResultKind> = {
  16: 'boolean', 20: 'integer', 21: 'integer', 23: 'integer', 26: 'integer', 700: 'float', 701: 'float', 1700: 'decimal',
  1082: 'date', 1114: 'datetime', 1184: 'datetime', 114: 'json', 3802: 'json', 17: 'binary',
  25: 'string', 1042: 'string', 1043: 'string', 19: 'string', 2950: 'string',
}; // prettier-ignore

/** MySQL/MariaDB protocol column types (`columnType` of mysql2's fields). */
const MYSQL_KINDS: Record<number, ResultKind> = {
  0: 'decimal', 246: 'decimal', 1: 'integer', 2: 'integer', 3: 'integer', 8: 'integer', 9: 'integer', 13: 'integer',
  4: 'float', 5: 'float', 7: 'datetime', 12: 'datetime', 10: 'date', 245: 'json',
  15: 'string', 253: 'string', 254: 'string', 252: 'string',
}; // prettier-ignore

/** MySQL's character set number of binary strings (BLOB, VARBINARY), which share their column types with text. */
const MYSQL_BINARY_CHARSET = 63;

interface PgField {
  name: string;
  dataTypeID: number;
}
interface PgResult {
  rows?: Array<Record<string, unknown>>;
  fields?: PgField[];
}
interface PgClient {
  query(sql: string, values?: unknown[]): Promise<PgResult | PgResult[]>;
}
interface MysqlField {
  name: string;
  columnType: number;
  characterSet?: number;
}
interface MysqlConnection {
  promise(): { query(sql: string, values?: unknown[]): Promise<[unknown, unknown]> };
}
interface SqliteReader {
  readonly readonly: boolean;
  readonly reader: boolean;
  columns(): Array<{ name: string; type: string | null }>;
  all(...values: unknown[]): unknown[];
}

function sqliteKind(declared: string | null): ResultKind | undefined {
  const type = (declared ?? '').toLowerCase();
  if (type === '') return undefined;
  if (/int/.test(type)) return 'integer';
  if (/decimal|numeric/.test(type)) return 'decimal';
  if (/real|floa|doub/.test(type)) return 'float';
  if (/bool/.test(type)) return 'boolean';
  if (type === 'date') return 'date';
  if (/datetime|timestamp/.test(type)) return 'datetime';
  if (/json/.test(type)) return 'json';
  if (/blob/.test(type)) return 'binary';
  return /char|text|clob|varchar/.test(type) ? 'string' : undefined;
}

function mysqlSet(rows: unknown, fields: unknown): ResultSet | undefined {
  if (!Array.isArray(rows) || !Array.isArray(fields)) return undefined;
  const kinds = new Map<string, ResultKind | undefined>();
  for (const field of fields as MysqlField[]) {
    const kind = MYSQL_KINDS[field.columnType];
    kinds.set(field.name, kind === 'string' && field.characterSet === MYSQL_BINARY_CHARSET ? 'binary' : kind);
  }
  return { rows: rows as ResultSet['rows'], kinds };
}

function pgSet(result: PgResult): ResultSet {
  return {
    rows: result.rows ?? [],
    kinds: new Map((result.fields ?? []).map((f) => [f.name, PG_KINDS[f.dataTypeID]])),
  };
}

/**
 * Runs one statement on a connection of its own and answers every result set it returns, with its columns'
 * kinds. `readOnly`: inside a read-only transaction, always rolled back (PostgreSQL and MySQL/MariaDB refuse
 * any write in it); on SQLite the statement must be one that writes nothing (better-sqlite3 tells), and runs
 * alone. Otherwise (a stored routine, which may write) in a transaction that commits when it succeeds.
 * The session's statement timeout (DB_STATEMENT_TIMEOUT_MS) applies. Errors come out as TypeORM's
 * QueryFailedError, so they map to the error contract as any other statement's.
 */
export async function runForResultSets(dataSource: DataSource, sql: string, values: unknown[], readOnly: boolean): Promise<ResultSet[]> {
  if (usesSqlite(dataSource)) {
    if (!readOnly) throw new Error('SQLite has no stored routines');
    return [sqliteReadOnly(dataSource, sql, values)];
  }
  const runner = dataSource.createQueryRunner();
  try {
    const connection = (await runner.connect()) as unknown;
    const postgres = dataSource.options.type === 'postgres';
    await runner.query(readOnly ? 'START TRANSACTION READ ONLY' : 'START TRANSACTION');
    let sets: ResultSet[];
    try {
      sets = postgres ? await pgSets(connection as PgClient, sql, values) : await mysqlSets(connection as MysqlConnection, sql, values);
      await runner.query(readOnly ? 'ROLLBACK' : 'COMMIT');
    } catch (error) {
      await runner.query('ROLLBACK').catch(() => undefined);
      throw error;
    }
    return sets;
  } finally {
    await release(runner);
  }
}

async function release(runner: QueryRunner): Promise<void> {
  await runner.release().catch(() => undefined);
}

async function pgSets(client: PgClient, sql: string, values: unknown[]): Promise<ResultSet[]> {
  try {
    const result = await client.query(sql, values);
    return (Array.isArray(result) ? result : [result]).map(pgSet);
  } catch (error) {
    throw new QueryFailedError(sql, values, error as Error);
  }
}

async function mysqlSets(connection: MysqlConnection, sql: string, values: unknown[]): Promise<ResultSet[]> {
  let rows: unknown;
  let fields: unknown;
  try {
    [rows, fields] = await connection.promise().query(sql, values);
  } catch (error) {
    throw new QueryFailedError(sql, values, error as Error);
  }
  // A SELECT answers rows and their fields; a CALL one entry per result set, then the call's own status.
  const multiple = Array.isArray(rows) && Array.isArray(fields) && fields.some((f) => Array.isArray(f) || f === undefined);
  if (!multiple) return [mysqlSet(rows, fields) ?? { rows: [], kinds: new Map() }];
  const sets: ResultSet[] = [];
  (rows as unknown[]).forEach((set, i) => {
    const one = mysqlSet(set, (fields as unknown[])[i]);
    if (one) sets.push(one);
  });
  return sets;
}

function sqliteReadOnly(dataSource: DataSource, sql: string, values: unknown[]): ResultSet {
  try {
    const statement = (sqliteConnectionOf(dataSource) as unknown as { prepare(sql: string): SqliteReader }).prepare(sql);
    if (!statement.readonly || !statement.reader) throw new Error('not a read-only statement that returns rows');
    const bound = values.map((v) => (typeof v === 'boolean' ? Number(v) : v));
    const kinds = new Map(statement.columns().map((c) => [c.name, sqliteKind(c.type)]));
    return { rows: statement.all(...bound) as ResultSet['rows'], kinds };
  } catch (error) {
    throw new QueryFailedError(sql, values, error as Error);
  }
}
