import { Controller, Get, Inject, Query, Req } from '@nestjs/common';
import { ApiSettings } from '../config/api-settings.js';
import type { AppConfig } from '../config/app-config.js';
import { APP_CONFIG } from '../config/config.module.js';
import { CustomResourceRegistry } from '../documents/levels/custom-resource-registry.js';
import type { CheckedEvent } from '../extensions/events/api-events-check.js';
import { ApiEvents } from '../extensions/events/api-events.js';
import { apiBaseUrl, nextBatchLink, requestUrlWithoutAuth } from '../http/request-context.js';
import { RequiresAccess } from '../security/requires-access.decorator.js';
import { pageOfMetaList } from './meta/meta-list-query.js';

/**
 * What the project adds to its API besides tables and custom resources, for the console's Extensions page and the
 * curious client: `@events` (the request and response events, their filters and time limits; never their code) and
 * `@versions` (the API versions served, each with its `@docs` and the custom resources it serves). A role with meta
 * access, as `@rules`. Before ResourcesController, so neither is taken for a resource name.
 */
@Controller('rest/:account/:project/:version')
export class ExtensionsMetaController {
  constructor(
    private readonly events: ApiEvents,
    private readonly custom: CustomResourceRegistry,
    private readonly settings: ApiSettings,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  @Get('@events')
  @RequiresAccess('META')
  eventList(@Req() req: unknown, @Query() query: Record<string, unknown>): unknown[] {
    const entry = (kind: 'request' | 'response', event: CheckedEvent<{ resources?: string[]; adds?: string[] }>) => ({
      name: event.name,
      kind,
      resources: event.definition.resources ?? null,
      methods: event.methods ? [...event.methods] : null,
      versions: event.versions ? [...event.versions] : null,
      timeoutMs: event.timeoutMs ?? this.config.api.extensionTimeoutMs,
      adds: event.adds,
    });
    return this.page(req, query, [
      ...this.events.requestEvents.map((e) => entry('request', e)),
      ...this.events.responseEvents.map((e) => entry('response', e)),
    ]);
  }

  @Get('@versions')
  @RequiresAccess('META')
  versionList(@Req() req: unknown, @Query() query: Record<string, unknown>): unknown[] {
    const base = apiBaseUrl(req, this.config.http);
    const root = base.slice(0, base.lastIndexOf('/'));
    return this.page(
      req,
      query,
      this.settings.versions.map((version) => {
        const href = `${root}/${encodeURIComponent(version)}`;
        return {
          '@metadata': { href },
          name: version,
          docs: `${href}/@docs`,
          customResources: this.custom.resourcesOf(version).map((r) => ({ name: r.name, versions: r.definition.versions ?? null })),
        };
      }),
    );
  }

  private page(req: unknown, query: Record<string, unknown>, entries: ReadonlyArray<Record<string, unknown>>): unknown[] {
    return pageOfMetaList(entries, query, (offset) => nextBatchLink(requestUrlWithoutAuth(req, this.config.http), offset));
  }
}
