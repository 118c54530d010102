import type { Logger } from 'pino';
import type { ProjectDefinition } from '../project-definition.js';
import type { Database } from './database.js';
import { TesseraMeta } from './tessera-meta.entity.js';

const SEEDED = 'project_seeded_at';

/**
 * Runs the project's seed on the first start, in one transaction, when every project table
 * is empty. Either way the start is recorded, so a seed never runs twice (not even after an
 * operator empties the tables). Instances booting at once take turns (the boot lock): the
 * first seeds, the others find the start recorded.
 */
export async function seedProjectOnce(db: Database, project: ProjectDefinition, logger?: Logger): Promise<boolean> {
  if (!project.seed) return false;
  return db.bootStep('project seed', () => seedUnlessRecorded(db, project), logger);
}

async function seedUnlessRecorded(db: Database, project: ProjectDefinition): Promise<boolean> {
  if (await db.read(({ manager }) => manager.getRepository(TesseraMeta).existsBy({ name: SEEDED }))) return false;
  return db.transaction((tx) =>
    tx.write(async ({ manager }) => {
      let empty = true;
      for (const entity of project.entities) {
        if ((await manager.getRepository(entity).count({ take: 1 })) > 0) empty = false;
      }
      if (empty) await project.seed!(manager);
      await manager.getRepository(TesseraMeta).insert({ name: SEEDED, value: new Date().toISOString() });
      return empty;
    }),
  );
}
