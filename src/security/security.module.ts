import { Module, type DynamicModule } from '@nestjs/common';
import { Database } from '../database/database.js';
import { ResourceRegistry } from '../data/resource-registry.js';
import { KnownRoles } from './known-roles.js';
import { RoleBank } from './role-bank.js';
import type { RolesDefinition } from './role-definition.js';
import { RolesController } from './roles.controller.js';
import { RolesGuard } from './roles.guard.js';
import { SecurityService } from './security.service.js';

/**
 * Who may do what: the project's roles checked at boot (a bad role stops the start), the
 * global RolesGuard (AppModule places it after the token guards), per-caller resource access
 * and row policies, the role names the admin API accepts, and its read-only roles endpoint.
 */
@Module({})
export class SecurityModule {
  static forRoot(project: { roles: RolesDefinition }): DynamicModule {
    return {
      module: SecurityModule,
      global: true,
      controllers: [RolesController],
      providers: [
        {
          provide: RoleBank,
          useFactory: (registry: ResourceRegistry, database: Database) => new RoleBank(registry, project.roles, database.dialect),
          inject: [ResourceRegistry, Database],
        },
        { provide: KnownRoles, useValue: new KnownRoles(project.roles) },
        SecurityService,
        RolesGuard,
      ],
      exports: [SecurityService, RolesGuard, KnownRoles],
    };
  }
}
