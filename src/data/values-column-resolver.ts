import { parentAlias, parentRelation } from './column-resolver.js';
import type { ColumnPath } from './query/ast.js';
import type { ColumnKind } from './column-kind.js';
import type { ColumnResolver, ParameterSink, ResolvedColumn } from './query/compile-context.js';
import type { Resource, ResourceColumn, ResourceRegistry } from './resource-registry.js';
import { quoteIdentifier } from './sql-dialect.js';
import type { Dialect } from '../database/dialect.js';
import { toDatabase, type CanonicalRow } from './value-codec.js';

/** Whether a column's value is not settled yet: of the row itself, or (`viaParent`) of the parent row a filter reads. */
export type Unsettled = (resource: Resource, column: string, viaParent: boolean) => boolean;

/**
 * Resolves a resource's columns to the values of one row that is not (or not yet, or no
 * longer) in the table, bound as parameters: a role's row filter then compiles to a condition
 * on those values, which `RowStore.testValues` evaluates. `parent.column` reads the parent row
 * the values point to. A column the row does not hold is NULL when the database has nothing to
 * put there (a nullable column without a default: what the insert stores); one the database
 * fills (a default, a generated key) resolves to NULL and sets `incomplete`: the condition's
 * answer is then not the row's. So does a column `unsettled` names (one the write's rules will
 * still set, or a parent row's that the same request changes first).
 */
export class ValuesColumnResolver implements ColumnResolver {
  incomplete = false;

  constructor(
    private readonly resource: Resource,
    private readonly registry: ResourceRegistry,
    private readonly dialect: Dialect,
    private readonly row: CanonicalRow,
    private readonly unsettled?: Unsettled,
  ) {}

  resolve(path: ColumnPath): ResolvedColumn | undefined {
    if (path.length === 1) {
      const column = this.resource.columnsByName.get(path[0]!);
      if (!column) return undefined;
      return { sql: 'NULL', kind: column.kind, maxLength: column.length, render: (params) => this.value(column, params) };
    }
    if (path.length !== 2) return undefined;
    const relation = parentRelation(this.resource, path[0]!);
    const parent = relation && this.registry.find(relation.parent);
    const column = parent?.columnsByName.get(path[1]!);
    if (!relation || !parent || !column) return undefined;
    const q = (name: string): string => quoteIdentifier(this.dialect, name);
    const p = parentAlias('t');
    if (this.unsettled?.(parent, column.name, true)) {
      this.incomplete = true;
      return { sql: 'NULL', kind: column.kind, maxLength: column.length, render: () => 'NULL' };
    }
    return {
      sql: 'NULL',
      kind: column.kind,
      maxLength: column.length,
      render: (params) => {
        const join = relation.columns.map((pair) => `${q(p)}.${q(pair.parent)} = ${this.value(this.resource.columnsByName.get(pair.child)!, params)}`);
        return `(SELECT ${q(p)}.${q(column.name)} FROM ${q(parent.tableName)} ${q(p)} WHERE ${join.join(' AND ')})`;
      },
    };
  }

  private value(column: ResourceColumn, params: ParameterSink): string {
    if (this.unsettled?.(this.resource, column.name, false)) {
      this.incomplete = true;
      return 'NULL';
    }
    if (!(column.name in this.row)) {
      if (column.generated || column.hasDefault) this.incomplete = true;
      return 'NULL';
    }
    return typedPlaceholder(column.kind, this.dialect, params.add(toDatabase(column, this.row[column.name] ?? null, this.dialect)));
  }
}

const POSTGRES_TYPES: Record<ColumnKind, string> = {
  string: 'text', integer: 'bigint', decimal: 'numeric', boolean: 'boolean', date: 'date', datetime: 'timestamptz', json: 'text', binary: 'bytea',
};

/**
 * A bound value standing where a column would, compared as that column is: PostgreSQL would
 * otherwise take two parameters compared with each other for text, MySQL a decimal for a
 * double, and SQLite a number compared with bound text would have no numeric affinity.
 */
function typedPlaceholder(kind: ColumnKind, dialect: Dialect, placeholder: string): string {
  if (dialect === 'postgres') return `CAST(${placeholder} AS ${POSTGRES_TYPES[kind]})`;
  if (dialect === 'mysql') return kind === 'decimal' ? `CAST(${placeholder} AS DECIMAL(65,30))` : placeholder;
  return kind === 'decimal' || kind === 'integer' ? `CAST(${placeholder} AS NUMERIC)` : placeholder;
}
