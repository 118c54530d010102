import type { ColumnPath } from './query/ast.js';
import type { ColumnResolver, ResolvedColumn } from './query/sql-compiler.js';
import type { Resource, ResourceRegistry } from './resource-registry.js';
import { quoteIdentifier, type Dialect } from './sql-dialect.js';

/**
 * Resolves the column names of filters and orders to SQL, only from the registry. A plain
 * name is a column of the resource (alias `t`); `parent.column` names a column of a parent
 * row through a many-to-one relation, as a scalar subquery. `readable` limits what may be
 * named, so hidden columns cannot be probed.
 */
export class RegistryColumnResolver implements ColumnResolver {
  constructor(
    private readonly resource: Resource,
    private readonly registry: ResourceRegistry,
    private readonly dialect: Dialect,
    private readonly readable?: ReadonlySet<string>,
  ) {}

  resolve(path: ColumnPath): ResolvedColumn | undefined {
    const q = (name: string): string => quoteIdentifier(this.dialect, name);
    if (path.length === 1) {
      const column = this.resource.columnsByName.get(path[0]!);
      if (!column || (this.readable && !this.readable.has(column.name))) return undefined;
      return { sql: `${q('t')}.${q(column.name)}`, kind: column.kind, maxLength: column.length };
    }
    if (path.length !== 2) return undefined;
    const relation = this.resource.parents.find((p) => p.name === path[0] || p.parent === path[0]);
    if (!relation) return undefined;
    const parent = this.registry.find(relation.parent);
    const column = parent?.columnsByName.get(path[1]!);
    if (!parent || !column) return undefined;
    const join = relation.columns.map((pair) => `${q('p')}.${q(pair.parent)} = ${q('t')}.${q(pair.child)}`).join(' AND ');
    return {
      sql: `(SELECT ${q('p')}.${q(column.name)} FROM ${q(parent.tableName)} ${q('p')} WHERE ${join})`,
      kind: column.kind,
      maxLength: column.length,
    };
  }
}
