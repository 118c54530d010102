import { Module } from '@nestjs/common';
import { DataModule } from '../../data/data.module.js';
import { ResourceRegistry } from '../../data/resource-registry.js';
import { CustomResourcesModule, PROJECT_VERSIONS } from '../../documents/levels/custom-resources.module.js';
import { CustomResourceRegistry, type ResourceLevel } from '../../documents/levels/custom-resource-registry.js';
import { ExtensionRunner } from '../extension-runner.js';
import { ExtensionsModule } from '../extensions.module.js';
import type { ApiEventsDefinition } from './api-event-definition.js';
import type { ResourceNames } from './api-events-check.js';
import { ApiEvents } from './api-events.js';

/** Injection token of the project's request and response events (`ProjectDefinition.events`; ProjectModule provides it). */
export const PROJECT_EVENTS = Symbol('PROJECT_EVENTS');

/** The names events' filters may use: the tables (plain or prefixed) and each version's custom resource levels. */
export function resourceNamesOf(tables: ResourceRegistry, custom: CustomResourceRegistry, versions: readonly string[]): ResourceNames {
  const attributes = new Set<string>(tables.resources.flatMap((r) => r.columns.map((c) => c.name)));
  const levels = (level: ResourceLevel): ResourceLevel[] => [level, ...level.subLevels.flatMap(levels)];
  for (const resource of custom.resources)
    for (const level of levels(resource.root)) level.attributes.forEach((a) => attributes.add(a.name));
  return {
    versions,
    resolve: (name, version) => tables.find(name)?.name.toLowerCase() ?? custom.find(name, version)?.path.toLowerCase(),
    hasAttribute: (name) => attributes.has(name),
  };
}

/** The project's request and response events, checked at boot, for the resources controller (`ApiEvents`). */
@Module({
  imports: [ExtensionsModule, DataModule, CustomResourcesModule],
  providers: [
    {
      provide: ApiEvents,
      useFactory: (
        runner: ExtensionRunner,
        tables: ResourceRegistry,
        custom: CustomResourceRegistry,
        events: ApiEventsDefinition | undefined,
        versions: string[] | undefined,
      ) => new ApiEvents(events, resourceNamesOf(tables, custom, versions ?? []), runner),
      inject: [
        ExtensionRunner,
        ResourceRegistry,
        CustomResourceRegistry,
        { token: PROJECT_EVENTS, optional: true },
        { token: PROJECT_VERSIONS, optional: true },
      ],
    },
  ],
  exports: [ApiEvents],
})
export class ApiEventsModule {}
