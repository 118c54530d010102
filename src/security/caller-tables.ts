import type { ParameterSink } from '../data/query/compile-context.js';
import type { ResourceRegistry } from '../data/resource-registry.js';
import { quoteIdentifier } from '../data/sql-dialect.js';
import type { Dialect } from '../database/dialect.js';
import { roleFilterSql, type ResourceAccess } from './resource-access.js';

/**
 * A table as one caller may read it, for SQL the project wrote over the tables (a SQL resource's `{customer}`):
 * a derived table, `(SELECT … FROM customer t WHERE …)`, of the rows its roles' READ row filters admit and the
 * columns they let it read. A column only some row-filtered grants show is NULL in the other rows (as filters
 * and orders see it on the table's own GET); a column no grant shows is left out, so SQL naming it does not run.
 * No READ grant: no row. Identifiers come from entity metadata, the callers' globals are bound into `params` in
 * the order they appear; `leaveOut` drops columns besides (the boot's probe of which columns SQL uses).
 */
export function callerTableSql(
  access: ResourceAccess,
  registry: ResourceRegistry,
  dialect: Dialect,
  params: ParameterSink,
  leaveOut?: string,
): string {
  const resource = access.resource;
  const q = (name: string): string => quoteIdentifier(dialect, name);
  const sql = roleFilterSql(resource, registry, dialect, params);
  const readable = access.readable();
  const columns: string[] = [];
  for (const column of resource.columns) {
    if ((readable && !readable.has(column.name)) || column.name === leaveOut) continue;
    const value = `${q('t')}.${q(column.name)}`;
    const grants = access.columnGrants(column.name, false);
    columns.push(`${grants ? `CASE WHEN ${access.grantsPredicate(grants, sql)} THEN ${value} END` : value} AS ${q(column.name)}`);
  }
  // A caller that may read no column of it: a derived table needs one all the same, and it has no rows.
  if (columns.length === 0) columns.push(`NULL AS ${q('__no_readable_column')}`);
  const where = access.rowPredicate('READ', sql);
  return `(SELECT ${columns.join(', ')} FROM ${q(resource.tableName)} ${q('t')}${where === undefined ? '' : ` WHERE ${where}`})`;
}

/** The columns of the caller's table a SQL resource may not use: those `callerTableSql` leaves out. */
export function unreadableOf(access: ResourceAccess, used: Iterable<string>): string[] {
  const readable = access.readable();
  return readable ? [...used].filter((name) => !readable.has(name)) : [];
}
