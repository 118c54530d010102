import { join } from 'node:path';
import { parseDatabaseUrl } from '../../src/config/database-url.js';
import { PROJECT_ROOT } from '../../src/config/project-root.js';
import { readSchema, type SchemaSnapshot } from '../../src/database/schema/schema-reader.js';
import { generateProject, type GenerateResult } from '../../src/generator/generate-project.js';
import type { ProjectDefinition } from '../../src/project-definition.js';
import { apiWithRoles, type Api } from './api.js';
import { runSql } from './shop-schema.js';
import { createScratchDatabase, type ScratchDatabase } from './test-databases.js';
import { startTestApp, suiteApp, type TestApp, type TestTarget } from './test-app.js';

/** Where the suites write generated projects: inside the repository (so they resolve `typeorm` and `src/`), ignored by git and the linters. */
export const GENERATED = join(PROJECT_ROOT, 'test', '.generated');

export interface GeneratedProject {
  /** The database it was generated from (the suite drops it). */
  source: ScratchDatabase;
  result: GenerateResult;
  project: ProjectDefinition;
}

/** A scratch database of `kind` made by `sql`, and the project `name` generated from it into test/.generated/<folder>, imported. */
export async function generateFromSql(
  kind: 'sqlite' | 'mysql' | 'postgres',
  sql: string[],
  folder: string,
  name: string,
): Promise<GeneratedProject> {
  const source = await createScratchDatabase(kind);
  await runSql(source, sql);
  const out = join(GENERATED, folder);
  const schema = await readSchema(parseDatabaseUrl(source.url));
  const result = generateProject({ source: { kind: 'database', schema }, name, out, force: true, root: PROJECT_ROOT });
  const project = ((await import(join(out, 'project.ts'))) as { project: ProjectDefinition }).project;
  return { source, result, project };
}

/**
 * For the enclosing suite: the generated project `of()` names (known once an earlier `beforeAll`
 * made it) served by a test app on the database it came from, closed after the suite; `ready`
 * gets the app and a client with a manual token of the `Full access` role.
 */
export function suiteServing(
  target: TestTarget,
  of: () => Pick<GeneratedProject, 'source' | 'project'>,
  ready: (t: TestApp, api: Api) => void | Promise<void>,
): void {
  suiteApp(
    target,
    () => ({ project: of().project, databaseUrl: of().source.url }),
    async (app) => ready(app, await apiWithRoles(app, ['Full access'])),
  );
}

/**
 * Boots `project` on an empty database of its own (its baseline migration creating the schema),
 * hands `check` the app and the schema it made (as the generator reads it), and closes the app.
 */
export async function onEmptyDatabase(
  target: TestTarget,
  project: ProjectDefinition,
  check: (app: TestApp, made: SchemaSnapshot) => Promise<void>,
): Promise<void> {
  const empty = await startTestApp(target, { project });
  try {
    await check(empty, await readSchema(parseDatabaseUrl(empty.config.database.url)));
  } finally {
    await empty.close();
  }
}
