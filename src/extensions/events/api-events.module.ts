import { Module } from '@nestjs/common';
import { DataModule } from '../../data/data.module.js';
import { ResourceRegistry } from '../../data/resource-registry.js';
import { CustomResourcesModule, PROJECT_VERSIONS } from '../../documents/levels/custom-resources.module.js';
import { CustomResourceRegistry, levelsFrom } from '../../documents/levels/custom-resource-registry.js';
import { ExtensionDirectory } from '../extension-directory.js';
import { ExtensionDirectoryModule } from '../extension-directory.module.js';
import { ExtensionRunner } from '../extension-runner.js';
import { ExtensionsModule } from '../extensions.module.js';
import type { ApiEventsDefinition } from './api-event-definition.js';
import type { ResourceNames } from './api-events-check.js';
import { ApiEvents } from './api-events.js';

/** Injection token of the project's request and response events (`ProjectDefinition.events`; ProjectModule provides it). */
export const PROJECT_EVENTS = Symbol('PROJECT_EVENTS');

/**
 * The names events' filters may use: the tables (plain or prefixed), each version's custom resource levels, and the
 * extensions' (`ExtensionDirectory.eventNames`: `owedByCustomer`, `customer_orders`, `employee/giveRaise`).
 */
export function resourceNamesOf(
  tables: ResourceRegistry,
  custom: CustomResourceRegistry,
  versions: readonly string[],
  extensions: readonly string[] = [],
): ResourceNames {
  const extensionNames = new Set(extensions.map((name) => name.toLowerCase()));
  const attributes = new Set<string>(tables.resources.flatMap((r) => r.columns.map((c) => c.name)));
  for (const resource of custom.resources)
    for (const level of levelsFrom(resource.root)) level.attributes.forEach((a) => attributes.add(a.name));
  return {
    versions,
    resolve: (name, version) =>
      tables.find(name)?.name.toLowerCase() ??
      custom.find(name, version)?.path.toLowerCase() ??
      (extensionNames.has(name.toLowerCase()) ? name.toLowerCase() : undefined),
    hasAttribute: (name) => attributes.has(name),
  };
}

/** The project's request and response events, checked at boot, for the resources controller (`ApiEvents`). */
@Module({
  imports: [ExtensionsModule, DataModule, CustomResourcesModule, ExtensionDirectoryModule],
  providers: [
    {
      provide: ApiEvents,
      useFactory: (
        runner: ExtensionRunner,
        tables: ResourceRegistry,
        custom: CustomResourceRegistry,
        events: ApiEventsDefinition | undefined,
        versions: string[] | undefined,
        extensions: ExtensionDirectory,
      ) => new ApiEvents(events, resourceNamesOf(tables, custom, versions ?? [], extensions.eventNames()), runner),
      inject: [
        ExtensionRunner,
        ResourceRegistry,
        CustomResourceRegistry,
        { token: PROJECT_EVENTS, optional: true },
        { token: PROJECT_VERSIONS, optional: true },
        ExtensionDirectory,
      ],
    },
  ],
  exports: [ApiEvents],
})
export class ApiEventsModule {}
