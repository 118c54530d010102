import type { Logger } from 'pino';
import type { EntityManager } from 'typeorm';
import type { Database } from '../database.js';
import { TesseraMeta } from '../schema/tessera-meta.entity.js';

const SEEDED = 'project_seeded_at';

/** What the seed needs of the project: its tables (all empty, or no seed) and its seed. */
export interface SeededProject {
  readonly entities: readonly Function[];
  readonly seed?: (manager: EntityManager) => Promise<void>;
}

/**
 * Runs the project's seed on the first start, in one transaction, when every project table
 * is empty. Either way the start is recorded, so a seed never runs twice (not even after an
 * operator empties the tables). Instances booting at once take turns (the boot lock): the
 * first seeds, the others find the start recorded.
 */
export async function seedProjectOnce(db: Database, project: SeededProject, logger?: Logger): Promise<boolean> {
  if (!project.seed) return false;
  return db.bootStep('project seed', () => seedUnlessRecorded(db, project), logger);
}

async function seedUnlessRecorded(db: Database, project: SeededProject): Promise<boolean> {
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
