import { createRequire } from 'node:module';
import type pg from 'pg';
import type mysqlPromise from 'mysql2/promise';

const requirePackage = createRequire(import.meta.url);

/**
 * The database driver packages Tessera itself calls, loaded when first asked for (as TypeORM
 * loads its own): a service on SQLite loads neither pg nor mysql2, one on PostgreSQL not mysql2,
 * one on MySQL/MariaDB not pg. Each is some 2.5 MB of heap and more of RSS that a service
 * keeps from boot to exit. Node caches the module, so TypeORM and these share one copy.
 */
export function pgPackage(): typeof pg {
  return requirePackage('pg') as typeof pg;
}

/** mysql2's promise API; see `pgPackage`. */
export function mysqlPromisePackage(): typeof mysqlPromise {
  return requirePackage('mysql2/promise') as typeof mysqlPromise;
}
