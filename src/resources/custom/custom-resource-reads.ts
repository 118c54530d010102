import { Injectable } from '@nestjs/common';
import type { Principal } from '../../common/principal.js';
import { ApiSettings } from '../../config/api-settings.js';
import { nextBatchLink } from '../../http/request-context.js';
import { RowChecksum } from '../../data/checksum.js';
import { keySegment } from '../../data/primary-key.js';
import { toJson, type CanonicalValue } from '../../data/value-codec.js';
import { FunctionCalls } from '../../extensions/functions/function-calls.js';
import { parametersFrom } from '../../extensions/functions/function-parameters.js';
import type { ResourceAccess } from '../../security/resource-access.js';
import { SecurityService } from '../../security/security.service.js';
import { inlined } from '../inline-limit.js';
import { ObjectLinkPlanner } from '../meta/object-link-planner.js';
import type { ObjectLinks } from '../meta/object-links.js';
import { customReadQueryOf, levelParameterOf, type CustomReadQuery } from './custom-read-query.js';
import { subPathFrom, type ResourceLevel } from '../../documents/levels/custom-resource-registry.js';
import { DocumentReader, type DocumentNode } from '../../documents/read/document-reader.js';
import type { LevelRow } from '../../documents/read/level-reader.js';

/** What a nested GET needs of its request besides the level and the access. */
export interface CustomReadRequest {
  /** Absolute URL of the API base, e.g. http://host/rest/default/demo/v1 */
  baseUrl: string;
  /** The request's absolute URL (next_batch links are built from it; `auth` parameters already removed). */
  url: URL;
  query: Record<string, unknown>;
  /** `nometa=true`: objects at every level without `@metadata` (next_batch links stay). */
  nometa?: boolean;
  /** The caller, for the levels' function sub-resources (which run as the caller); none are read without one. */
  principal?: Principal;
  requestId?: string;
}

/** An object of a level with function sub-resources, waiting for their values. */
interface Containing {
  level: ResourceLevel;
  out: JsonObject;
  /** Its attributes as the caller sees them (no `@metadata`, no sub-resources). */
  attributes: JsonObject;
}

/** Function sub-resources run at most this many at once (each is the project's code, maybe reading the database). */
const FUNCTION_LEVEL_CONCURRENCY = 4;

/** A level's `@metadata.links` for one request: its table's links, built only from the columns the level shows. */
interface LevelLinks {
  links: ObjectLinks;
  shown: ReadonlySet<string>;
}

/** Parameters that belong to the request's root level: a child's next_batch link does not carry them. */
const ROOT_ONLY = new Set(['filter', 'sysfilter', 'order', 'sysorder', 'userfilter', 'userorder', 'offset', 'parent']);

type JsonObject = Record<string, unknown>;

/**
 * GET on a custom resource's level: the nested document (README, "Custom resources"), read by the
 * documents layer (`DocumentReader`) and shaped here. Each object is `@metadata` (href of its
 * level's path and key, checksum of its table row), its attributes the caller may read, then its
 * sub-resources: children as arrays (at most `pagesize` per object, then a `next_batch` link),
 * parents as an object or null. A level whose table the caller cannot READ is left out.
 */
@Injectable()
export class CustomResourceReads {
  constructor(
    private readonly reader: DocumentReader,
    private readonly settings: ApiSettings,
    private readonly checksums: RowChecksum,
    private readonly linkPlanner: ObjectLinkPlanner,
    private readonly security: SecurityService,
    private readonly functions: FunctionCalls,
  ) {}

  async list(level: ResourceLevel, access: ResourceAccess, request: CustomReadRequest): Promise<unknown[]> {
    const query = customReadQueryOf(level, request.query, this.settings);
    const { nodes, more } = await this.reader.list(level, access, query);
    const out: unknown[] = await this.objects(level, access, nodes, query, request);
    if (more) out.push({ '@metadata': { next_batch: nextBatchLink(new URL(request.url), query.root.offset + query.pageSize) } });
    return out;
  }

  async get(level: ResourceLevel, access: ResourceAccess, segment: string, request: CustomReadRequest): Promise<unknown[]> {
    const query = customReadQueryOf(level, request.query, this.settings);
    return this.objects(level, access, await this.reader.get(level, access, segment, query), query, request);
  }

  /** One attribute's whole value (the link `inlinelimit` puts in place of a long one): undefined when the row is not there for the caller. */
  value(level: ResourceLevel, access: ResourceAccess, segment: string, attributeName: string): Promise<CanonicalValue | undefined> {
    return this.reader.value(level, access, segment, attributeName);
  }

  /** The documents as JSON objects, links planned once per level and request; then their function sub-resources. */
  private async objects(
    root: ResourceLevel,
    access: ResourceAccess,
    nodes: DocumentNode[],
    query: CustomReadQuery,
    request: CustomReadRequest,
  ): Promise<JsonObject[]> {
    const containing: Containing[] = [];
    const planned = new Map<ResourceLevel, LevelLinks>();
    const linksOf = (level: ResourceLevel): LevelLinks => {
      let links = planned.get(level);
      if (!links) {
        links = this.levelLinks(level, access.to(level.table), request);
        planned.set(level, links);
      }
      return links;
    };
    const shape = (node: DocumentNode): JsonObject => {
      const out = this.object(node.level, node.row, query, request, linksOf(node.level));
      if (node.level.functionLevels.length > 0) {
        const { '@metadata': _metadata, ...attributes } = out;
        containing.push({ level: node.level, out, attributes });
      }
      for (const sub of node.subs) {
        const made = sub.nodes.map(shape);
        if (sub.level.kind !== 'child') {
          out[sub.level.name] = made[0] ?? null;
          continue;
        }
        const list: unknown[] = made;
        if (sub.more) list.push({ '@metadata': { next_batch: this.childBatch(root, sub.level, node.row, query, request) } });
        out[sub.level.name] = list;
      }
      return out;
    };
    const shaped = nodes.map(shape);
    await this.functionLevels(containing, query, request);
    return shaped;
  }

  /**
   * Each object's function sub-resources (`ResourceLevel.functionLevels`): the function resource's GET as the caller,
   * given the object. One the caller's roles do not grant is left out, as a level it may not read is; an array
   * longer than `pagesize` is cut there, with a `next_batch` link to the function resource itself.
   */
  private async functionLevels(containing: Containing[], query: CustomReadQuery, request: CustomReadRequest): Promise<void> {
    const principal = request.principal;
    if (containing.length === 0 || !principal) return;
    const calls: Array<() => Promise<void>> = [];
    for (const { level, out, attributes } of containing) {
      for (const sub of level.functionLevels) {
        const resource = this.functions.registry.functionResource(sub.functionResource)!;
        if (!this.security.mayUse(principal, resource.endpoint, 'READ')) continue;
        const parameters = sub.parameters.map((p) => ({ parameter: p.parameter, attribute: p.attribute.name }));
        calls.push(async () => {
          const value = await this.functions.forContaining(resource, principal, parameters, attributes, request.requestId);
          out[sub.name] = Array.isArray(value)
            ? this.firstPage(value, resource.definition.name, parameters, attributes, query, request)
            : value;
        });
      }
    }
    for (let i = 0; i < calls.length; i += FUNCTION_LEVEL_CONCURRENCY) {
      await Promise.all(calls.slice(i, i + FUNCTION_LEVEL_CONCURRENCY).map((call) => call()));
    }
  }

  /** A function sub-resource's array, cut at `pagesize` with a link to the rest at the function resource. */
  private firstPage(
    rows: unknown[],
    name: string,
    parameters: ReadonlyArray<{ parameter: string; attribute: string }>,
    attributes: JsonObject,
    query: CustomReadQuery,
    request: CustomReadRequest,
  ): unknown[] {
    if (rows.length <= query.pageSize) return rows;
    const next = new URL(`${request.baseUrl}/${encodeURIComponent(name)}`);
    for (const [parameter, value] of Object.entries(parametersFrom(parameters, attributes))) next.searchParams.set(parameter, value);
    next.searchParams.set('pagesize', String(query.pageSize));
    return [...rows.slice(0, query.pageSize), { '@metadata': { next_batch: nextBatchLink(next, query.pageSize) } }];
  }

  /** Planned once per level and request (see ObjectLinkPlanner). */
  private levelLinks(level: ResourceLevel, access: ResourceAccess, request: CustomReadRequest): LevelLinks {
    return {
      links: this.linkPlanner.plan(access, request.baseUrl, level.table),
      shown: new Set(level.attributes.map((a) => a.column.name)),
    };
  }

  private object(level: ResourceLevel, r: LevelRow, query: CustomReadQuery, request: CustomReadRequest, links: LevelLinks): JsonObject {
    const href = `${request.baseUrl}/${level.path}/${keySegment(level.table, r.row)}`;
    const out: JsonObject = {};
    if (!request.nometa) {
      const metadata: JsonObject = { href, checksum: this.checksums.of(level.table, r.row) };
      const linked = links.links.of(r.row, r.readable, links.shown);
      if (linked.length > 0) metadata.links = linked;
      out['@metadata'] = metadata;
    }
    for (const attribute of level.attributes) {
      if (r.readable && !r.readable.has(attribute.column.name)) continue;
      const value = toJson(attribute.column, r.row[attribute.column.name] ?? null);
      const inlinable = attribute.column.kind === 'string' || attribute.column.kind === 'binary';
      const limit = inlinable ? query.inline.limitFor(level.name, attribute.name) : Infinity;
      out[attribute.name] =
        limit === Infinity
          ? value
          : inlined(value, limit, () => `${href}/${encodeURIComponent(attribute.name)}`, attribute.column.kind === 'binary');
    }
    return out;
  }

  /**
   * The next rows of one owner's children: the child level's own path with `parent=<owner key>`
   * and `offset`, and the request's parameters for that level and below renamed to be rooted
   * there (`filter.Orders.Lineitems` → `filter.Lineitems`); the root's own filters stay behind.
   */
  private childBatch(root: ResourceLevel, sub: ResourceLevel, owner: LevelRow, query: CustomReadQuery, request: CustomReadRequest): string {
    const url = new URL(`${request.baseUrl}/${sub.path}`);
    const below = subPathFrom(sub, root).toLowerCase();
    for (const [name, value] of request.url.searchParams) {
      const parameter = levelParameterOf(name);
      if (parameter) {
        const path = parameter.path.toLowerCase();
        if (path === below) url.searchParams.append(parameter.kind, value);
        else if (path.startsWith(`${below}.`))
          url.searchParams.append(`${parameter.kind}.${parameter.path.slice(below.length + 1)}`, value);
      } else if (!ROOT_ONLY.has(name)) {
        url.searchParams.append(name, value);
      }
    }
    url.searchParams.set('parent', keySegment(sub.link!.owner.table, owner.row));
    return nextBatchLink(url, query.pageSize);
  }
}
