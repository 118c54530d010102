import { Module } from '@nestjs/common';
import { ApiSettings, PROJECT_DEFINITION } from '../common/api-settings.js';
import type { ProjectDefinition } from '../common/project-definition.js';
import { LogicEngine } from '../logic/logic-engine.js';
import { RuleBank } from '../logic/rule-bank.js';
import { RoleBank } from '../security/role-bank.js';
import { RolesGuard } from '../security/roles.guard.js';
import { SecurityService } from '../security/security.service.js';
import type { AppConfig } from '../config/app-config.js';
import { APP_CONFIG } from '../config/config.module.js';
import { TESSERA_VERSION } from '../common/version.js';
import { MetaController } from './meta.controller.js';
import { OpenApiDocs } from './openapi/openapi-document.js';
import { RowChecksum } from '../data/checksum.js';
import { Database } from '../database/database.js';
import { loadChecksumSecret } from '../database/checksum-secret.js';
import { ResourceRegistry } from '../data/resource-registry.js';
import { ResourcesController } from './resources.controller.js';
import { ResourcesService } from './resources.service.js';

/** The project's tables as REST resources. MetaController comes first so `@tables` and `@docs` are not taken for resource names (Express matches in order). */
@Module({
  controllers: [MetaController, ResourcesController],
  providers: [
    {
      provide: ResourceRegistry,
      useFactory: (database: Database, project: ProjectDefinition, settings: ApiSettings) =>
        new ResourceRegistry(database, project.entities, settings.resourcePrefix),
      inject: [Database, PROJECT_DEFINITION, ApiSettings],
    },
    {
      provide: RuleBank,
      useFactory: (registry: ResourceRegistry, project: ProjectDefinition) => new RuleBank(registry, project.rules ?? []),
      inject: [ResourceRegistry, PROJECT_DEFINITION],
    },
    {
      provide: RoleBank,
      useFactory: (registry: ResourceRegistry, project: ProjectDefinition, database: Database) =>
        new RoleBank(registry, project.roles, database.dialect),
      inject: [ResourceRegistry, PROJECT_DEFINITION, Database],
    },
    {
      provide: OpenApiDocs,
      useFactory: (registry: ResourceRegistry, rules: RuleBank, settings: ApiSettings, config: AppConfig) =>
        new OpenApiDocs({
          project: settings.project,
          account: settings.account,
          tesseraVersion: TESSERA_VERSION,
          resources: registry.resources,
          derived: (resource) => rules.for(resource).derived,
          resourcePrefix: settings.resourcePrefix,
          permitAuthInUrl: settings.permitAuthInUrl,
          allowFreeFormFilters: settings.allowFreeFormFilters,
          pageSizeDefault: settings.pageSizeDefault,
          pageSizeMax: settings.pageSizeMax,
          docsPublic: config.api.docsPublic,
        }, settings.versions),
      inject: [ResourceRegistry, RuleBank, ApiSettings, APP_CONFIG],
    },
    {
      // The key is read (or generated) and derived once, at boot; the request path only computes HMACs.
      provide: RowChecksum,
      useFactory: async (database: Database, config: AppConfig) =>
        await RowChecksum.fromSecret(await loadChecksumSecret(database, config.api.checksumSecret)),
      inject: [Database, APP_CONFIG],
    },
    LogicEngine,
    ResourcesService,
    SecurityService,
    RolesGuard,
  ],
  exports: [ResourceRegistry, ResourcesService, SecurityService, RowChecksum],
})
export class ResourcesModule {}
