import type { ResourceRegistry } from '../../src/data/resource-registry.js';
import { RoleBank, RoleBankError } from '../../src/security/role-bank.js';
import type { RolesDefinition } from '../../src/security/role-definition.js';

/** The problems a role bank over `registry` reports for `definition`; fails when the bank accepts it or throws anything else. */
export function roleBankProblems(registry: ResourceRegistry, definition: RolesDefinition): string[] {
  try {
    new RoleBank(registry, definition, 'sqlite');
  } catch (error) {
    if (error instanceof RoleBankError) return error.problems;
    throw error;
  }
  throw new Error('the role bank accepted the definition');
}
