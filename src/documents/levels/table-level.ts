import type { Resource } from '../../data/resource-registry.js';
import type { CustomResource, LevelAttribute, ResourceLevel } from './custom-resource-registry.js';

const levels = new WeakMap<Resource, ResourceLevel>();

/**
 * A table resource as a one-level document: every column under its own name, no fixed filter or
 * order, no sub-levels. The reader and the writer take it as they take a custom resource's level
 * (one level model); `tableResource` tells them that filters and orders name what the table's own
 * may (its parents' columns too, `customer.name`), not only the level's attributes.
 */
export function tableLevel(table: Resource): ResourceLevel {
  const known = levels.get(table);
  if (known) return known;
  const attributes: LevelAttribute[] = table.columns.map((column) => ({ name: column.name, column }));
  const resource = {
    name: table.name,
    userFilters: new Map(),
    userOrders: new Map(),
    definition: { name: table.name, entity: table.name },
  } as Omit<CustomResource, 'root'> as CustomResource;
  const level: ResourceLevel = {
    name: table.name,
    path: table.name,
    subPath: '',
    kind: 'root',
    resource,
    table,
    attributes,
    attributeByName: new Map(attributes.map((a) => [a.name, a])),
    attributeByColumn: new Map(attributes.map((a) => [a.column.name, a])),
    order: [],
    subLevels: [],
    functionLevels: [],
    tableResource: true,
  };
  resource.root = level;
  levels.set(table, level);
  return level;
}
