import { TesseraMeta } from './tessera-meta.entity.js';

/** Entities of Tessera's own tables (tokens, users, admin, ...). Each feature adds its own here. */
export const systemEntities: Function[] = [TesseraMeta];
