import { cannotBeNull, parentAlias, parentRelation, parentSubquery } from '../data/column-resolver.js';
import type { ColumnPath } from '../data/query/ast.js';
import type { ColumnResolver, ResolvedColumn } from '../data/query/compile-context.js';
import type { ResourceRegistry } from '../data/resource-registry.js';
import { quoteIdentifier } from '../data/sql-dialect.js';
import type { Dialect } from '../database/dialect.js';
import type { Grant } from './role-bank.js';
import { roleFilterSql, type ResourceAccess } from './resource-access.js';

/**
 * The columns a caller may name in a filter or an order, as SQL that cannot reveal a value the
 * caller could not read. A column of the resource must be readable under some READ grant; a
 * parent's column (`customer.credit_limit`) must be readable on the parent as on the parent
 * itself, and the relation's own columns on the row (400 / 4003 otherwise, as for any unknown
 * column). Where only some grants show a column and those grants have row filters, its value is
 * used only where one of them admits the row (a parent row, or the row itself): elsewhere it
 * is NULL, so no comparison or order can tell anything about it.
 */
export class CallerColumnResolver implements ColumnResolver {
  constructor(
    private readonly access: ResourceAccess,
    private readonly registry: ResourceRegistry,
    private readonly dialect: Dialect,
  ) {}

  resolve(path: ColumnPath): ResolvedColumn | undefined {
    const resource = this.access.resource;
    const q = (name: string): string => quoteIdentifier(this.dialect, name);
    if (path.length === 1) {
      const column = resource.columnsByName.get(path[0]!);
      if (!column || !mayName(this.access, column.name)) return undefined;
      const plain = `${q('t')}.${q(column.name)}`;
      const grants = this.access.columnGrants(column.name, false);
      if (!grants) return { sql: plain, kind: column.kind, maxLength: column.length, notNull: cannotBeNull(resource, column) };
      return {
        sql: GUARDED_ONLY,
        kind: column.kind,
        maxLength: column.length,
        render: (params) => {
          const guarded = `CASE WHEN ${this.access.grantsPredicate(grants, roleFilterSql(resource, this.registry, this.dialect, params))} THEN ${plain} END`;
          // SQLite gives a CASE no column affinity: a number would then compare below any bound text ('4500').
          return this.dialect === 'sqlite' && (column.kind === 'decimal' || column.kind === 'integer')
            ? `CAST(${guarded} AS NUMERIC)`
            : `(${guarded})`;
        },
      };
    }
    if (path.length !== 2) return undefined;
    const relation = parentRelation(resource, path[0]!);
    if (!relation || !relation.columns.every((pair) => mayName(this.access, pair.child))) return undefined;
    const parent = this.registry.find(relation.parent);
    const column = parent?.columnsByName.get(path[1]!);
    if (!parent || !column) return undefined;
    const parentAccess = this.access.to(parent);
    if (!mayName(parentAccess, column.name)) return undefined;
    const parentGrants = parentAccess.columnGrants(column.name, true);
    // The join reads the row's relation columns: where those are hidden, so is the parent.
    const joinGrants = relation.columns
      .map((pair) => this.access.columnGrants(pair.child, false))
      .filter((g): g is readonly Grant[] => g !== undefined);
    if (!parentGrants && joinGrants.length === 0) {
      return { sql: parentSubquery(this.dialect, relation, parent, column.name, 't'), kind: column.kind, maxLength: column.length };
    }
    return {
      sql: GUARDED_ONLY,
      kind: column.kind,
      maxLength: column.length,
      render: (params) => {
        const guards: string[] = [];
        if (parentGrants)
          guards.push(
            parentAccess.grantsPredicate(parentGrants, roleFilterSql(parent, this.registry, this.dialect, params, parentAlias('t'))),
          );
        for (const grants of joinGrants)
          guards.push(this.access.grantsPredicate(grants, roleFilterSql(resource, this.registry, this.dialect, params)));
        return parentSubquery(this.dialect, relation, parent, column.name, 't', guards.join(' AND '));
      },
    };
  }
}

/** What `sql` holds for a column that must be written with its guard (`render`): never the bare value. */
const GUARDED_ONLY = 'NULL';

function mayName(access: ResourceAccess, column: string): boolean {
  if (!access.can('READ')) return false;
  const readable = access.readable();
  return !readable || readable.has(column);
}
