import mysql from 'mysql2/promise';
import pg from 'pg';
import type { TestApp, TestTarget } from './test-app.js';

/** A connection of the test's own that kills every other connection to the app's database. */
export interface Killer {
  killOthers(): Promise<number>;
  end(): Promise<void>;
}

export async function killerOf(t: TestApp, database: TestTarget['database']): Promise<Killer> {
  if (database === 'mysql') {
    const c = await mysql.createConnection(t.config.database.url);
    return {
      killOthers: async () => {
        const [rows] = await c.query('SELECT id FROM information_schema.processlist WHERE db = DATABASE() AND id <> CONNECTION_ID()');
        for (const { id } of rows as Array<{ id: number }>) await c.query('KILL ?', [id]).catch(() => undefined);
        return (rows as unknown[]).length;
      },
      end: () => c.end(),
    };
  }
  const c = new pg.Client({ connectionString: t.config.database.url });
  c.on('error', () => undefined);
  await c.connect();
  return {
    killOthers: async () =>
      (
        await c.query(
          'SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()',
        )
      ).rowCount ?? 0,
    end: () => c.end(),
  };
}
