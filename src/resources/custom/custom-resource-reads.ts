import { Injectable } from '@nestjs/common';
import { ApiError } from '../../common/api-error.js';
import { ApiSettings } from '../../config/api-settings.js';
import { ErrorCode } from '../../common/error-codes.js';
import { nextBatchLink } from '../../http/request-context.js';
import { RowChecksum } from '../../data/checksum.js';
import { keySegment, parseKeySegment } from '../../data/primary-key.js';
import { ResourceRegistry } from '../../data/resource-registry.js';
import type { Params, RowStore } from '../../data/row-store.js';
import { excerpt } from '../../data/query/limits.js';
import { quoteIdentifier } from '../../data/sql-dialect.js';
import { toJson, type CanonicalValue } from '../../data/value-codec.js';
import { Database } from '../../database/database.js';
import { FALSE_PREDICATE } from '../../data/query/sql-compiler.js';
import { roleFilterSql, type ResourceAccess } from '../../security/resource-access.js';
import { inlined } from '../inline-limit.js';
import { ObjectLinkPlanner } from '../meta/object-link-planner.js';
import type { ObjectLinks } from '../meta/object-links.js';
import { customReadQueryOf, levelParameterOf, type CustomReadQuery } from './custom-read-query.js';
import { subPathFrom, type ResourceLevel } from '../../documents/levels/custom-resource-registry.js';
import { LevelReader, type LevelQuery, type LevelRow } from '../../documents/read/level-reader.js';

/** What a nested GET needs of its request besides the level and the access. */
export interface CustomReadRequest {
  /** Absolute URL of the API base, e.g. http://host/rest/default/demo/v1 */
  baseUrl: string;
  /** The request's absolute URL (next_batch links are built from it; `auth` parameters already removed). */
  url: URL;
  query: Record<string, unknown>;
  /** `nometa=true`: objects at every level without `@metadata` (next_batch links stay). */
  nometa?: boolean;
}

/** A level's `@metadata.links` for one request: its table's links, built only from the columns the level shows. */
interface LevelLinks {
  links: ObjectLinks;
  shown: ReadonlySet<string>;
}

/** Parameters that belong to the request's root level: a child's next_batch link does not carry them. */
const ROOT_ONLY = new Set(['filter', 'sysfilter', 'order', 'sysorder', 'userfilter', 'userorder', 'offset', 'parent']);

type JsonObject = Record<string, unknown>;

/** A document holds at most this many times PAGE_SIZE_MAX objects (50000 by default): pagesize applies per level, and levels multiply. */
const DOCUMENT_PAGES = 10;

/** The objects a document may still hold; counts only rows the caller reads, so its refusal tells nothing of hidden ones. */
class DocumentBudget {
  constructor(
    private left: number,
    private readonly max: number,
  ) {}

  get remaining(): number {
    return this.left;
  }

  /** @throws ApiError 400 / 4000 once more objects than the cap have been made. */
  take(count: number): void {
    this.left -= count;
    if (this.left < 0) {
      throw new ApiError(
        ErrorCode.BAD_REQUEST,
        `The document would hold more than ${this.max} objects (pagesize applies at every level); ask for a smaller pagesize, or filter its levels.`,
      );
    }
  }
}

/**
 * GET on a custom resource's level: the nested document (README, "Custom resources"). Each object
 * is `@metadata` (href of its level's path and key, checksum of its table row), its attributes the
 * caller may read, then its sub-resources: children as arrays (at most `pagesize` per object, then
 * a `next_batch` link), parents as an object or null. A level whose table the caller cannot READ
 * is left out. One statement per level (see `LevelReader`), whatever the number of rows.
 */
@Injectable()
export class CustomResourceReads {
  private readonly levels: LevelReader;

  constructor(
    private readonly database: Database,
    private readonly registry: ResourceRegistry,
    private readonly settings: ApiSettings,
    private readonly checksums: RowChecksum,
    private readonly linkPlanner: ObjectLinkPlanner,
  ) {
    this.levels = new LevelReader(database, registry);
  }

  async list(level: ResourceLevel, access: ResourceAccess, request: CustomReadRequest): Promise<unknown[]> {
    const query = customReadQueryOf(level, request.query, this.settings);
    const conditions = query.parent !== undefined ? this.ownerConditions(level, access, query.parent) : [];
    const rows = await this.levels.page(level, access, this.rootQuery(query, conditions), query.pageSize + 1, query.root.offset);
    const page = rows.slice(0, query.pageSize);
    const out: unknown[] = await this.document(level, access, page, query, request);
    if (rows.length > query.pageSize) {
      out.push({ '@metadata': { next_batch: nextBatchLink(new URL(request.url), query.root.offset + query.pageSize) } });
    }
    return out;
  }

  async get(level: ResourceLevel, access: ResourceAccess, segment: string, request: CustomReadRequest): Promise<unknown[]> {
    const query = customReadQueryOf(level, request.query, this.settings);
    const rows = await this.levels.page(level, access, this.rootQuery(query, [this.keyCondition(level, segment)]), 1, 0);
    return this.document(level, access, rows, query, request);
  }

  /** One attribute's whole value (the link `inlinelimit` puts in place of a long one): undefined when the row is not there for the caller. */
  async value(level: ResourceLevel, access: ResourceAccess, segment: string, attributeName: string): Promise<CanonicalValue | undefined> {
    const unknown = (): ApiError =>
      new ApiError(ErrorCode.UNKNOWN_COLUMN, `${level.path} has no attribute "${excerpt(attributeName, 64)}" you may read.`);
    const attribute = level.attributeByName.get(attributeName);
    if (!attribute) throw unknown();
    const [found] = await this.levels.page(level, access, { conditions: [this.keyCondition(level, segment)] }, 1, 0);
    if (found?.readable && !found.readable.has(attribute.column.name)) throw unknown();
    return found ? (found.row[attribute.column.name] ?? null) : undefined;
  }

  private rootQuery(query: CustomReadQuery, conditions: LevelQuery['conditions']): LevelQuery {
    return { request: query.root, extraFilters: query.userFilters, extraOrder: query.userOrder, conditions };
  }

  private keyCondition(level: ResourceLevel, segment: string): (params: Params, store: RowStore) => string {
    const key = parseKeySegment(level.table, segment);
    return (params, store) => store.keyPredicate(level.table, key, params, 't');
  }

  /**
   * `parent=<key>`: the level's rows that belong to that owner row, if the caller may read it and
   * the link's columns on both rows (as in the nested document, see `LevelReader.linkGuard`);
   * else none, as for an owner that does not exist.
   */
  private ownerConditions(
    level: ResourceLevel,
    access: ResourceAccess,
    segment: string,
  ): Array<(params: Params, store: RowStore) => string> {
    const link = level.link!;
    const owner = link.owner.table;
    const key = parseKeySegment(owner, segment);
    const ownerAccess = access.to(owner);
    const ownerGuard = this.levels.linkGuard(
      owner,
      ownerAccess,
      link.columns.map((pair) => pair.owner),
      'o',
    );
    const levelGuard = this.levels.linkGuard(
      level.table,
      access,
      link.columns.map((pair) => pair.level),
    );
    if (!ownerGuard || !levelGuard) return [() => FALSE_PREDICATE];
    const q = (name: string): string => quoteIdentifier(this.database.dialect, name);
    const exists = (params: Params, store: RowStore): string => {
      const conditions = [
        store.keyPredicate(owner, key, params, 'o'),
        ...link.columns.map((pair) => `${q('o')}.${q(pair.owner)} = ${q('t')}.${q(pair.level)}`),
      ];
      const rowFilter = ownerAccess.rowPredicate('READ', roleFilterSql(owner, this.registry, this.database.dialect, params, 'o'));
      if (rowFilter) conditions.push(rowFilter);
      conditions.push(...ownerGuard.map((guard) => guard(params)));
      return `EXISTS (SELECT 1 FROM ${q(owner.tableName)} ${q('o')} WHERE ${conditions.join(' AND ')})`;
    };
    return [exists, ...levelGuard];
  }

  private async document(
    root: ResourceLevel,
    access: ResourceAccess,
    rows: LevelRow[],
    query: CustomReadQuery,
    request: CustomReadRequest,
  ): Promise<JsonObject[]> {
    const max = this.settings.pageSizeMax * DOCUMENT_PAGES;
    const budget = new DocumentBudget(max, max);
    budget.take(rows.length);
    const links = this.levelLinks(root, access, request);
    const objects = rows.map((r) => this.object(root, r, query, request, links));
    await this.fill(root, root, access, rows, objects, query, request, budget);
    return objects;
  }

  /** Adds `level`'s sub-resources to its objects, one statement per sub-level, then theirs, depth first. */
  private async fill(
    root: ResourceLevel,
    level: ResourceLevel,
    access: ResourceAccess,
    rows: LevelRow[],
    objects: JsonObject[],
    query: CustomReadQuery,
    request: CustomReadRequest,
    budget: DocumentBudget,
  ): Promise<void> {
    if (rows.length === 0) return;
    for (const sub of level.subLevels) {
      const subAccess = access.to(sub.table);
      // Left out: a level the caller may not read, or whose link to its owner it may not (see LevelReader.linkGuard).
      const guard = this.levels.linkGuard(
        sub.table,
        subAccess,
        sub.link!.columns.map((pair) => pair.level),
      );
      if (!guard) continue;
      const ownerColumns = sub.link!.columns.map((pair) => pair.owner);
      const linked = rows.map((r) => !r.readable || ownerColumns.every((c) => r.readable!.has(c)));
      const child = sub.kind === 'child';
      const grouped = await this.levels.ofOwners(
        sub,
        subAccess,
        { request: query.levels.get(sub), conditions: guard },
        rows.filter((_, i) => linked[i]).map((r) => r.row),
        query.pageSize + 1,
        budget.remaining,
      );
      const links = this.levelLinks(sub, subAccess, request);
      const subRows: LevelRow[] = [];
      const subObjects: JsonObject[] = [];
      rows.forEach((owner, i) => {
        if (!linked[i]) return;
        const found = grouped.get(this.levels.ownerKey(sub, owner.row)) ?? [];
        const shown = child ? found.slice(0, query.pageSize) : found.slice(0, 1);
        const made = shown.map((r) => this.object(sub, r, query, request, links));
        subRows.push(...shown);
        subObjects.push(...made);
        if (!child) {
          objects[i]![sub.name] = made[0] ?? null;
          return;
        }
        const list: unknown[] = made;
        if (found.length > query.pageSize) list.push({ '@metadata': { next_batch: this.childBatch(root, sub, owner, query, request) } });
        objects[i]![sub.name] = list;
      });
      budget.take(subObjects.length);
      await this.fill(root, sub, subAccess, subRows, subObjects, query, request, budget);
    }
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
      out[attribute.name] = inlined(value, query.inlineLimit, () => `${href}/${encodeURIComponent(attribute.name)}`);
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
