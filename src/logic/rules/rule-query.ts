import { Decimal } from 'decimal.js';
import type { KeyValues } from '../../data/primary-key.js';
import type { Resource, ResourceColumn } from '../../data/resource-registry.js';
import type { Params, RowStore } from '../../data/row-store.js';
import type { CanonicalRow, CanonicalValue } from '../../data/value-codec.js';
import type { RuleRow } from '../rule-dsl.js';
import { fromRuleValue } from '../rule-values.js';
import type { UntypedRuleQuery } from '../rule-actions.js';

function columnOf(resource: Resource, name: string): ResourceColumn {
  const column = resource.columnsByName.get(name);
  if (!column) throw new Error(`${resource.name} has no attribute "${name}"`);
  return column;
}

/** The SQL condition of a rule query's `where` (equalities; null is IS NULL), its values bound in `params`. */
export function queryCondition(store: RowStore, resource: Resource, where: UntypedRuleQuery['where'], params: Params): string {
  const conditions = Object.entries(where ?? {})
    .filter(([, value]) => value !== undefined)
    .map(([name, value]) => {
      const column = columnOf(resource, name);
      const canonical = fromRuleValue(column, value);
      const sql = `${store.q('t')}.${store.q(column.name)}`;
      return canonical === null ? `${sql} IS NULL` : `${sql} = ${store.compared(column, canonical, params)}`;
    });
  return conditions.length > 0 ? conditions.join(' AND ') : '1 = 1';
}

/** The attributes a rule query orders by, checked: `['order_number']`, `['-amount_total', 'order_number']`. */
export function orderColumns(resource: Resource, order: readonly string[] = []): Array<{ column: ResourceColumn; descending: boolean }> {
  return order.map((entry) => {
    const descending = entry.startsWith('-');
    return { column: columnOf(resource, descending ? entry.slice(1) : entry), descending };
  });
}

function compare(column: ResourceColumn, a: CanonicalValue, b: CanonicalValue): number {
  if (a === null) return b === null ? 0 : -1;
  if (b === null) return 1;
  if (column.kind === 'decimal' || column.kind === 'integer') return new Decimal(a as string | number).comparedTo(b as string | number);
  if (column.kind === 'boolean') return Number(a) - Number(b);
  const [x, y] = [String(a), String(b)];
  return x < y ? -1 : x > y ? 1 : 0;
}

/** Rows in the query's order (nulls first ascending), then by primary key; at most `limit` of them. */
export function ordered(resource: Resource, rows: CanonicalRow[], query: UntypedRuleQuery): CanonicalRow[] {
  const by = [...orderColumns(resource, query.order), ...resource.primaryKey.map((column) => ({ column, descending: false }))];
  const sorted = [...rows].sort((a, b) => {
    for (const { column, descending } of by) {
      const c = compare(column, a[column.name] ?? null, b[column.name] ?? null);
      if (c !== 0) return descending ? -c : c;
    }
    return 0;
  });
  return query.limit === undefined ? sorted : sorted.slice(0, Math.max(0, query.limit));
}

/** The primary key of the row rule code names by an object holding its key attributes (a row will do). */
export function ruleKey(resource: Resource, key: RuleRow): KeyValues {
  return resource.primaryKey.map((column) => {
    const value = key[column.name] as unknown;
    if (value === undefined || value === null) throw new Error(`a key of ${resource.name} needs "${column.name}"`);
    return fromRuleValue(column, value);
  });
}
