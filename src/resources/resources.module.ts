import { Module } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { ApiSettings, PROJECT_DEFINITION } from '../common/api-settings.js';
import type { ProjectDefinition } from '../common/project-definition.js';
import { LogicEngine } from '../logic/logic-engine.js';
import { RuleBank } from '../logic/rule-bank.js';
import { RoleBank } from '../security/role-bank.js';
import { RolesGuard } from '../security/roles.guard.js';
import { SecurityService } from '../security/security.service.js';
import { MetaController } from './meta.controller.js';
import { dialectOf } from './sql-dialect.js';
import { ResourceRegistry } from './resource-registry.js';
import { ResourcesController } from './resources.controller.js';
import { ResourcesService } from './resources.service.js';

/** The project's tables as REST resources. MetaController comes first so `@tables` is not taken for a resource name. */
@Module({
  controllers: [MetaController, ResourcesController],
  providers: [
    {
      provide: ResourceRegistry,
      useFactory: (dataSource: DataSource, project: ProjectDefinition, settings: ApiSettings) =>
        new ResourceRegistry(dataSource, project.entities, settings.resourcePrefix),
      inject: [DataSource, PROJECT_DEFINITION, ApiSettings],
    },
    {
      provide: RuleBank,
      useFactory: (registry: ResourceRegistry, project: ProjectDefinition) => new RuleBank(registry, project.rules ?? []),
      inject: [ResourceRegistry, PROJECT_DEFINITION],
    },
    {
      provide: RoleBank,
      useFactory: (registry: ResourceRegistry, project: ProjectDefinition, dataSource: DataSource) =>
        new RoleBank(registry, project.roles, dialectOf(dataSource)),
      inject: [ResourceRegistry, PROJECT_DEFINITION, DataSource],
    },
    LogicEngine,
    ResourcesService,
    SecurityService,
    RolesGuard,
  ],
  exports: [ResourceRegistry, ResourcesService, SecurityService],
})
export class ResourcesModule {}
