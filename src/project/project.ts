import type { ProjectDefinition } from '../common/project-definition.js';

/**
 * The demo API project: what `/rest/default/demo/v1` serves.
 * Teams edit this folder (entities, migrations, roles, rules); the engine never imports it.
 */
export const demoProject: ProjectDefinition = {
  account: 'default',
  name: 'demo',
  versions: ['v1'],
  options: {
    permitAuthInUrl: false,
    allowFreeFormFilters: true,
  },
  entities: [],
  migrations: [],
};
