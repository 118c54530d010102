import type { DataSource } from 'typeorm';

/** Connections of the pool handed out, and callers waiting for one. */
export interface PoolUsage {
  inUse: number;
  waiting: number;
}

interface Countable {
  length?: number;
  size?: () => number;
}

/** mysql2's pool keeps Denques (not public API, so read defensively). */
interface MysqlPoolInternals {
  _allConnections?: Countable;
  _freeConnections?: Countable;
  _connectionQueue?: Countable;
}

/** pg's pool counts what it has (public API). */
interface PgPoolCounts {
  totalCount?: number;
  idleCount?: number;
  waitingCount?: number;
}

function sizeOf(list: Countable | undefined): number {
  if (!list) return 0;
  return typeof list.size === 'function' ? list.size() : (list.length ?? 0);
}

/**
 * The pool's usage for MySQL/MariaDB and PostgreSQL, read when asked (a scrape), never on a
 * request; undefined for SQLite, which has no pool (see `DatabaseGate.usage`).
 */
export function poolUsageOf(dataSource: DataSource): PoolUsage | undefined {
  const driver = dataSource.driver as unknown as { pool?: MysqlPoolInternals; master?: PgPoolCounts };
  const type = dataSource.options.type;
  if ((type === 'mysql' || type === 'mariadb') && driver.pool) {
    const pool = driver.pool;
    return { inUse: sizeOf(pool._allConnections) - sizeOf(pool._freeConnections), waiting: sizeOf(pool._connectionQueue) };
  }
  if (type === 'postgres' && driver.master) {
    const pool = driver.master;
    return { inUse: (pool.totalCount ?? 0) - (pool.idleCount ?? 0), waiting: pool.waitingCount ?? 0 };
  }
  return undefined;
}
