import { Module } from '@nestjs/common';
import { DataModule } from '../data/data.module.js';
import { ResourceRegistry } from '../data/resource-registry.js';
import { Database } from '../database/database.js';
import { KnownRoles } from './known-roles.js';
import { PROJECT_NAMED_ENDPOINTS, type NamedEndpoint } from './named-endpoints.js';
import { RoleBank } from './role-bank.js';
import type { RolesDefinition } from './role-definition.js';
import { RolesController } from './roles.controller.js';
import { SecurityService } from './security.service.js';

/** Injection token of the project's roles (ProjectModule provides it). */
export const PROJECT_ROLES = Symbol('PROJECT_ROLES');

/**
 * Who may do what: the project's roles checked at boot (a bad role stops the start), per-caller
 * resource access and row policies, the role names the admin API accepts, and its read-only
 * roles endpoint. `RolesGuard` is a global guard: AppModule places it after the token guards,
 * where it also finds the custom resources' `ResourcePaths`.
 */
@Module({
  imports: [DataModule],
  controllers: [RolesController],
  providers: [
    {
      provide: RoleBank,
      useFactory: (registry: ResourceRegistry, database: Database, roles: RolesDefinition, named: NamedEndpoint[] | undefined) =>
        new RoleBank(registry, roles, database.dialect, named ?? []),
      inject: [ResourceRegistry, Database, PROJECT_ROLES, { token: PROJECT_NAMED_ENDPOINTS, optional: true }],
    },
    { provide: KnownRoles, useFactory: (roles: RolesDefinition) => new KnownRoles(roles), inject: [PROJECT_ROLES] },
    SecurityService,
  ],
  exports: [SecurityService, KnownRoles],
})
export class SecurityModule {}
