import { Module } from '@nestjs/common';
import { DataModule } from '../../data/data.module.js';
import { ResourceRegistry } from '../../data/resource-registry.js';
import { Database } from '../../database/database.js';
import { ResourcePaths } from '../../security/resource-paths.js';
import type { CustomResourceDefinition, TableQueriesDefinition } from './custom-resource-definition.js';
import { CustomResourceRegistry } from './custom-resource-registry.js';
import { NamedQueryIndexes } from './named-query-indexes.js';
import { tableLevel } from './table-level.js';

/** Injection token of the project's custom resources (ProjectModule provides it). */
export const PROJECT_RESOURCES = Symbol('PROJECT_RESOURCES');
/** Injection token of the project's tables' named filters and orders (`ProjectDefinition.tableQueries`). */
export const PROJECT_TABLE_QUERIES = Symbol('PROJECT_TABLE_QUERIES');
/** Injection token of the API versions the project declares (`ProjectDefinition.versions`), which custom resources may name. */
export const PROJECT_VERSIONS = Symbol('PROJECT_VERSIONS');

/**
 * The project's custom resources and its tables' named filters and orders, checked at boot (a bad definition stops the start with every
 * problem listed), for the resources controller, the meta endpoints and RolesGuard (as
 * `ResourcePaths`: which table's grants decide access to `Customers.Orders`); at boot it names
 * the columns its named filters and orders read that no index starts with (`NamedQueryIndexes`).
 */
@Module({
  imports: [DataModule],
  providers: [
    {
      provide: CustomResourceRegistry,
      useFactory: (
        registry: ResourceRegistry,
        database: Database,
        resources: CustomResourceDefinition[],
        tableQueries: Record<string, TableQueriesDefinition> | undefined,
        versions: string[] | undefined,
      ) => new CustomResourceRegistry(resources, registry, database.dialect, tableQueries ?? {}, tableLevel, versions ?? []),
      inject: [
        ResourceRegistry,
        Database,
        PROJECT_RESOURCES,
        { token: PROJECT_TABLE_QUERIES, optional: true },
        { token: PROJECT_VERSIONS, optional: true },
      ],
    },
    { provide: ResourcePaths, useExisting: CustomResourceRegistry },
    NamedQueryIndexes,
  ],
  exports: [CustomResourceRegistry, ResourcePaths],
})
export class CustomResourcesModule {}
