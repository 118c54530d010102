import { Injectable } from '@nestjs/common';
import { ApiSettings } from '../../common/api-settings.js';
import { ResourceRegistry, type Resource } from '../../data/resource-registry.js';
import type { ResourceAccess } from '../../security/resource-access.js';
import { ObjectLinks } from './object-links.js';

/** Plans the `@metadata.links` of a request's objects (once per request, not per object). */
@Injectable()
export class ObjectLinkPlanner {
  private readonly typeBase: string;

  constructor(
    private readonly registry: ResourceRegistry,
    settings: ApiSettings,
  ) {
    // LAC's "Type base URI" default (urn:caliveapicreator:) followed by the project.
    this.typeBase = `urn:caliveapicreator:${settings.project}:`;
  }

  /**
   * The links of `table`'s objects (by default the request's resource) for `access`'s caller, under `baseUrl`.
   * A custom resource level plans its table's links with the same access (`access.to(level.table)`), and
   * passes to `ObjectLinks.of` only the columns the level shows that the caller may read, so that no link
   * carries a value the document leaves out.
   */
  plan(access: ResourceAccess, baseUrl: string, table: Resource = access.resource): ObjectLinks {
    return ObjectLinks.plan(table, access.to(table), this.registry, baseUrl, this.typeBase);
  }
}
