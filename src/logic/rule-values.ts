import { Decimal } from 'decimal.js';
import { ApiError } from '../common/api-error.js';
import { ErrorCode } from '../common/error-codes.js';
import type { Resource, ResourceColumn } from '../data/resource-registry.js';
import { canonicalDecimal, ColumnValueError, fromRequest, type CanonicalRow, type CanonicalValue } from '../data/value-codec.js';
import type { RuleRow } from './rule-dsl.js';

/** A canonical row as rule code sees it: decimals as `Decimal`; typed as a row of `T` when the caller knows `resource` is `T`'s. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- without a type argument, the untyped row (see RuleRow)
export function toRuleRow<T = any>(resource: Resource, row: CanonicalRow): RuleRow<T> {
  const view: RuleRow = {};
  for (const column of resource.columns) {
    const value = row[column.name] ?? null;
    view[column.name] =
      value === null
        ? null
        : column.kind === 'decimal'
          ? new Decimal(value as string)
          : column.kind === 'json'
            ? (JSON.parse(value as string) as unknown)
            : value;
  }
  return view as RuleRow<T>;
}

/**
 * A value computed by rule code, made canonical for the column (decimals rounded to its scale)
 * and held to the column's range like a client's value: one out of range, or of the wrong kind,
 * is 400 / 4000 naming the column and its resource, never a database error.
 */
export function fromRuleValue(column: ResourceColumn, value: unknown): CanonicalValue {
  if (value === null || value === undefined) return null;
  try {
    return ruleValue(column, value);
  } catch (error) {
    if (!(error instanceof ColumnValueError)) throw error;
    const where = column.resource ? ` of ${column.resource}` : '';
    throw new ApiError(ErrorCode.BAD_REQUEST, `The value the rules computed for column "${column.name}"${where} ${error.why}.`);
  }
}

function ruleValue(column: ResourceColumn, value: unknown): CanonicalValue {
  if (column.kind === 'decimal' && (Decimal.isDecimal(value) || typeof value === 'number' || typeof value === 'string')) {
    const d = asDecimal(value);
    // Rules may compute more places than the column keeps: rounded to its scale, not refused.
    // Rounding a huge value would build all its digits first; its exponent form is refused as
    // out of range at no cost (no column holds a thousand integer digits).
    return fromRequest(column, d?.isFinite() && d.e <= 1000 ? canonicalDecimal(d, column.scale) : String(d ?? value));
  }
  if (column.kind === 'integer' && Decimal.isDecimal(value)) {
    const d = value;
    // Past 20 digits no integer column holds it: a stand-in of that size gets the column's own
    // out-of-range answer without writing out all the digits of, say, 1e100000000.
    if (d.isFinite() && d.e >= 20) return fromRequest(column, d.isNegative() ? -1e20 : 1e20);
    return fromRequest(column, d.isInteger() ? d.toFixed(0) : d.toString());
  }
  if (value instanceof Date) {
    if (Number.isNaN(value.getTime())) throw new ColumnValueError(column, 'cannot hold an invalid Date');
    return fromRequest(column, column.kind === 'date' ? value.toISOString().slice(0, 10) : value.toISOString());
  }
  return fromRequest(column, value);
}

function asDecimal(value: Decimal.Value): Decimal | undefined {
  if (Decimal.isDecimal(value)) return value;
  try {
    return new Decimal(value);
  } catch {
    return undefined;
  }
}

/** Canonical values of a rule row, for the columns of the resource that it sets. */
export function fromRuleRow(resource: Resource, view: RuleRow): CanonicalRow {
  const row: CanonicalRow = {};
  for (const column of resource.columns) {
    if (column.name in view && view[column.name] !== undefined) row[column.name] = fromRuleValue(column, view[column.name]);
  }
  return row;
}
