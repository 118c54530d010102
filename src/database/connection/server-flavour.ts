import type { DataSource } from 'typeorm';
import type { DatabaseTarget } from '../../config/database-url.js';
import { mysqlPromisePackage } from './driver-packages.js';

const VERSION_SQL = 'SELECT VERSION() AS version';

/** Whether a mysql:// server's version text (`10.11.19-MariaDB-0+deb12u1`) is MariaDB's. */
export function namesMariaDb(version: string): boolean {
  return /MariaDB/i.test(version);
}

/**
 * The database settings with a mysql:// URL that points at a MariaDB server marked `mariadb`
 * (the migration CLI's and the schema reader's; the service itself runs either way).
 *
 * TypeORM reads a MariaDB schema right only when told it is MariaDB: as `mysql` it takes the
 * `NULL` MariaDB reports as the default of every nullable column for a default to drop, so
 * `migration:generate` would write a change for each of them. If the server cannot be asked,
 * the settings stay as they are (connecting then reports why, as usual).
 */
export async function asTheServerIs<T extends DatabaseTarget>(database: T, connectTimeoutMs = 10_000): Promise<T> {
  if (database.kind !== 'mysql') return database;
  let version: string;
  try {
    const connection = await mysqlPromisePackage().createConnection({ uri: database.url, connectTimeout: connectTimeoutMs });
    try {
      const [rows] = await connection.query(VERSION_SQL);
      version = (rows as Array<{ version?: string }>)[0]?.version ?? '';
    } finally {
      await connection.end();
    }
  } catch {
    return database;
  }
  return namesMariaDb(version) ? { ...database, kind: 'mariadb' } : database;
}

const serverVersions = new WeakMap<DataSource, string>();

/**
 * Reads the server's version as the server words it (`10.11.19-MariaDB-0+deb12u1`) and keeps it
 * with the data source (see `serverVersionOf`). TypeORM keeps only its leading digits, which
 * cannot tell MariaDB from MySQL. MySQL and MariaDB only; run once, when the service connects.
 */
export async function readServerVersion(dataSource: DataSource): Promise<void> {
  const rows = await dataSource.query<Array<{ version?: string }>>(VERSION_SQL);
  serverVersions.set(dataSource, rows[0]?.version ?? '');
}

/** The version `readServerVersion` read for this data source; undefined when it did not run. */
export function serverVersionOf(dataSource: DataSource): string | undefined {
  return serverVersions.get(dataSource);
}
