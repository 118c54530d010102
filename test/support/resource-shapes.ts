import type { Resource, ResourceColumn } from '../../src/data/resource-registry.js';

/**
 * Hand-made resources for unit specs that need shapes no entity has (for real entities, use
 * `registryOf` in ./registry.ts). A column is nullable unless it is a key column; `extra` sets
 * anything else (`generated`, `length`, `nullable` …).
 */
export function columnOf(name: string, kind: ResourceColumn['kind'], primary = false, extra: Partial<ResourceColumn> = {}): ResourceColumn {
  return { name, propertyName: name, kind, nullable: !primary, generated: false, hasDefault: false, primary, unique: false, ...extra };
}

/** A resource over these columns (its key: the columns marked primary) with these parent relations. */
export function resourceOf(name: string, columns: ResourceColumn[], parents: Resource['parents'] = []): Resource {
  return {
    name,
    urlName: encodeURIComponent(name),
    tableName: name,
    target: name,
    columns,
    columnsByName: new Map(columns.map((c) => [c.name, c])),
    primaryKey: columns.filter((c) => c.primary),
    uniqueKeys: [],
    parents,
    children: [],
    readBackAfterWrite: false,
    view: false,
  };
}
