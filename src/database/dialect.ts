import type { DataSource } from 'typeorm';
import { namesMariaDb, serverVersionOf } from './connection/server-flavour.js';

/** The SQL dialect Tessera writes: MySQL and MariaDB share one. */
export type Dialect = 'sqlite' | 'mysql' | 'postgres';

export function dialectOf(dataSource: DataSource): Dialect {
  const type = dataSource.options.type;
  if (type === 'postgres') return 'postgres';
  if (type === 'mysql' || type === 'mariadb') return 'mysql';
  return 'sqlite';
}

/**
 * Whether `INSERT ... RETURNING` hands back the new row: on SQLite (3.35+), PostgreSQL and
 * MariaDB from 10.5, not on MySQL. On a mysql:// data source the server's version text says
 * which server it is: the one the service read when it connected (`readServerVersion`), else
 * TypeORM's, whose bare digits never name MariaDB, so the insert then reads its row back.
 */
export function insertReturnsRow(dataSource: DataSource): boolean {
  if (dialectOf(dataSource) !== 'mysql') return true;
  const version = serverVersionOf(dataSource) ?? (dataSource.driver as { version?: string }).version ?? '';
  const mariadb = namesMariaDb(version) ? /^(\d+)\.(\d+)/.exec(version) : null;
  return mariadb !== null && Number(mariadb[1]) * 1000 + Number(mariadb[2]) >= 10_005;
}
