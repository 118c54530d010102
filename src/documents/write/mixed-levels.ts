import { ApiError } from '../../common/api-error.js';
import { ErrorCode } from '../../common/error-codes.js';
import type { Resource, ResourceRegistry } from '../../data/resource-registry.js';
import type { CallerGrants } from '../../security/caller-access.decorator.js';
import type { ResourceAccess } from '../../security/resource-access.js';
import { readOnlyViewError } from '../../security/read-only-view.js';
import type { CustomResourceRegistry, ResourceLevel } from '../levels/custom-resource-registry.js';
import { documentLevel } from './document-level.js';
import { metadataOf } from './document-body.js';
import { tableLevel } from '../levels/table-level.js';
import type { WriteLevel } from './write-level.js';

/**
 * LAC's "Mix and Match": an object of a body may name the resource it is written through, by
 * `@metadata.entity` (`<prefix>:<table>`, or a resource name: a table's or a custom resource
 * level's, case-insensitive) or by a full `@metadata.href` (`<base>/<resource>/<key>`). `levelOf`
 * answers the level such an object names, or undefined when it names none, or names the level
 * the request is written to (`current`: its path or its table's name in an href, as today).
 * A name the caller holds no grant at all on is answered as an unknown one (400 / 4000, same
 * words), so that a body cannot tell a hidden table from no table; whether the caller may do
 * the object's action there is the writer's question (403 / 4030, as on the resource's URL).
 */
export class MixedLevels {
  constructor(
    private readonly tables: ResourceRegistry,
    private readonly custom: CustomResourceRegistry,
    private readonly grants: CallerGrants,
    /** The request's API version: whose custom resources a name may denote (see `CustomResourceRegistry.find`). */
    private readonly version: string | undefined,
  ) {}

  levelOf(item: Record<string, unknown>, current: WriteLevel | undefined): WriteLevel | undefined {
    const entity = entityOf(item);
    if (entity !== undefined) {
      const level = this.named(entity);
      return level === current ? undefined : level;
    }
    const { href } = metadataOf(item);
    if (href === undefined) return undefined;
    const segment = resourceSegmentOf(href);
    // An href naming the request's own level (or its table) is today's: the writer reads its key from it.
    if (
      current &&
      segment !== undefined &&
      [current.path, current.resource.name, current.resource.prefixedName].some((n) => n !== undefined && sameName(n, segment))
    ) {
      return undefined;
    }
    // Inside a resource's body, an href that names nothing is left to the writer (400: not an href of that level).
    if (segment === undefined) {
      if (current) return undefined;
      throw new ApiError(ErrorCode.BAD_REQUEST, 'An @metadata.href must be a full URL: <base>/<resource>/<key>.');
    }
    // Likewise one naming no resource the caller knows of: the same answer for a hidden table as for none.
    if (current && !this.found(segment)) return undefined;
    const level = this.named(segment);
    return level === current ? undefined : level;
  }

  /**
   * The table (plain or prefixed name) or else the custom resource level (as RolesGuard) a name
   * denotes, with the table whose grants judge it; undefined for no resource, and for one the
   * caller holds no grant at all on.
   */
  private found(name: string): { resource: Resource; access: ResourceAccess; custom?: ResourceLevel } | undefined {
    const table = this.tables.find(name);
    const custom = table ? undefined : this.custom.find(name, this.version);
    const resource = table ?? custom?.table;
    if (!resource) return undefined;
    const access = this.grants.to(resource);
    return access.grants.length === 0 ? undefined : { resource, access, custom };
  }

  /** The level a resource name denotes (see `found`); 400 / 4000 in the same words for none and for a hidden one. */
  private named(name: string): WriteLevel {
    const found = this.found(name);
    if (!found) throw new ApiError(ErrorCode.BAD_REQUEST, `No resource named "${name.slice(0, 100)}" to write an object of.`);
    const { resource, access, custom } = found;
    // A view is read-only for everyone: a caller who may read it is told so (as on the view's own URL).
    if (resource.view) {
      if (access.can('READ')) throw readOnlyViewError(resource);
      throw new ApiError(ErrorCode.FORBIDDEN, `Your roles do not permit writes on ${resource.name}.`);
    }
    return documentLevel(custom ?? tableLevel(resource));
  }
}

/** `@metadata.entity` as sent: a non-empty string, or undefined. */
function entityOf(item: Record<string, unknown>): string | undefined {
  const metadata = item['@metadata'];
  if (metadata === null || typeof metadata !== 'object' || Array.isArray(metadata)) return undefined; // metadataOf answers those
  const entity = (metadata as Record<string, unknown>).entity;
  if (entity === undefined) return undefined;
  if (typeof entity !== 'string' || entity === '') throw new ApiError(ErrorCode.BAD_REQUEST, '"@metadata.entity" must be a resource name.');
  return entity;
}

/** The resource segment of an href (`…/<resource>/<key>`, decoded by `metadataOf`); undefined without one. */
function resourceSegmentOf(href: string): string | undefined {
  const path = href.replace(/[?#][\s\S]*$/, '');
  const parts = path.split('/');
  if (parts.length < 2) return undefined;
  const segment = parts[parts.length - 2]!;
  return segment === '' ? undefined : segment;
}

/** Resource names match case-insensitively (ASCII, as `keyOf` compares hrefs). */
function sameName(a: string, b: string): boolean {
  const fold = (text: string): string => text.replace(/[A-Z]/g, (c) => c.toLowerCase());
  return fold(a) === fold(b);
}
