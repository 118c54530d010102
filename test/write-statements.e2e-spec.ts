import 'reflect-metadata';
import { DataSource, type Logger } from 'typeorm';
import { loadConfig } from '../src/config/app-config.js';
import { openDatabase } from '../src/database/connection/open-database.js';
import { Database } from '../src/database/database.js';
import { BEGIN_READ_COMMITTED, beginWriteSession } from '../src/database/write-session.js';
import { demoProject } from '../src/demo/project.js';
import { schemaOf } from '../src/schema.js';
import { createScratchDatabase, TEST_MYSQL_URL, TEST_POSTGRES_URL, type ScratchDatabase } from './support/test-databases.js';

/** The statements a write sends the server: as few round trips as each database allows. */
const servers: Array<'mysql' | 'postgres'> = [];
if (TEST_MYSQL_URL) servers.push('mysql');
if (TEST_POSTGRES_URL) servers.push('postgres');
const databases: Array<'sqlite' | 'mysql' | 'postgres'> = ['sqlite', ...servers];

/**
 * Whether an insert gets its row back from the INSERT itself (RETURNING) or reads it back with a
 * second statement: SQLite and PostgreSQL always, MariaDB from 10.5, MySQL never. Decided on the
 * data source the service opens, from the server's own version text: TypeORM keeps only the
 * digits of it ("10.11.19"), which cannot tell MariaDB from MySQL, and every insert on MariaDB
 * had quietly gone back to two statements.
 */
describe.each(databases)('INSERT … RETURNING on the data source the service opens [%s]', (kind) => {
  it('is used exactly where the server has it', async () => {
    const scratch = await createScratchDatabase(kind);
    try {
      const config = loadConfig({ DATABASE_URL: scratch.url, LOG_LEVEL: 'silent' });
      const dataSource = await openDatabase(config.database, schemaOf(demoProject));
      try {
        let expected = true;
        if (kind === 'mysql') {
          const [{ version }] = await dataSource.query<[{ version: string }]>('SELECT VERSION() AS version');
          const mariadb = /^(\d+)\.(\d+).*MariaDB/i.exec(version);
          expected = mariadb !== null && Number(mariadb[1]) * 1000 + Number(mariadb[2]) >= 10_005;
        }
        expect(new Database(dataSource).insertReturnsRow).toBe(expected);
      } finally {
        await dataSource.destroy();
      }
    } finally {
      await scratch.drop();
    }
  });
});

/** TypeORM's logger interface, keeping every statement the data source's runners send. */
function statementLog(): { statements: string[]; logger: Logger } {
  const statements: string[] = [];
  const none = () => undefined;
  return {
    statements,
    logger: {
      logQuery: (sql) => void statements.push(sql),
      logQueryError: none,
      logQuerySlow: none,
      logSchemaBuild: none,
      logMigration: none,
      log: none,
    },
  };
}

/**
 * The write engine's transaction on a pooled server (the SQLite one is in
 * src/database/write-session.spec.ts): opened at READ COMMITTED in as few round trips as the
 * server allows, committed, rolled back.
 */
// Declared only for the servers configured: the run says up front which are not.
for (const kind of servers) {
  describe(`the write session on a pooled connection [${kind}]`, () => {
    let scratch: ScratchDatabase;
    let dataSource: DataSource;
    let other: DataSource;
    let log: ReturnType<typeof statementLog>;
    const names = async (from: DataSource = other) =>
      (await from.query<Array<{ name: string }>>('SELECT name FROM item ORDER BY name')).map((r) => r.name);

    beforeAll(async () => {
      scratch = await createScratchDatabase(kind);
      log = statementLog();
      const options = { type: kind, url: scratch.url } as const;
      dataSource = await new DataSource({ ...options, logger: log.logger }).initialize();
      other = await new DataSource(options).initialize();
      await other.query('CREATE TABLE item (name VARCHAR(30) PRIMARY KEY)');
    });
    beforeEach(async () => {
      await other.query('DELETE FROM item');
      log.statements.length = 0;
    });
    afterAll(async () => {
      await dataSource.destroy();
      await other.destroy();
      await scratch.drop();
    });

    it(`opens with ${BEGIN_READ_COMMITTED[kind].length} statement(s), commits with one, and nothing else goes to the server`, async () => {
      const session = await beginWriteSession(dataSource);
      await session.query(kind === 'postgres' ? 'INSERT INTO item (name) VALUES ($1)' : 'INSERT INTO item (name) VALUES (?)', ['kept']);
      expect(await names()).toEqual([]);
      await session.commit();
      expect(log.statements).toEqual([...BEGIN_READ_COMMITTED[kind], expect.stringMatching(/^INSERT INTO item/), 'COMMIT']);
      expect(await names()).toEqual(['kept']);
    });

    it('reads at READ COMMITTED: a row another connection commits meanwhile is seen by the next read', async () => {
      const session = await beginWriteSession(dataSource);
      // At REPEATABLE READ (MySQL's and MariaDB's default) the first read fixes the snapshot and the second would see no row either.
      expect(await session.query('SELECT name FROM item')).toEqual([]);
      await other.query("INSERT INTO item (name) VALUES ('meanwhile')");
      expect(await session.query('SELECT name FROM item')).toEqual([{ name: 'meanwhile' }]);
      await session.commit();
    });

    it('abandons: the rollback keeps nothing, a second abandon does nothing, and the connection goes back to the pool', async () => {
      const session = await beginWriteSession(dataSource);
      await session.query("INSERT INTO item (name) VALUES ('dropped')");
      await session.abandon();
      await session.abandon();
      expect(log.statements.filter((s) => s === 'ROLLBACK')).toHaveLength(1);
      expect(await names()).toEqual([]);
      // Every connection of the pool is free again: as many sessions as it holds open and commit at once.
      const size = 10; // TypeORM's default pool size, on both servers
      const sessions = await Promise.all(Array.from({ length: size }, () => beginWriteSession(dataSource)));
      await Promise.all(sessions.map((s) => s.commit()));
    });

    it('rolls back what a failed statement left open, and the next session starts clean', async () => {
      const session = await beginWriteSession(dataSource);
      await session.query("INSERT INTO item (name) VALUES ('first')");
      await expect(session.query("INSERT INTO item (name) VALUES ('first')")).rejects.toThrow();
      await session.abandon();
      expect(await names()).toEqual([]);
      const next = await beginWriteSession(dataSource);
      await next.query("INSERT INTO item (name) VALUES ('next')");
      await next.commit();
      expect(await names()).toEqual(['next']);
    });
  });
}
