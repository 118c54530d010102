import type { ColumnKind } from '../../data/column-kind.js';
import type { ResourceColumn } from '../../data/resource-registry.js';
import { fromDatabase, toJson, type DriverValue } from '../../data/value-codec.js';
import type { Dialect } from '../../database/dialect.js';
import type { ResultKind, ResultSet } from '../../database/raw-results.js';

/** A stand-in column of each kind, for the value codec (a result column has no table column behind it). */
const COLUMNS = new Map<ColumnKind, ResourceColumn>();

function columnOf(kind: ColumnKind): ResourceColumn {
  let column = COLUMNS.get(kind);
  if (!column) {
    column = { name: '', propertyName: '', kind, nullable: true, generated: false, hasDefault: false, primary: false, unique: false };
    COLUMNS.set(kind, column);
  }
  return column;
}

/**
 * One value of a SQL resource's or procedure's result, as table values are answered, by what the driver says
 * the column holds: whole numbers and decimals as JSON numbers (a whole number past 2^53 as its text), dates
 * `YYYY-MM-DD`, date-times ISO 8601 in UTC, JSON as the value it spells, bytes as LAC's base64 object; a kind the
 * driver does not tell is sent as the driver gives it (a number, text, a date as ISO 8601, bytes as base64 text).
 */
function encoded(kind: ResultKind | undefined, raw: unknown, dialect: Dialect): unknown {
  if (raw === null || raw === undefined) return null;
  switch (kind) {
    case undefined:
    case 'float':
      if (typeof raw === 'bigint') return Number.isSafeInteger(Number(raw)) ? Number(raw) : String(raw);
      if (raw instanceof Date) return raw.toISOString();
      if (Buffer.isBuffer(raw)) return raw.toString('base64');
      return kind === 'float' && typeof raw === 'string' ? Number(raw) : raw;
    default: {
      const column = columnOf(kind);
      return toJson(column, fromDatabase(column, raw as DriverValue, dialect));
    }
  }
}

/** A result set's rows as JSON objects (see `encoded`). */
export function encodeRows(set: ResultSet, dialect: Dialect): Array<Record<string, unknown>> {
  return set.rows.map((row) => {
    const out: Record<string, unknown> = {};
    for (const [name, value] of Object.entries(row)) out[name] = encoded(set.kinds.get(name), value, dialect);
    return out;
  });
}
