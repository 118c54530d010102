import { existsSync } from 'node:fs';
import type { DataSource } from 'typeorm';
import { launchService, startService, type ServiceProcess } from './support/service-process.js';
import { createScratchDatabase, inspectorOf, TEST_MYSQL_URL, TEST_POSTGRES_URL, type ScratchDatabase } from './support/test-databases.js';

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** The demo's seed users (src/demo/project.ts). */
const SEED_LOGINS = ['demo', 'readonly', 'sam'];
/** A hash takes a quarter of a second or more at cost 12: a window the poll below (every 10 ms) cannot miss, if there is one. */
const BCRYPT_COST = '12';

/** The logins in tessera_users, or undefined while the database or the table is not there yet. */
async function storedLogins(database: ScratchDatabase, inspector: { current?: DataSource }): Promise<string[] | undefined> {
  // On SQLite the inspector would create the file: it waits for the service to.
  if (database.kind === 'sqlite' && !existsSync(database.url.slice('sqlite:'.length))) return undefined;
  inspector.current ??= await inspectorOf(database);
  try {
    const rows = await inspector.current.query<Array<{ login: string }>>('SELECT login FROM tessera_users ORDER BY login');
    return rows.map((r) => r.login);
  } catch {
    return undefined;
  }
}

/**
 * The first start killed with SIGKILL (an OOM kill, a container stopped or a liveness probe
 * giving up during a slow first boot) while it creates the seed users: the next start must end
 * with all of them. It used to create them one at a time and, finding some, never the rest.
 */
function firstStartKilled(kind: 'sqlite' | 'mysql' | 'postgres'): void {
  describe(`a first start on ${kind} killed while it seeds the users`, () => {
    let database: ScratchDatabase | undefined;
    const inspector: { current?: DataSource } = {};
    const services: ServiceProcess[] = [];

    afterAll(async () => {
      for (const service of services) service.kill();
      await Promise.all(services.map((s) => s.exited));
      await inspector.current?.destroy();
      await database?.drop();
    });

    it('leaves all the seed users or none, and the next start creates the missing ones', async () => {
      database = await createScratchDatabase(kind);
      const env = { DATABASE_URL: database.url, BCRYPT_COST };
      const first = await launchService(env, 120_000);
      services.push(first);
      let seen: string[] | undefined;
      while (!seen?.length) {
        if (first.child.exitCode !== null) throw new Error(`the first start exited:\n${first.stdout()}`);
        await sleep(10);
        seen = await storedLogins(database, inspector);
      }
      first.child.kill('SIGKILL');
      await first.exited;
      expect(await storedLogins(database, inspector)).toEqual(SEED_LOGINS);

      services.push(await startService(env, 120_000));
      expect(await storedLogins(database, inspector)).toEqual(SEED_LOGINS);
    }, 120_000);
  });
}

firstStartKilled('sqlite');
if (TEST_MYSQL_URL) firstStartKilled('mysql');
if (TEST_POSTGRES_URL) firstStartKilled('postgres');
