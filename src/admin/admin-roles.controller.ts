import { Controller, Get } from '@nestjs/common';
import type { RoleDefinition } from '../security/role-definition.js';
import { AdminEndpoint } from './admin-endpoint.decorator.js';
import { KnownRoles } from './known-roles.js';

/** The project's roles, read-only: they are defined in src/project/roles.ts and reviewed like code. */
@Controller('admin/v1/roles')
@AdminEndpoint()
export class AdminRolesController {
  constructor(private readonly roles: KnownRoles) {}

  @Get()
  list(): readonly RoleDefinition[] {
    return this.roles.list();
  }
}
