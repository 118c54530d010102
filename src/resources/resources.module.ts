import { Module } from '@nestjs/common';
import { ApiSettings } from '../config/api-settings.js';
import type { AppConfig } from '../config/app-config.js';
import { APP_CONFIG } from '../config/config.module.js';
import { TESSERA_VERSION } from '../config/version.js';
import { ResourceRegistry } from '../data/resource-registry.js';
import { DataModule } from '../data/data.module.js';
import { LogicModule } from '../logic/logic.module.js';
import { RuleBank } from '../logic/rule-bank.js';
import { SecurityModule } from '../security/security.module.js';
import { DocumentsModule } from '../documents/documents.module.js';
import { CustomResourceRegistry } from '../documents/levels/custom-resource-registry.js';
import { LacMetaController } from './lac-meta.controller.js';
import { ExtensionsMetaController } from './extensions-meta.controller.js';
import { MetaController } from './meta.controller.js';
import { ObjectLinkPlanner } from './meta/object-link-planner.js';
import { OpenApiDocs } from './openapi/openapi-document.js';
import { ResourcesController } from './resources.controller.js';
import { CustomResourceReads } from './custom/custom-resource-reads.js';
import { ResourcePerf } from './perf/resource-perf.js';
import { ResourcePerfGuard } from './perf/resource-perf.guard.js';
import { ApiEventsModule } from '../extensions/events/api-events.module.js';
import { ApiEvents } from '../extensions/events/api-events.js';
import { SqlEndpointsModule } from '../extensions/sql-endpoints.module.js';
import { SqlEndpoints } from '../extensions/sql-endpoints.js';
import { FunctionsModule } from '../extensions/functions/functions.module.js';
import { FunctionRegistry } from '../extensions/functions/function-registry.js';
import { ExtensionAnswersModule } from './extensions/extension-answers.module.js';
import { ExtensionDirectoryModule } from '../extensions/extension-directory.module.js';

/**
 * The project's tables as REST resources: the HTTP surface over the data, security and logic
 * modules. MetaController, LacMetaController and ExtensionsMetaController come first so `@tables`, `@docs`, `@resources/<ident>` and `@events` are not taken
 * for resource names (Express matches in order).
 */
@Module({
  imports: [
    DataModule,
    SecurityModule,
    LogicModule,
    DocumentsModule,
    ApiEventsModule,
    SqlEndpointsModule,
    FunctionsModule,
    ExtensionDirectoryModule,
    ExtensionAnswersModule,
  ],
  controllers: [MetaController, LacMetaController, ExtensionsMetaController, ResourcesController],
  providers: [
    {
      provide: OpenApiDocs,
      useFactory: (
        registry: ResourceRegistry,
        rules: RuleBank,
        settings: ApiSettings,
        config: AppConfig,
        custom: CustomResourceRegistry,
        events: ApiEvents,
        sql: SqlEndpoints,
        functions: FunctionRegistry,
      ) =>
        new OpenApiDocs(
          {
            project: settings.project,
            account: settings.account,
            tesseraVersion: TESSERA_VERSION,
            resources: registry.resources,
            customResources: custom.resourcesOf(undefined),
            tableQueries: custom.tableQueries,
            functions: functions.functions,
            functionResources: functions.functionResources,
            derived: (resource) => rules.for(resource).derived,
            resourcePrefix: settings.resourcePrefix,
            permitAuthInUrl: settings.permitAuthInUrl,
            allowFreeFormFilters: settings.allowFreeFormFilters,
            pageSizeDefault: settings.pageSizeDefault,
            pageSizeMax: settings.pageSizeMax,
            docsPublic: config.api.docsPublic,
            sqlEndpoints: [
              ...sql.sqlResources.resources.map((r) => ({
                name: r.name,
                kind: 'SQL resource' as const,
                description: r.description,
                parameters: Object.entries(r.parameters).map(([name, definition]) => ({ name, definition })),
              })),
              ...sql.procedures.map((p) => ({
                name: p.name,
                kind: 'procedure' as const,
                description: p.description,
                parameters: p.arguments,
              })),
            ],
          },
          settings.versions,
          (version) => ({ customResources: custom.resourcesOf(version), addedFields: events.addedFieldsIn(version) }),
        ),
      inject: [ResourceRegistry, RuleBank, ApiSettings, APP_CONFIG, CustomResourceRegistry, ApiEvents, SqlEndpoints, FunctionRegistry],
    },
    ObjectLinkPlanner,
    CustomResourceReads,
    { provide: ResourcePerf, useFactory: () => new ResourcePerf() },
    ResourcePerfGuard,
  ],
})
export class ResourcesModule {}
