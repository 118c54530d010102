import 'reflect-metadata';
import { loadConfig } from '../src/config/app-config.js';
import { openDatabase } from '../src/database/connection/open-database.js';
import { Database } from '../src/database/database.js';
import { demoProject } from '../src/demo/project.js';
import { schemaOf } from '../src/schema.js';
import { createScratchDatabase, TEST_MYSQL_URL, TEST_POSTGRES_URL } from './support/test-databases.js';

const databases: Array<'sqlite' | 'mysql' | 'postgres'> = ['sqlite'];
if (TEST_MYSQL_URL) databases.push('mysql');
if (TEST_POSTGRES_URL) databases.push('postgres');

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
