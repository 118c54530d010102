import type { Logger } from 'pino';
import type { DataSource, QueryRunner } from 'typeorm';
import { dialectOf } from '../dialect.js';
import { galeraBootLease, isGaleraNode } from './galera-boot-lease.js';
import { prepareSqliteFile } from '../connection/sqlite-file.js';

/**
 * PostgreSQL's advisory lock key for the boot ("tessera" read as a number). Advisory locks
 * belong to one database, so installations on other databases of the server never wait on it.
 */
export const POSTGRES_BOOT_KEY = '8243122651018594';

/** MySQL/MariaDB's lock name, an SQL expression: GET_LOCK names are server-wide, so the database's name is part of it (hashed: names have at most 64 characters). */
export const MYSQL_BOOT_LOCK_NAME = "SHA1(CONCAT('tessera_boot ', DATABASE()))";

/** How often a waiting instance asks again (a boot step takes from milliseconds to minutes). */
const POLL_MS = 200;

/** One hold of the boot lock: a session of its own, released by `release` or by the process's death. */
interface LockSession {
  /** Takes the lock if it is free, without waiting. */
  tryLock(): Promise<boolean>;
  /** Gives the lock up and closes the session. */
  close(): Promise<void>;
}

/**
 * MySQL/MariaDB's GET_LOCK and PostgreSQL's session advisory lock, on a connection checked out
 * of the pool for the whole step (TypeORM's migrations and the seed's transactions use other
 * connections of the pool). Both are session locks: a process that dies mid-boot loses its
 * connection, and its lock with it. A Galera node: a lease row instead (see `galeraBootLease`).
 */
async function serverLockSession(dataSource: DataSource): Promise<LockSession> {
  const runner: QueryRunner = dataSource.createQueryRunner();
  await runner.connect();
  const postgres = dialectOf(dataSource) === 'postgres';
  if (!postgres) {
    try {
      if (await isGaleraNode(runner)) {
        const lease = await galeraBootLease(runner);
        return { tryLock: () => lease.tryLock(), close: () => lease.close().finally(() => runner.release()) };
      }
    } catch (error) {
      await runner.release();
      throw error;
    }
  }
  const name = MYSQL_BOOT_LOCK_NAME;
  let held = false;
  return {
    tryLock: async () => {
      const rows = (await runner.query(
        postgres ? 'SELECT pg_try_advisory_lock($1::bigint) AS got' : `SELECT GET_LOCK(${name}, 0) AS got`,
        postgres ? [POSTGRES_BOOT_KEY] : [],
      )) as Array<{ got: unknown }>;
      const got = rows[0]?.got;
      held = got === true || got === 1 || got === '1';
      return held;
    },
    close: async () => {
      try {
        if (held)
          await runner.query(
            postgres ? 'SELECT pg_advisory_unlock($1::bigint)' : `SELECT RELEASE_LOCK(${name})`,
            postgres ? [POSTGRES_BOOT_KEY] : [],
          );
      } finally {
        await runner.release();
      }
    },
  };
}

/** The parts of better-sqlite3 used here: a handle of its own on the lock file. */
interface SqliteLockHandle {
  exec(sql: string): unknown;
  close(): unknown;
}
type SqliteOpener = new (path: string, options: { timeout: number }) => SqliteLockHandle;

/**
 * SQLite: an exclusive transaction on a file of its own beside the database (`<file>.boot-lock`),
 * not on the database itself, whose write lock would also stop this process's own migrations.
 * SQLite's file locks are released by the operating system when a process dies. No waiting
 * inside SQLite (its busy wait would block this process's event loop): the caller polls.
 */
function sqliteLockSession(dataSource: DataSource, path: string): LockSession {
  const lockPath = `${path}.boot-lock`;
  prepareSqliteFile(lockPath);
  // The better-sqlite3 module TypeORM loaded for the data source.
  const Sqlite = (dataSource.driver as unknown as { sqlite: SqliteOpener }).sqlite;
  const handle = new Sqlite(lockPath, { timeout: 0 });
  let held = false;
  return {
    tryLock: async () => {
      try {
        handle.exec('BEGIN EXCLUSIVE');
        held = true;
        return true;
      } catch (error) {
        if ((error as { code?: string }).code === 'SQLITE_BUSY') return false;
        throw error;
      }
    },
    close: async () => {
      if (held) handle.exec('ROLLBACK');
      handle.close();
    },
  };
}

function sqlitePathOf(dataSource: DataSource): string | undefined {
  const path = dataSource.options.database;
  return typeof path === 'string' && path !== '' && path !== ':memory:' ? path : undefined;
}

const pause = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Runs one boot step (migrations, a seed, the first admin account) while holding the
 * database's boot lock, so that of several instances booting at once on one database only
 * one runs it at a time, and the others, once they hold the lock, find it done. The lock is
 * released when `work` settles. Logs when this instance had to wait for another's.
 */
export async function underBootLock<T>(dataSource: DataSource, step: string, work: () => Promise<T>, logger?: Logger): Promise<T> {
  const sqlitePath = sqlitePathOf(dataSource);
  if (dialectOf(dataSource) === 'sqlite' && sqlitePath === undefined) return work();
  const session = sqlitePath === undefined ? await serverLockSession(dataSource) : sqliteLockSession(dataSource, sqlitePath);
  try {
    const started = Date.now();
    let waited = false;
    while (!(await session.tryLock())) {
      if (!waited) logger?.info({ step }, 'waiting for another instance booting on the same database');
      waited = true;
      await pause(POLL_MS);
    }
    if (waited) logger?.info({ step, waitedMs: Date.now() - started }, 'another instance finished its boot step; going on');
    return await work();
  } finally {
    await session.close();
  }
}
