import type { ProjectDefinition } from '../../src/project-definition.js';
import type { RoleDefinition } from '../../src/security/role-definition.js';
import { demoProject } from '../../src/demo/project.js';
import { demoRoles } from '../../src/demo/roles.js';

/** The demo project with more roles besides the demo's own, and more globals their row filters may use. */
export function demoProjectWithRoles(roles: RoleDefinition[], globals: string[] = []): ProjectDefinition {
  return { ...demoProject, roles: { globals: [...demoRoles.globals, ...globals], roles: [...demoRoles.roles, ...roles] } };
}
