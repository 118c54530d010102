import type { QueryRunner } from 'typeorm';
import { describeEachTarget, suiteApp, type TestApp } from './support/test-app.js';

/** The statement time limit a connection's session enforces, in milliseconds (0: none). */
async function statementLimitMs(runner: QueryRunner, database: 'mysql' | 'postgres'): Promise<number> {
  if (database === 'postgres')
    return Number((await runner.query("SELECT setting FROM pg_settings WHERE name = 'statement_timeout'"))[0].setting);
  const [row] = await runner.query('SELECT @@max_statement_time AS seconds');
  return Math.round(Number(row.seconds) * 1000);
}

/** How long a statement of the connection's session waits for a row lock, in milliseconds. */
async function lockWaitMs(runner: QueryRunner, database: 'mysql' | 'postgres'): Promise<number> {
  if (database === 'postgres')
    return Number((await runner.query("SELECT setting FROM pg_settings WHERE name = 'lock_timeout'"))[0].setting);
  const [row] = await runner.query('SELECT @@innodb_lock_wait_timeout AS seconds');
  return Number(row.seconds) * 1000;
}

/**
 * Every pooled connection carries the session settings, the first one included: TypeORM opens
 * it inside initialize(), before the pool's 'connection' event had a listener, so on MariaDB
 * one connection in the pool ran statements without a time limit (and without the permanent
 * error listener).
 */
describeEachTarget('pooled connection sessions', (target) => {
  if (target.database === 'sqlite') {
    it('has no server session to set up', () => undefined);
    return;
  }
  const database = target.database;
  let t: TestApp;

  suiteApp(target, { env: { DB_STATEMENT_TIMEOUT_MS: '7000', DB_LOCK_TIMEOUT_MS: '3000' } }, (app) => {
    t = app;
  });

  /** Runs `read` on every connection of the pool at once (so each is a different one). */
  async function onEveryConnection(read: (runner: QueryRunner) => Promise<number>): Promise<number[]> {
    const runners = await Promise.all(
      Array.from({ length: t.config.database.poolSize }, async () => {
        const runner = t.dataSource.createQueryRunner();
        await runner.connect();
        return runner;
      }),
    );
    try {
      return await Promise.all(runners.map(read));
    } finally {
      for (const runner of runners) await runner.release();
    }
  }

  it('limits statement time on every connection of the pool', async () => {
    expect(await onEveryConnection((runner) => statementLimitMs(runner, database))).toEqual(
      Array.from({ length: t.config.database.poolSize }, () => 7000),
    );
  });

  it('limits row-lock waits on every connection of the pool', async () => {
    expect(await onEveryConnection((runner) => lockWaitMs(runner, database))).toEqual(
      Array.from({ length: t.config.database.poolSize }, () => 3000),
    );
  });
});
