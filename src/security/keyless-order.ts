import type { Resource, ResourceColumn, ResourceRegistry } from '../data/resource-registry.js';
import type { Params } from '../data/row-store.js';
import { quoteIdentifier } from '../data/sql-dialect.js';
import type { Dialect } from '../database/dialect.js';
import { CallerColumnResolver } from './caller-column-resolver.js';
import { roleFilterSql, type ResourceAccess } from './resource-access.js';

/**
 * ORDER BY terms for one column that sort equal values only when they are equal: a JSON value
 * by its text (PostgreSQL's json has no order of its own), text also by its bytes where the
 * column's collation may call different strings equal (MySQL/MariaDB `_ci`, SQLite NOCASE).
 */
function exactTerms(sql: string, column: ResourceColumn, dialect: Dialect): string[] {
  if (column.kind === 'json') {
    if (dialect === 'postgres') return [`CAST(${sql} AS text) ASC`];
    if (dialect === 'mysql') return [`CAST(${sql} AS CHAR) ASC`];
    return [`${sql} ASC`];
  }
  if (column.kind !== 'string') return [`${sql} ASC`];
  if (dialect === 'mysql') return [`${sql} ASC`, `CAST(${sql} AS BINARY) ASC`];
  if (dialect === 'sqlite') return [`${sql} COLLATE BINARY ASC`];
  return [`${sql} ASC`];
}

/**
 * What completes every order of a view without a key, so that its pages are stable: every
 * column. First the columns the caller may read, as the caller's filters see them (NULL where a
 * row-filtered grant hides one); then, when the caller's grants show different columns in
 * different rows, which grants admit each row; then every column as stored. Rows the first two
 * parts cannot tell apart look the same to the caller (the same columns with the same values),
 * so the stored values that order them reveal nothing the caller could not read. Rows equal in
 * every column are equal: their order does not matter.
 */
export function keylessOrder(
  resource: Resource,
  access: ResourceAccess,
  registry: ResourceRegistry,
  dialect: Dialect,
  params: Params,
): string[] {
  const q = (name: string): string => quoteIdentifier(dialect, name);
  const stored = (column: ResourceColumn): string => `${q('t')}.${q(column.name)}`;
  const caller = new CallerColumnResolver(access, registry, dialect);
  const terms: string[] = [];
  // Columns the caller reads as stored in every row need no second term below.
  const plain = new Set<ResourceColumn>();
  for (const column of resource.columns) {
    const resolved = caller.resolve([column.name]);
    if (!resolved) continue;
    if (!resolved.render && resolved.sql === stored(column)) plain.add(column);
    terms.push(...exactTerms(resolved.render ? resolved.render(params) : resolved.sql, column, dialect));
  }
  if (access.columnsVaryByRow) {
    for (const grant of access.grantsFor('READ')) {
      if (grant.filter) {
        const admits = access.grantPredicate(grant, roleFilterSql(resource, registry, dialect, params));
        terms.push(`CASE WHEN ${admits} THEN 1 ELSE 0 END ASC`);
      }
    }
  }
  for (const column of resource.columns) if (!plain.has(column)) terms.push(...exactTerms(stored(column), column, dialect));
  return terms;
}
