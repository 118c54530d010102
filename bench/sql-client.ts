import Database from 'better-sqlite3';
import mysql from 'mysql2/promise';
import pg from 'pg';
import type { Row } from './dataset.js';

export type DatabaseKind = 'sqlite' | 'mysql' | 'postgres';

/**
 * The harness's own connection to a benchmark database, straight through the driver (no
 * TypeORM), for creating, seeding and checking data fast. SQL is written with `?`
 * placeholders; PostgreSQL gets them renumbered.
 */
export interface SqlClient {
  kind: DatabaseKind;
  query<T = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<T[]>;
  /** Multi-row INSERTs of `batch` rows each, all in one transaction. */
  insertRows(table: string, columns: string[], rows: Iterable<Row>, batch?: number): Promise<number>;
  close(): Promise<void>;
}

function numbered(sql: string): string {
  let n = 0;
  return sql.replace(/\?/g, () => `$${++n}`);
}

/** Booleans as each driver wants them bound (SQLite has no boolean type). */
function bindable(kind: DatabaseKind, value: unknown): unknown {
  if (typeof value === 'boolean' && kind === 'sqlite') return value ? 1 : 0;
  return value;
}

function* chunks(rows: Iterable<Row>, size: number): Iterable<Row[]> {
  let chunk: Row[] = [];
  for (const row of rows) {
    chunk.push(row);
    if (chunk.length === size) {
      yield chunk;
      chunk = [];
    }
  }
  if (chunk.length > 0) yield chunk;
}

function insertSql(table: string, columns: string[], count: number): string {
  const tuple = `(${columns.map(() => '?').join(', ')})`;
  return `INSERT INTO ${table} (${columns.join(', ')}) VALUES ${Array.from({ length: count }, () => tuple).join(', ')}`;
}

function sqliteClient(path: string): SqlClient {
  const db = new Database(path);
  db.pragma('journal_mode = WAL');
  db.pragma('foreign_keys = ON');
  const statements = new Map<string, Database.Statement>();
  const prepared = (sql: string): Database.Statement => {
    let statement = statements.get(sql);
    if (!statement) statements.set(sql, (statement = db.prepare(sql)));
    return statement;
  };
  return {
    kind: 'sqlite',
    async query<T>(sql: string, params: unknown[] = []): Promise<T[]> {
      const statement = prepared(sql);
      const values = params.map((v) => bindable('sqlite', v));
      if (statement.reader) return statement.all(...values) as T[];
      statement.run(...values);
      return [];
    },
    async insertRows(table, columns, rows, batch = 500): Promise<number> {
      let count = 0;
      db.transaction(() => {
        for (const chunk of chunks(rows, batch)) {
          prepared(insertSql(table, columns, chunk.length)).run(...chunk.flat().map((v) => bindable('sqlite', v)));
          count += chunk.length;
        }
      })();
      return count;
    },
    async close() {
      db.close();
    },
  };
}

async function mysqlClient(url: string): Promise<SqlClient> {
  const connection = await mysql.createConnection({ uri: url, supportBigNumbers: true, bigNumberStrings: true, timezone: 'Z' });
  return {
    kind: 'mysql',
    async query<T>(sql: string, params: unknown[] = []): Promise<T[]> {
      const [rows] = await connection.query(sql, params);
      return (Array.isArray(rows) ? rows : []) as T[];
    },
    async insertRows(table, columns, rows, batch = 2000): Promise<number> {
      let count = 0;
      await connection.beginTransaction();
      try {
        for (const chunk of chunks(rows, batch)) {
          await connection.query(insertSql(table, columns, chunk.length), chunk.flat());
          count += chunk.length;
        }
        await connection.commit();
      } catch (error) {
        await connection.rollback();
        throw error;
      }
      return count;
    },
    async close() {
      await connection.end();
    },
  };
}

async function postgresClient(url: string): Promise<SqlClient> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  return {
    kind: 'postgres',
    async query<T>(sql: string, params: unknown[] = []): Promise<T[]> {
      const result = await client.query(numbered(sql), params);
      return result.rows as T[];
    },
    async insertRows(table, columns, rows, batch): Promise<number> {
      // PostgreSQL binds at most 65,535 parameters per statement.
      const size = batch ?? Math.floor(30_000 / columns.length);
      let count = 0;
      await client.query('BEGIN');
      try {
        for (const chunk of chunks(rows, size)) {
          await client.query(numbered(insertSql(table, columns, chunk.length)), chunk.flat());
          count += chunk.length;
        }
        await client.query('COMMIT');
      } catch (error) {
        await client.query('ROLLBACK');
        throw error;
      }
      return count;
    },
    async close() {
      await client.end();
    },
  };
}

/** Opens the harness's connection from a Tessera DATABASE_URL. */
export async function openClient(databaseUrl: string): Promise<SqlClient> {
  if (databaseUrl.startsWith('sqlite:')) return sqliteClient(databaseUrl.slice('sqlite:'.length));
  if (/^(mysql|mariadb):/.test(databaseUrl)) return mysqlClient(databaseUrl.replace(/^mariadb:/, 'mysql:'));
  if (/^postgres(ql)?:/.test(databaseUrl)) return postgresClient(databaseUrl);
  throw new Error(`Unsupported database URL: ${databaseUrl}`);
}

export function kindOf(databaseUrl: string): DatabaseKind {
  if (databaseUrl.startsWith('sqlite:')) return 'sqlite';
  if (/^(mysql|mariadb):/.test(databaseUrl)) return 'mysql';
  return 'postgres';
}
