import type { ParentRelation, Resource } from '../../data/resource-registry.js';

/**
 * One level of a document a client writes: a table resource is one level whose attributes are
 * its columns; a custom resource nests children (arrays, one-to-many) and parents (objects,
 * many-to-one) to any depth, each with its own attribute names (aliases).
 */
export interface WriteLevel {
  resource: Resource;
  /** The level's URL name (`customer`, `Customers`, `Customers.Orders`): its objects' hrefs are `<base>/<path>/<key>`. */
  path: string;
  /** Attribute name as sent → column. */
  attributes: ReadonlyMap<string, string>;
  /** The columns its objects are found by when they give no `@metadata.key` nor href (a custom resource's declared key); else the primary key. */
  key?: readonly string[];
  children: ReadonlyArray<{ name: string; level: WriteLevel; relation: ParentRelation }>;
  /** `relation` is this level's many-to-one relation to the parent level. */
  parents: ReadonlyArray<{ name: string; level: WriteLevel; relation: ParentRelation }>;
}

const tableLevels = new WeakMap<Resource, WriteLevel>();

/** A table resource as a one-level document: every column under its own name. */
export function tableLevel(resource: Resource): WriteLevel {
  let level = tableLevels.get(resource);
  if (!level) {
    level = {
      resource,
      path: resource.name,
      attributes: new Map(resource.columns.map((c) => [c.name, c.name])),
      children: [],
      parents: [],
    };
    tableLevels.set(resource, level);
  }
  return level;
}
