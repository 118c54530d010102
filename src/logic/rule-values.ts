import { Decimal } from 'decimal.js';
import type { Resource, ResourceColumn } from '../resources/resource-registry.js';
import { canonicalDecimal, fromRequest, type CanonicalRow, type CanonicalValue } from '../resources/value-codec.js';
import type { RuleRow } from './rule-dsl.js';

/** A canonical row as rule code sees it: decimals as `Decimal`. */
export function toRuleRow(resource: Resource, row: CanonicalRow): RuleRow {
  const view: RuleRow = {};
  for (const column of resource.columns) {
    const value = row[column.name] ?? null;
    view[column.name] = column.kind === 'decimal' && value !== null ? new Decimal(value as string) : value;
  }
  return view;
}

/** A value computed by rule code, made canonical for the column (decimals rounded to its scale). */
export function fromRuleValue(column: ResourceColumn, value: unknown): CanonicalValue {
  if (value === null || value === undefined) return null;
  if (column.kind === 'decimal') {
    if (Decimal.isDecimal(value) || typeof value === 'number' || typeof value === 'string') {
      return canonicalDecimal(value as Decimal.Value, column.scale);
    }
  }
  if (column.kind === 'integer' && Decimal.isDecimal(value)) return (value as Decimal).toNumber();
  if (value instanceof Date) return fromRequest(column, value.toISOString());
  return fromRequest({ ...column, nullable: true }, value);
}

/** Canonical values of a rule row, for the columns of the resource that it sets. */
export function fromRuleRow(resource: Resource, view: RuleRow): CanonicalRow {
  const row: CanonicalRow = {};
  for (const column of resource.columns) {
    if (column.name in view && view[column.name] !== undefined) row[column.name] = fromRuleValue(column, view[column.name]);
  }
  return row;
}

/** What a constraint message shows instead of a value its reader may not see. */
export const HIDDEN_VALUE = '(hidden)';

/** Fills `{attr}` placeholders of a constraint message with the row's values; those `visible` refuses read `(hidden)`. */
export function interpolate(message: string, resource: Resource, row: CanonicalRow, visible: (column: string) => boolean = () => true): string {
  return message.replace(/\{([A-Za-z0-9_]+)\}/g, (whole, name: string) => {
    const column = resource.columnsByName.get(name);
    if (!column) return whole;
    if (!visible(name)) return HIDDEN_VALUE;
    const value = row[name];
    return value === null || value === undefined ? 'null' : column.kind === 'decimal' ? new Decimal(value as string).toString() : String(value);
  });
}
