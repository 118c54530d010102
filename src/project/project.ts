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
  seedUsers: [
    { login: 'demo', password: 'Password1', roles: ['Full access'], email: 'demo@example.com' },
    { login: 'readonly', password: 'Password1', roles: ['Read only'] },
    { login: 'sam', password: 'Password1', roles: ['Sales rep'], globals: { employee_id: 1 } },
  ],
};
