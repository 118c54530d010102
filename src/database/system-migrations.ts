import { CreateTesseraMeta1763800000000 } from './migrations/1763800000000-create-tessera-meta.js';

/** Migrations of Tessera's own tables, in timestamp order. Project migrations come after. */
export const systemMigrations: Function[] = [CreateTesseraMeta1763800000000];
