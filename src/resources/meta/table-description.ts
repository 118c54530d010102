import type { ChildRelation, ParentRelation, Resource, ResourceColumn, ResourceRegistry } from '../../data/resource-registry.js';
import { childRole } from './relation-roles.js';

/**
 * The shapes of `@tables`, `@tables/<name>` and `@schema/<prefix>` (api-contract §1): Tessera's own fields,
 * plus the ones CA Live API Creator's clients read: `prefix`, `entity` and `@metadata.href` (the CLI's
 * `describe tables`), `primaryKeyColumns` (`describe tables/<t>`), `dbName`, `parent_table`,
 * `child_columns` and `parent_columns` (the admin CLI's `schema export`).
 */
export function describeColumn(column: ResourceColumn, derived: boolean): Record<string, unknown> {
  return {
    name: column.name,
    dbName: column.name,
    type: column.kind,
    size: column.length ?? null,
    precision: column.precision ?? null,
    scale: column.scale ?? null,
    nullable: column.nullable,
    generated: column.generated,
    derived,
    primaryKey: column.primary,
  };
}

/** The table's URL under `@tables`: `<base>/@tables/<prefix>:<table>`; a view's under `@views`. */
export function tableHref(baseUrl: string, registry: ResourceRegistry, resource: Resource): string {
  // The colon stays as it is, as in LAC's hrefs (`@tables/main:customer`).
  return `${baseUrl}/${resource.view ? '@views' : '@tables'}/${encodeURIComponent(registry.prefix)}:${encodeURIComponent(resource.tableName)}`;
}

function describeParent(registry: ResourceRegistry, relation: ParentRelation): Record<string, unknown> {
  return {
    name: relation.name,
    parent: relation.parent,
    columns: relation.columns,
    parent_table: `${registry.prefix}:${relation.parent}`,
    child_columns: relation.columns.map((pair) => pair.child),
    parent_columns: relation.columns.map((pair) => pair.parent),
  };
}

function describeChild(registry: ResourceRegistry, resource: Resource, relation: ChildRelation): Record<string, unknown> {
  const child = registry.get(relation.child);
  const pairs = child.parents.find((p) => p.name === relation.via)?.columns ?? [];
  return {
    name: relation.name,
    child: relation.child,
    via: relation.via,
    role: childRole(resource, relation),
    child_table: `${registry.prefix}:${relation.child}`,
    parent_columns: pairs.map((pair) => pair.parent),
    child_columns: pairs.map((pair) => pair.child),
  };
}

/**
 * One table: its columns (`derived`: those a logic rule computes, which clients may not set), keys and
 * relations. A view (in `@views`) the same way, with `readOnly: true`: its key is the one its entity
 * declares (none: `[]`), it has no relations.
 */
export function describeTable(
  baseUrl: string,
  registry: ResourceRegistry,
  resource: Resource,
  derived: ReadonlySet<string>,
): Record<string, unknown> {
  const primaryKey = resource.primaryKey.map((c) => c.name);
  return {
    ...(resource.view ? { readOnly: true } : {}),
    '@metadata': { href: tableHref(baseUrl, registry, resource) },
    name: resource.tableName,
    prefix: registry.prefix,
    entity: resource.tableName,
    columns: resource.columns.map((c) => describeColumn(c, derived.has(c.name))),
    primaryKey,
    primaryKeyColumns: primaryKey,
    parents: resource.parents.map((p) => describeParent(registry, p)),
    children: resource.children.map((c) => describeChild(registry, resource, c)),
  };
}
