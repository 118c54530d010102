import type { KeyValues } from '../data/primary-key.js';
import type { ParentRelation, Resource, ResourceRegistry } from '../data/resource-registry.js';
import { paramsFor, type Params, type RowStore } from '../data/row-store.js';
import type { CanonicalRow } from '../data/value-codec.js';
import type { RuleBank } from './rule-bank.js';

/** One many-to-one step along which an aggregate flows: from a child resource to its parent. */
interface Step {
  from: Resource;
  relation: ParentRelation;
  to: Resource;
}

/** A chain of steps from a written resource up to one ancestor whose aggregates it moves. */
export type AncestorPath = readonly Step[];

/** Rules that loop through the same resource stop here; the engine's own depth guard reports them. */
const MAX_PATH = 8;

const pathsByBank = new WeakMap<RuleBank, Map<string, AncestorPath[]>>();

/**
 * Every ancestor a write of `resource` may adjust through aggregates (sum, count, min, max),
 * or through the allocations it provides (`locksAlso`), as paths from the resource, deepest first: for a line item, the customer (through its order)
 * before the order. Computed once per resource.
 */
export function ancestorPaths(resource: Resource, bank: RuleBank, registry: ResourceRegistry): AncestorPath[] {
  let byResource = pathsByBank.get(bank);
  if (!byResource) pathsByBank.set(bank, (byResource = new Map<string, AncestorPath[]>()));
  let paths = byResource.get(resource.name);
  if (paths) return paths;
  paths = [];
  const walk = (from: Resource, path: Step[], seen: Set<string>): void => {
    const rules = bank.for(from);
    const relations = new Map(
      [...rules.feeds.map((feed) => feed.relation), ...rules.locksAlso].map((relation) => [relation.name, relation]),
    );
    for (const relation of relations.values()) {
      const to = registry.get(relation.parent);
      if (seen.has(to.name) || path.length >= MAX_PATH) continue;
      const next = [...path, { from, relation, to }];
      paths.push(next);
      walk(to, next, new Set([...seen, to.name]));
    }
  };
  walk(resource, [], new Set([resource.name]));
  const label = (path: AncestorPath): string => path.map((s) => `${s.from.name}.${s.relation.name}`).join('/');
  paths.sort((a, b) => b.length - a.length || label(a).localeCompare(label(b)));
  byResource.set(resource.name, paths);
  return paths;
}

/**
 * Which row of the written resource the parents belong to: column values known in advance (an
 * insert's row, an update's new foreign-key values), with `key` naming the stored row for the
 * columns not among them.
 */
export interface RowSource {
  values?: CanonicalRow;
  key?: KeyValues;
}

/**
 * The condition selecting the ancestors at the end of `path` of the rows `sources` describe.
 * Levels above the first read the linking column from the level below in a scalar subquery, so
 * the whole chain is found and locked in one statement per ancestor resource. Undefined when
 * none of the rows has such an ancestor (a null foreign key) or nothing identifies it.
 */
export function ancestorCondition(store: RowStore, path: AncestorPath, sources: readonly RowSource[], params: Params): string | undefined {
  const q = (name: string): string => store.q(name);
  // The SQL of one linking column of level `level` (1: a column of the written row); values are
  // bound as the text is built, left to right, which keeps positional placeholders in order.
  const column = (source: RowSource, level: number, name: string): string | undefined => {
    if (level === 1) {
      const step = path[0]!;
      if (source.values && name in source.values) {
        const value = source.values[name] ?? null;
        if (value === null) return undefined;
        const pair = step.relation.columns.find((p) => p.child === name)!;
        return store.compared(step.to.columnsByName.get(pair.parent)!, value, params);
      }
      if (!source.key) return undefined;
      const alias = 's1';
      return `(SELECT ${q(alias)}.${q(name)} FROM ${q(step.from.tableName)} ${q(alias)} WHERE ${store.keyPredicate(step.from, source.key, params, alias)})`;
    }
    const below = path[level - 2]!;
    const alias = `s${level}`;
    const conditions: string[] = [];
    for (const pair of below.relation.columns) {
      const sql = column(source, level - 1, pair.child);
      if (sql === undefined) return undefined;
      conditions.push(`${q(alias)}.${q(pair.parent)} = ${sql}`);
    }
    return `(SELECT ${q(alias)}.${q(name)} FROM ${q(below.to.tableName)} ${q(alias)} WHERE ${conditions.join(' AND ')})`;
  };
  const pairs = path[path.length - 1]!.relation.columns;
  const alternatives: string[][] = [];
  for (const source of sources) {
    const values: string[] = [];
    for (const pair of pairs) {
      const sql = column(source, path.length, pair.child);
      if (sql === undefined) break;
      values.push(sql);
    }
    if (values.length === pairs.length) alternatives.push(values);
  }
  if (alternatives.length === 0) return undefined;
  if (pairs.length === 1) return `${q('t')}.${q(pairs[0]!.parent)} IN (${alternatives.map((v) => v[0]).join(', ')})`;
  return alternatives
    .map((values) => `(${pairs.map((pair, i) => `${q('t')}.${q(pair.parent)} = ${values[i]}`).join(' AND ')})`)
    .join(' OR ');
}

/**
 * Locks, for update, the ancestors a write will adjust, deepest first and before the write's
 * own row, each resource's rows in primary-key order: every transaction that adjusts customers
 * and their orders takes those locks in one order, so they queue rather than deadlock. It also
 * comes before a child insert's foreign-key check, whose share lock on the parent would
 * otherwise have to be upgraded to the aggregate's update lock while other inserts hold the
 * same share lock: a deadlock.
 */
export async function lockAncestors(
  store: RowStore,
  paths: readonly AncestorPath[],
  sources: (path: AncestorPath) => RowSource[],
  locked: (resource: Resource, row: CanonicalRow) => void,
): Promise<void> {
  for (const path of paths) {
    const target = path[path.length - 1]!.to;
    const params = paramsFor(store.dialect);
    const where = ancestorCondition(store, path, sources(path), params);
    if (where === undefined) continue;
    for (const row of await store.lockWhere(target, where, params, 'update')) locked(target, row);
  }
}
