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
import { MetaController } from './meta.controller.js';
import { ObjectLinkPlanner } from './meta/object-link-planner.js';
import { OpenApiDocs } from './openapi/openapi-document.js';
import { ResourcesController } from './resources.controller.js';
import { CustomResourceReads } from './custom/custom-resource-reads.js';
import { ResourcePerf } from './perf/resource-perf.js';
import { ResourcePerfGuard } from './perf/resource-perf.guard.js';
import { FunctionsModule } from '../extensions/functions/functions.module.js';
import { FunctionRegistry } from '../extensions/functions/function-registry.js';
import { ExtensionDispatch } from './extensions/extension-dispatch.js';

/**
 * The project's tables as REST resources: the HTTP surface over the data, security and logic
 * modules. MetaController and LacMetaController come first so `@tables`, `@docs` and `@resources/<ident>` are not taken
 * for resource names (Express matches in order).
 */
@Module({
  imports: [DataModule, SecurityModule, LogicModule, DocumentsModule, FunctionsModule],
  controllers: [MetaController, LacMetaController, ResourcesController],
  providers: [
    {
      provide: OpenApiDocs,
      useFactory: (
        registry: ResourceRegistry,
        rules: RuleBank,
        settings: ApiSettings,
        config: AppConfig,
        custom: CustomResourceRegistry,
        functions: FunctionRegistry,
      ) =>
        new OpenApiDocs(
          {
            project: settings.project,
            account: settings.account,
            tesseraVersion: TESSERA_VERSION,
            resources: registry.resources,
            customResources: custom.resources,
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
          },
          settings.versions,
        ),
      inject: [ResourceRegistry, RuleBank, ApiSettings, APP_CONFIG, CustomResourceRegistry, FunctionRegistry],
    },
    ObjectLinkPlanner,
    CustomResourceReads,
    { provide: ResourcePerf, useFactory: () => new ResourcePerf() },
    ResourcePerfGuard,
    ExtensionDispatch,
  ],
})
export class ResourcesModule {}
