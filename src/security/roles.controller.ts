import { Controller, Get } from '@nestjs/common';
import { AdminEndpoint, AdminOperation, AdminRoleRequired, listOf } from '../admin-api/admin-endpoint.decorator.js';
import { KnownRoles } from './known-roles.js';
import type { RoleDefinition } from './role-definition.js';

/** The admin API's view of the project's roles, read-only: they are defined in src/project/roles.ts and reviewed like code. */
@Controller('admin/v1/roles')
@AdminEndpoint()
@AdminRoleRequired('auditor')
export class RolesController {
  constructor(private readonly roles: KnownRoles) {}

  @AdminOperation({
    summary: "The project's roles",
    answer: listOf('Role'),
  })
  @Get()
  list(): readonly RoleDefinition[] {
    return this.roles.list();
  }
}
