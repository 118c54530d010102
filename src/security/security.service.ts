import { Injectable } from '@nestjs/common';
import type { Principal } from '../common/principal.js';
import { ResourceRegistry, type Resource } from '../data/resource-registry.js';
import { Database } from '../database/database.js';
import { CallerRowPolicy } from './caller-row-policy.js';
import type { NamedEndpoint } from './named-endpoints.js';
import type { Operation } from './role-definition.js';
import { ResourceAccess } from './resource-access.js';
import { RoleBank } from './role-bank.js';
import { SummaryVisibility } from './summary-visibility.js';

/** Answers what a principal may do (resources, their rows, meta endpoints) from the project's roles. */
@Injectable()
export class SecurityService {
  private readonly visibility: SummaryVisibility;

  constructor(
    private readonly roles: RoleBank,
    private readonly registry: ResourceRegistry,
    private readonly database: Database,
  ) {
    this.visibility = new SummaryVisibility(registry, database.dialect);
  }

  access(principal: Principal, resource: Resource): ResourceAccess {
    return ResourceAccess.of(this.roles, principal, resource);
  }

  /** The caller's rights over the rows of a write, for the logic engine. */
  rowPolicy(access: ResourceAccess): CallerRowPolicy {
    return new CallerRowPolicy(access, this.registry, this.database, this.visibility);
  }

  /**
   * May the caller do `operation` on a named endpoint (a function resource, a SQL resource, a procedure)?
   * A role that names it grants what it lists; one that does not, its `defaultAccess`, unless the endpoint
   * takes explicit grants only.
   */
  mayUse(principal: Principal, endpoint: NamedEndpoint, operation: Operation): boolean {
    const key = endpoint.name.toLowerCase();
    return principal.roleNames.some((name) => {
      const role = this.roles.get(name);
      if (!role) return false;
      const named = role.namedGrants.get(key);
      if (named) return named.has(operation);
      return !endpoint.explicitGrantOnly && role.defaultOperations.has(operation);
    });
  }

  mayUseMeta(principal: Principal): boolean {
    return principal.roleNames.some((name) => this.roles.get(name)?.metaAccess === true);
  }
}
