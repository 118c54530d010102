import { Injectable } from '@nestjs/common';
import { ApiSettings } from '../../common/api-settings.js';
import { ResourceRegistry } from '../../data/resource-registry.js';
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

  /** The links of the objects `access.resource` answers with, for `access`'s caller, under `baseUrl`. */
  plan(access: ResourceAccess, baseUrl: string): ObjectLinks {
    return ObjectLinks.plan(access.resource, access, this.registry, baseUrl, this.typeBase);
  }
}
