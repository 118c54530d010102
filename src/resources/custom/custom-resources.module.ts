import { Module, type DynamicModule } from '@nestjs/common';
import { ResourceRegistry } from '../../data/resource-registry.js';
import { Database } from '../../database/database.js';
import { ResourcePaths } from '../../security/resource-paths.js';
import type { CustomResourceDefinition } from './custom-resource-definition.js';
import { CustomResourceRegistry } from './custom-resource-registry.js';

/**
 * The project's custom resources, checked at boot (a bad definition stops the start with every
 * problem listed), for the resources controller, the meta endpoints and RolesGuard (as
 * `ResourcePaths`: which table's grants decide access to `Customers.Orders`).
 */
@Module({})
export class CustomResourcesModule {
  static forRoot(project: { resources?: CustomResourceDefinition[] }): DynamicModule {
    return {
      module: CustomResourcesModule,
      global: true,
      providers: [
        {
          provide: CustomResourceRegistry,
          useFactory: (registry: ResourceRegistry, database: Database) =>
            new CustomResourceRegistry(project.resources ?? [], registry, database.dialect),
          inject: [ResourceRegistry, Database],
        },
        { provide: ResourcePaths, useExisting: CustomResourceRegistry },
      ],
      exports: [CustomResourceRegistry, ResourcePaths],
    };
  }
}
