import type { DataSource } from 'typeorm';

interface MysqlConnection {
  query(sql: string, callback: (error: unknown) => void): void;
  release(): void;
}

interface MysqlPool {
  on(event: 'connection', listener: (connection: MysqlConnection) => void): void;
  getConnection(callback: (error: unknown, connection: MysqlConnection) => void): void;
}

/** InnoDB counts lock waits in whole seconds (at least 1). */
export function innodbLockWaitSeconds(timeoutMs: number): number {
  return Math.max(1, Math.ceil(timeoutMs / 1000));
}

/**
 * Sets InnoDB's lock wait timeout (default 50 s) on every connection of the pool, so a write
 * stuck behind a row lock fails within DB_LOCK_TIMEOUT_MS and is retried or answered 409 / 4093,
 * rather than holding its connection and its client for most of a minute. New connections get
 * it as they open; the ones TypeORM opened while initialising are idle now and get it here.
 */
export async function limitMysqlLockWait(dataSource: DataSource, timeoutMs: number, poolSize: number): Promise<void> {
  const pool = (dataSource.driver as unknown as { pool?: MysqlPool }).pool;
  if (!pool) return;
  const statement = `SET SESSION innodb_lock_wait_timeout = ${innodbLockWaitSeconds(timeoutMs)}`;
  pool.on('connection', (connection) => connection.query(statement, () => undefined));
  const held = await Promise.all(Array.from({ length: poolSize }, () => new Promise<MysqlConnection>((resolve, reject) => {
    pool.getConnection((error, connection) => (error ? reject(error) : resolve(connection)));
  })));
  try {
    await Promise.all(held.map((connection) => new Promise<void>((resolve, reject) => {
      connection.query(statement, (error) => (error ? reject(error) : resolve()));
    })));
  } finally {
    for (const connection of held) connection.release();
  }
}
