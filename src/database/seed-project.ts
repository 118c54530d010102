import type { ProjectDefinition } from '../project-definition.js';
import type { Database } from './database.js';
import { TesseraMeta } from './tessera-meta.entity.js';

const SEEDED = 'project_seeded_at';

/**
 * Runs the project's seed on the first start, in one transaction, when every project table
 * is empty. Either way the start is recorded, so a seed never runs twice (not even after an
 * operator empties the tables).
 */
export async function seedProjectOnce(db: Database, project: ProjectDefinition): Promise<boolean> {
  if (!project.seed || (await db.read(({ manager }) => manager.getRepository(TesseraMeta).findOneBy({ name: SEEDED })))) return false;
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
