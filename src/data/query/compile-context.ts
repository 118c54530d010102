import type { ColumnKind } from '../column-kind.js';
import type { Dialect } from '../../database/dialect.js';
import type { ColumnPath } from './ast.js';

export interface ResolvedColumn {
  /** SQL for the column: quoted identifiers, or a scalar subquery for a parent's column. Trusted as is. */
  sql: string;
  /**
   * For SQL that binds values of its own (a guard with the caller's globals): writes it with
   * the compiler's sink, at the point where it appears in the statement. Used instead of `sql`.
   */
  render?: (params: ParameterSink) => string;
  kind: ColumnKind;
  maxLength?: number;
  /**
   * The SQL can never be NULL (a NOT NULL column read as is): PostgreSQL's order then leaves out
   * `NULLS FIRST`/`LAST`, which only an index built with that nulls order could serve, so the
   * column's plain index (the primary key's, say) gives the order without sorting the table.
   */
  notNull?: boolean;
}

export interface ColumnResolver {
  /**
   * Returns the SQL expression for a column path (already-quoted identifiers, or a scalar
   * subquery for a parent path), or undefined when the caller may not use it. May be called
   * more than once for the same path while compiling.
   */
  resolve(path: ColumnPath): ResolvedColumn | undefined;
}

/** Receives every bound value, in the order its placeholder appears in the SQL. */
export interface ParameterSink {
  /** Returns the placeholder to splice (`?` or `$3`). */
  add(value: unknown): string;
}

/** A sink that keeps the values, for handing to the driver with the SQL. */
export interface ParameterList extends ParameterSink {
  readonly values: unknown[];
}

/** `?` placeholders (SQLite, MySQL). */
export function positionalParams(): ParameterList {
  const values: unknown[] = [];
  return {
    values,
    add(value) {
      values.push(value);
      return '?';
    },
  };
}

/** `$1`, `$2`, ... placeholders (PostgreSQL), numbered from `start` (to follow parameters already in the query). */
export function numberedParams(start = 1): ParameterList {
  const values: unknown[] = [];
  return {
    values,
    add(value) {
      values.push(value);
      return `$${start + values.length - 1}`;
    },
  };
}

export interface CompileContext {
  columns: ColumnResolver;
  params: ParameterSink;
  /** Global values of the caller; a global absent here makes its comparison admit no rows (compile to a false predicate such as 1=0), never an error. */
  globals?: Record<string, string | number | boolean | null>;
  dialect: Dialect;
}
