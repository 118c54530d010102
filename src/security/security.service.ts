import { Injectable } from '@nestjs/common';
import type { Principal } from '../auth/principal.js';
import type { Resource } from '../data/resource-registry.js';
import { ResourceAccess } from './resource-access.js';
import { RoleBank } from './role-bank.js';

/** Answers what a principal may do (resources, meta endpoints) from the project's roles. */
@Injectable()
export class SecurityService {
  constructor(readonly roles: RoleBank) {}

  access(principal: Principal, resource: Resource): ResourceAccess {
    return ResourceAccess.of(this.roles, principal, resource);
  }

  mayUseMeta(principal: Principal): boolean {
    return principal.roleNames.some((name) => this.roles.get(name)?.metaAccess === true);
  }
}
