import { ApiError } from '../common/api-error.js';
import { ErrorCode } from '../common/error-codes.js';
import type { RoleDefinition, RolesDefinition } from './role-definition.js';

/** The project's role names, for the admin API: it lists them and refuses any other name. */
export class KnownRoles {
  private readonly names: ReadonlySet<string>;

  constructor(private readonly definition: RolesDefinition) {
    this.names = new Set(definition.roles.map((r) => r.name));
  }

  list(): readonly RoleDefinition[] {
    return this.definition.roles;
  }

  /** 400 / 4000 naming every role the project does not define. */
  assertKnown(roles: readonly string[] | undefined): void {
    const unknown = (roles ?? []).filter((r) => !this.names.has(r));
    if (unknown.length > 0) {
      throw new ApiError(
        ErrorCode.BAD_REQUEST,
        `Unknown role(s): ${unknown.map((r) => `"${r.slice(0, 100)}"`).join(', ')}. The project defines: ${[...this.names].map((r) => `"${r}"`).join(', ')}.`,
      );
    }
  }
}
