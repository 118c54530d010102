import type { ColumnPath } from './query/ast.js';
import type { ColumnResolver, ResolvedColumn } from './query/compile-context.js';
import type { ParentRelation, Resource, ResourceColumn, ResourceRegistry } from './resource-registry.js';
import { quoteIdentifier } from './sql-dialect.js';
import type { Dialect } from '../database/dialect.js';

/**
 * Resolves the column names of filters and orders to SQL, only from the registry. A plain
 * name is a column of the resource (alias `t`, or `alias`); `parent.column` names a column of
 * a parent row through a many-to-one relation, as a scalar subquery (the parent's alias is the
 * row's plus `p`, so subqueries nest without clashing). This is the system's view, for role
 * row filters: what a caller may name is decided by `CallerColumnResolver` (security).
 */
export class RegistryColumnResolver implements ColumnResolver {
  constructor(
    private readonly resource: Resource,
    private readonly registry: ResourceRegistry,
    private readonly dialect: Dialect,
    private readonly readable?: ReadonlySet<string>,
    readonly alias = 't',
  ) {}

  resolve(path: ColumnPath): ResolvedColumn | undefined {
    const q = (name: string): string => quoteIdentifier(this.dialect, name);
    if (path.length === 1) {
      const column = this.resource.columnsByName.get(path[0]!);
      if (!column || (this.readable && !this.readable.has(column.name))) return undefined;
      return { sql: `${q(this.alias)}.${q(column.name)}`, kind: column.kind, maxLength: column.length, notNull: cannotBeNull(this.resource, column) };
    }
    if (path.length !== 2) return undefined;
    const relation = parentRelation(this.resource, path[0]!);
    if (!relation) return undefined;
    const parent = this.registry.find(relation.parent);
    const column = parent?.columnsByName.get(path[1]!);
    if (!parent || !column) return undefined;
    return { sql: parentSubquery(this.dialect, relation, parent, column.name, this.alias), kind: column.kind, maxLength: column.length };
  }
}

/**
 * Whether a resource's column can never be NULL, as its entity declares: a table's column declared
 * NOT NULL. A view's columns are never taken for it: `@ViewColumn` declares no nullability (TypeORM
 * reads every one as NOT NULL), and a view's outer join or aggregate gives NULLs all the same.
 */
export function cannotBeNull(resource: Resource, column: ResourceColumn): boolean {
  return !resource.view && !column.nullable;
}

/** The relation a path's first part names: the relation's property name, or the parent resource's. */
export function parentRelation(resource: Resource, name: string): ParentRelation | undefined {
  return resource.parents.find((p) => p.name === name || p.parent === name);
}

/** The parent's alias inside a subquery from a row aliased `alias`. */
export function parentAlias(alias: string): string {
  return `${alias}p`;
}

/** `(SELECT <parent>.<column> FROM parent WHERE <join to the row> [AND <guard>])`: one column of the row's parent. */
export function parentSubquery(dialect: Dialect, relation: ParentRelation, parent: Resource, column: string, alias: string, guard?: string): string {
  const q = (name: string): string => quoteIdentifier(dialect, name);
  const p = parentAlias(alias);
  const join = relation.columns.map((pair) => `${q(p)}.${q(pair.parent)} = ${q(alias)}.${q(pair.child)}`).join(' AND ');
  return `(SELECT ${q(p)}.${q(column)} FROM ${q(parent.tableName)} ${q(p)} WHERE ${join}${guard ? ` AND ${guard}` : ''})`;
}
