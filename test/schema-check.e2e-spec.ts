import 'reflect-metadata';
import { loadConfig } from '../src/config/app-config.js';
import { DatabaseBootError } from '../src/database/errors/boot-errors.js';
import { openDatabase } from '../src/database/connection/open-database.js';
import { demoProject } from '../src/demo/project.js';
import type { ProjectDefinition } from '../src/project-definition.js';
import { schemaOf } from '../src/schema.js';
import { schemaDriftProject } from './fixtures/schema-drift/schema-drift-project.js';
import { teamsProject } from './fixtures/teams/teams-project.js';
import { valueKindsProject } from './fixtures/value-kinds/value-kinds-project.js';
import { runServiceToExit } from './support/service-process.js';
import { createScratchDatabase, TEST_MYSQL_URL, TEST_POSTGRES_URL } from './support/test-databases.js';

const databases: Array<'sqlite' | 'mysql' | 'postgres'> = ['sqlite'];
if (TEST_MYSQL_URL) databases.push('mysql');
if (TEST_POSTGRES_URL) databases.push('postgres');

/** Opens a fresh scratch database for the project (migrations, then the schema check) and closes it again. */
async function boot(kind: 'sqlite' | 'mysql' | 'postgres', project: ProjectDefinition): Promise<unknown> {
  const scratch = await createScratchDatabase(kind);
  try {
    const config = loadConfig({ DATABASE_URL: scratch.url, LOG_LEVEL: 'silent' });
    const dataSource = await openDatabase(config.database, schemaOf(project));
    await dataSource.destroy();
    return undefined;
  } catch (error) {
    return error;
  } finally {
    await scratch.drop();
  }
}

describe.each(databases)('the schema check at boot [%s]', (kind) => {
  it.each([
    ['the demo', demoProject],
    ['the value-kinds project (a column of every kind)', valueKindsProject],
    ['the teams project', teamsProject],
  ])('finds nothing wrong with %s and Tessera’s own tables', async (_name, project) => {
    expect(await boot(kind, project)).toBeUndefined();
  });

  it('stops the boot with one message listing a missing table, a missing column and a type that disagrees, and the fix', async () => {
    const error = await boot(kind, schemaDriftProject);
    expect(error).toBeInstanceOf(DatabaseBootError);
    const lines = (error as Error).message.split('\n');
    expect(lines[0]).toMatch(/^The database at \S+ does not match the entities \(checked after the migrations ran\):$/);
    expect(lines.filter((l) => l.startsWith('  - ')).sort()).toEqual([
      expect.stringMatching(
        /^ {2}- column gadget\.rating is (varchar|character varying)\(10\) in the database, but the entity says (integer|int)$/,
      ),
      '  - column gadget.weight is missing (entity Gadget, property weight)',
      '  - table supplier is missing (entity Supplier)',
    ]);
    expect((error as Error).message).toMatch(/npm run migration:run/);
    expect((error as Error).message).toMatch(/npm run generate -- --from <DATABASE_URL>/);
  });
});

describe.each(databases)('the service process on a database that lacks a column [%s]', (kind) => {
  it('exits 1 before serving, with the problem and the fix on stderr as plain lines', async () => {
    const scratch = await createScratchDatabase(kind);
    try {
      const config = loadConfig({ DATABASE_URL: scratch.url, LOG_LEVEL: 'silent' });
      const dataSource = await openDatabase(config.database, schemaOf(demoProject));
      // A column dropped by hand (or by a migration the entity does not follow).
      await dataSource.query('ALTER TABLE product DROP COLUMN price');
      await dataSource.destroy();
      const run = await runServiceToExit({ DATABASE_URL: scratch.url });
      expect(run.code).toBe(1);
      expect(run.stdout).not.toMatch(/listening/);
      const lines = run.stderr.trim().split('\n');
      expect(lines[0]).toMatch(/does not match the entities/);
      expect(lines.filter((l) => l.startsWith('  - '))).toEqual(['  - column product.price is missing (entity Product, property price)']);
      expect(lines.at(-1)).toMatch(/^or, when the database is right and the entities are not, regenerate the project/);
    } finally {
      await scratch.drop();
    }
  });
});
