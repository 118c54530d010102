import type { ParentRelation, Resource } from '../../data/resource-registry.js';

/**
 * One level of a document a client writes, as the writer walks it (`documentLevel` makes it from
 * the level model): a table resource is one level whose attributes are its columns (`tableLevel`);
 * a custom resource nests children (arrays, one-to-many) and parents (objects,
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
  /** The names of its function sub-resources (read-only): a client that PUTs back what it read sends them; nothing is written. */
  computed: ReadonlySet<string>;
  /** A table resource's level (`tableLevel`), not a custom resource's: an update that changes nothing is still listed in the summary, and rows are named by the table. */
  tableResource: boolean;
}
