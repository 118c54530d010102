import 'reflect-metadata';
import { DataSource, type Logger } from 'typeorm';
import { BEGIN_READ_COMMITTED, beginWriteSession } from '../src/database/write-session.js';
import { createScratchDatabase, TEST_MYSQL_URL, TEST_POSTGRES_URL, type ScratchDatabase } from './support/test-databases.js';

const servers: Array<'mysql' | 'postgres'> = [];
if (TEST_MYSQL_URL) servers.push('mysql');
if (TEST_POSTGRES_URL) servers.push('postgres');

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
// Skipped without TEST_MYSQL_URL and TEST_POSTGRES_URL: it needs a pooled server (the run says so up front).
(servers.length > 0 ? describe.each(servers) : describe.skip.each(['mysql', 'postgres'] as const))(
  'the write session on a pooled connection [%s]',
  (kind) => {
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
  },
);
