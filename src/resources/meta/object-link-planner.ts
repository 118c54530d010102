import { Injectable } from '@nestjs/common';
import { ApiSettings } from '../../config/api-settings.js';
import { ResourceRegistry, type Resource } from '../../data/resource-registry.js';
import type { ResourceAccess } from '../../security/resource-access.js';
import { ObjectLinks } from './object-links.js';

/** How many plans are kept; the base URL comes from the request's Host, so the number of keys is capped. */
const MAX_PLANS = 512;

/**
 * Plans the `@metadata.links` of a request's objects. A plan depends only on the table, the caller's role
 * names (roles are fixed at boot) and the base URL, so it is made once per such triple and kept.
 */
@Injectable()
export class ObjectLinkPlanner {
  private readonly typeBase: string;
  private readonly plans = new Map<string, ObjectLinks>();

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
    const key = `${table.name}\u0000${access.rolesKey}\u0000${baseUrl}`;
    let plan = this.plans.get(key);
    if (!plan) {
      plan = ObjectLinks.plan(table, access.to(table), this.registry, baseUrl, this.typeBase);
      if (this.plans.size >= MAX_PLANS) this.plans.clear();
      this.plans.set(key, plan);
    }
    return plan;
  }
}
