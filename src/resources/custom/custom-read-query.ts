import { ApiError } from '../../common/api-error.js';
import type { ApiSettings } from '../../config/api-settings.js';
import { ErrorCode } from '../../common/error-codes.js';
import type { FilterNode, OrderTerm } from '../../data/query/ast.js';
import { excerpt } from '../../data/query/limits.js';
import type { DocumentQuery } from '../../documents/read/document-reader.js';
import type { ReadQuery } from '../../documents/read/read-query.js';
import { readQueryOf } from '../read-query.js';
import { inlinePolicyOf, type InlinePolicy } from '../inline-limit.js';
import { subPathFrom, type CustomResource, type ResourceLevel } from '../../documents/levels/custom-resource-registry.js';
import { bindUserFilter, parseUserFilterCall } from '../../documents/levels/user-filters.js';

/** The per-level parameters' kinds: `filter.<Path>` and so on. */
export const LEVEL_PARAMETER_KINDS = ['filter', 'sysfilter', 'order', 'sysorder'] as const;
type LevelParameterKind = (typeof LEVEL_PARAMETER_KINDS)[number];

/** A per-level query parameter's name, split: `sysfilter.Orders.Lineitems` → sysfilter, `Orders.Lineitems`. */
export function levelParameterOf(name: string): { kind: LevelParameterKind; path: string } | undefined {
  const dot = name.indexOf('.');
  if (dot < 0) return undefined;
  const kind = name.slice(0, dot) as LevelParameterKind;
  return LEVEL_PARAMETER_KINDS.includes(kind) ? { kind, path: name.slice(dot + 1) } : undefined;
}

/** The query parameters of a nested GET, checked: per level, the request's texts, not yet compiled (see `DocumentQuery`). */
export interface CustomReadQuery extends DocumentQuery {
  inline: InlinePolicy;
}

const MAX_REPEATED = 16;

function texts(value: unknown, name: string): string[] {
  const values = value === undefined ? [] : Array.isArray(value) ? value : [value];
  if (!values.every((v): v is string => typeof v === 'string'))
    throw new ApiError(ErrorCode.BAD_REQUEST, `Query parameter "${name}" must be text.`);
  if (values.length > MAX_REPEATED) throw new ApiError(ErrorCode.BAD_REQUEST, `At most ${MAX_REPEATED} "${name}" parameters are allowed.`);
  return values;
}

/** A parameter given at most once (LAC's userfilter and userorder are single), as a list of zero or one. */
function once(value: unknown, name: string): string[] {
  const values = texts(value, name);
  if (values.length > 1) throw new ApiError(ErrorCode.BAD_REQUEST, `Query parameter "${name}" may be given once.`);
  return values;
}

/**
 * Reads a nested GET's parameters for the level `root` the request names. Per-level parameters
 * name sub-resource paths below it (case-insensitively); an unknown path is 400 / 4000 naming it.
 * `userfilter` / `userorder` name the custom resource's definitions (only at its root level).
 */
export function customReadQueryOf(root: ResourceLevel, query: Record<string, unknown>, settings: ApiSettings): CustomReadQuery {
  const rootQuery = readQueryOf(
    {
      filter: query.filter,
      sysfilter: query.sysfilter,
      order: query.order,
      sysorder: query.sysorder,
      pagesize: query.pagesize,
      offset: query.offset,
    },
    settings,
  );
  const byPath = new Map<string, ResourceLevel>();
  const index = (level: ResourceLevel): void => {
    if (level !== root) byPath.set(subPathFrom(level, root).toLowerCase(), level);
    level.subLevels.forEach(index);
  };
  index(root);
  const raw = new Map<ResourceLevel, Record<string, unknown>>();
  for (const [name, value] of Object.entries(query)) {
    const parameter = levelParameterOf(name);
    if (!parameter) continue;
    const level = byPath.get(parameter.path.toLowerCase());
    if (!level) {
      throw new ApiError(
        ErrorCode.BAD_REQUEST,
        `Query parameter "${excerpt(name, 100)}": ${root.path} has no sub-resource "${excerpt(parameter.path, 100)}".`,
      );
    }
    const into = raw.get(level) ?? {};
    raw.set(level, into);
    // `filter.Orders` and `filter.orders` name one level: both apply (an order given twice is refused), neither is dropped.
    const given = into[parameter.kind];
    into[parameter.kind] = given === undefined ? value : [given, value].flat();
  }
  const levels = new Map<ResourceLevel, Omit<ReadQuery, 'pageSize' | 'offset'>>();
  for (const [level, params] of raw) levels.set(level, readQueryOf(params, settings));
  const parent = once(query.parent, 'parent');
  if (parent.length === 1 && !root.link) {
    throw new ApiError(
      ErrorCode.BAD_REQUEST,
      `Query parameter "parent" applies to a sub-resource's path (e.g. ${root.path}.<Sub>), not to ${root.path}.`,
    );
  }
  return {
    root: rootQuery,
    levels,
    userFilters: userFiltersOf(root, once(query.userfilter, 'userfilter')),
    userOrder: userOrderOf(root, once(query.userorder, 'userorder')),
    pageSize: rootQuery.pageSize,
    inline: inlinePolicyOf(query),
    parent: parent[0],
  };
}

/**
 * A collection GET's `userfilter` and `userorder` (each at most once) against the level's named
 * filters and orders: a custom resource's root, or a table resource's level (`tableQueries`).
 */
export function namedQueriesOf(root: ResourceLevel, query: Record<string, unknown>): { userFilters: FilterNode[]; userOrder: OrderTerm[] } {
  return {
    userFilters: userFiltersOf(root, once(query.userfilter, 'userfilter')),
    userOrder: userOrderOf(root, once(query.userorder, 'userorder')),
  };
}

function definitionsOf(root: ResourceLevel): CustomResource | undefined {
  return root.kind === 'root' ? root.resource : undefined;
}

function userFiltersOf(root: ResourceLevel, calls: string[]): FilterNode[] {
  return calls.map((text) => {
    const call = parseUserFilterCall(text);
    const filter = definitionsOf(root)?.userFilters.get(call.name);
    if (!filter) throw new ApiError(ErrorCode.BAD_REQUEST, `${root.path} has no userfilter "${excerpt(call.name)}".`);
    return bindUserFilter(filter, call);
  });
}

function userOrderOf(root: ResourceLevel, names: string[]): OrderTerm[] {
  return names.flatMap((name) => {
    const terms = definitionsOf(root)?.userOrders.get(name);
    if (!terms) throw new ApiError(ErrorCode.BAD_REQUEST, `${root.path} has no userorder "${excerpt(name)}".`);
    return terms;
  });
}
