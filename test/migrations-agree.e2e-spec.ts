import 'reflect-metadata';
import type { DataSource } from 'typeorm';
import { loadConfig, type AppConfig } from '../src/config/app-config.js';
import { buildDataSourceOptions } from '../src/database/connection/data-source-options.js';
import { MigrationsDataSource } from '../src/database/migrations/migrations-data-source.js';
import { openDatabase } from '../src/database/connection/open-database.js';
import { asTheServerIs } from '../src/database/connection/server-flavour.js';
import { demoProject } from '../src/demo/project.js';
import { schemaOf } from '../src/schema.js';
import { suiteResource } from './support/suite-resource.js';
import { testTargets } from './support/test-app.js';
import { createScratchDatabase } from './support/test-databases.js';

const MIGRATIONS_TABLE = 'tessera_migrations';
const schema = schemaOf(demoProject);

/** What `npm run migration:generate` would write: the statements that would make the database match the entities. */
async function pendingChanges(dataSource: DataSource): Promise<string[]> {
  const log = await dataSource.driver.createSchemaBuilder().log();
  return log.upQueries.map((query) => query.query);
}

/** The tables of the connected database (its own schema only), sorted; `views`: its views instead. */
async function tablesOf(dataSource: DataSource, views = false): Promise<string[]> {
  const type = dataSource.options.type;
  const sql =
    type === 'better-sqlite3'
      ? `SELECT name FROM sqlite_master WHERE type = '${views ? 'view' : 'table'}' AND name NOT LIKE 'sqlite_%'`
      : type === 'postgres'
        ? views
          ? 'SELECT viewname AS name FROM pg_views WHERE schemaname = current_schema()'
          : 'SELECT tablename AS name FROM pg_tables WHERE schemaname = current_schema()'
        : `SELECT table_name AS name FROM information_schema.tables WHERE table_schema = DATABASE() AND table_type = '${views ? 'VIEW' : 'BASE TABLE'}'`;
  const rows = await dataSource.query<Array<{ name?: string; NAME?: string }>>(sql);
  return rows.map((row) => (row.name ?? row.NAME)!).sort();
}

/** Rows per table, but for the migrations table. */
async function rowCounts(dataSource: DataSource): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  for (const table of await tablesOf(dataSource)) {
    if (table === MIGRATIONS_TABLE) continue;
    const [row] = await dataSource.query<Array<{ n: number | string }>>(`SELECT COUNT(*) AS n FROM ${dataSource.driver.escape(table)}`);
    counts[table] = Number(row!.n);
  }
  return counts;
}

const databases = [...new Set(testTargets().map((target) => target.database))];

/**
 * Issue 15 item 3: the entities describe exactly the schema the migrations make (so
 * `migration:generate` finds nothing to do), and every migration can be reverted, one at a
 * time, down to an empty database, and run again.
 */
for (const kind of databases) {
  describe(`entities and migrations agree [${kind}]`, () => {
    let database: AppConfig['database'];
    suiteResource(
      () => createScratchDatabase(kind),
      (scratch) => scratch.drop(),
      async (scratch) => {
        // As ormconfig.ts does: a MariaDB server behind a mysql:// URL (as in CI) is addressed as MariaDB.
        database = await asTheServerIs(loadConfig({ DATABASE_URL: scratch.url, LOG_LEVEL: 'silent', DB_POOL_SIZE: '2' }).database);
      },
    );

    /** Boots the way the service does: connects and runs pending migrations. */
    async function withBootedDatabase(use: (dataSource: DataSource) => Promise<void>): Promise<void> {
      const dataSource = await openDatabase(database, schema);
      try {
        await use(dataSource);
      } finally {
        await dataSource.destroy();
      }
    }

    it('a freshly migrated database needs no change', async () => {
      await withBootedDatabase(async (dataSource) => {
        expect(await pendingChanges(dataSource)).toEqual([]);
        // Rows for the reverts below: a revert must not lose the rows of a table it keeps.
        await demoProject.seed!(dataSource.manager);
      });
    });

    it('every migration reverts, one at a time, down to the migrations table alone, keeping the rows of the tables it keeps', async () => {
      // As `npm run migration:revert` does (ormconfig.ts), with its default transaction.
      const cli = new MigrationsDataSource(buildDataSourceOptions(database, schema));
      await cli.initialize();
      try {
        expect((await rowCounts(cli))['lineitem']).toBeGreaterThan(0);
        for (let left = (schema.migrations as Function[]).length; left > 0; left--) {
          const before = await rowCounts(cli);
          await cli.undoLastMigration();
          const after = await rowCounts(cli);
          const kept = Object.keys(after).filter((table) => table in before);
          expect(Object.fromEntries(kept.map((table) => [table, after[table]]))).toEqual(
            Object.fromEntries(kept.map((table) => [table, before[table]])),
          );
          const [executed] = await cli.query<Array<{ n: number | string }>>(`SELECT COUNT(*) AS n FROM ${MIGRATIONS_TABLE}`);
          expect(Number(executed!.n)).toBe(left - 1);
        }
        expect(await tablesOf(cli)).toEqual([MIGRATIONS_TABLE]);
        expect(await tablesOf(cli, true)).toEqual([]);
      } finally {
        await cli.destroy();
      }
    });

    it('runs them all again, and the schema again matches the entities', async () => {
      await withBootedDatabase(async (dataSource) => {
        expect(await pendingChanges(dataSource)).toEqual([]);
        const tables = await tablesOf(dataSource);
        const views = await tablesOf(dataSource, true);
        // The demo's view (customer_summary) is made by its migration, as the tables are.
        expect(views).toEqual(['customer_summary']);
        for (const metadata of dataSource.entityMetadatas) {
          expect(metadata.tableType === 'view' ? views : tables).toContain(metadata.tableName);
        }
      });
    });
  });
}
