import { isCalendarDate, isTimeOfDay, zoneOffsetMinutes } from '../date-values.js';
import type { BooleanLiteral, NumberLiteral, StringLiteral } from './ast.js';
import type { ColumnKind } from '../column-kind.js';
import type { CompileContext } from './compile-context.js';

/** A literal with a value of its own: what is left once nulls are handled and globals looked up. */
export type PlainLiteral = StringLiteral | NumberLiteral | BooleanLiteral;

export type Conversion = { ok: true; value: unknown } | { ok: false; expected: string };

const INTEGRAL = /^-?\d+(?:\.0+)?$/;
const NUMBER = /^-?\d+(?:\.\d+)?$/;
const DATETIME = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,6}))?)?(Z|z|[+-]\d{2}:?\d{2})?)?$/;

const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;
/** DECIMAL(65,30), MySQL's widest, is what MySQL compares decimals as (see `decimalPlaceholder`). */
const MAX_DECIMAL_INTEGER_DIGITS = 35;
const MAX_DECIMAL_FRACTION_DIGITS = 30;

/**
 * The value to bind for `literal` compared with a column of `kind`, or what the column expects.
 *
 * - integer: a whole number in the signed 64-bit range (`5.0` counts); bound as a JS number when
 *   it is a safe integer, else as its decimal text.
 * - decimal: any number literal, bound as the exact text written (never through a float); at
 *   most 35 digits before and 30 after the point.
 * - boolean: `true` / `false`; bound as 1 / 0 on SQLite and MySQL, true / false on PostgreSQL.
 * - date: a quoted `'YYYY-MM-DD'` naming a day that exists, years 1 to 9999 (values written
 *   take 1000 to 9999, but any of these may be compared with); bound as is.
 * - datetime: a quoted ISO 8601 date-time: `'YYYY-MM-DD'`, `'YYYY-MM-DD HH:MM'`, `'YYYY-MM-DD HH:MM:SS'`,
 *   a real day and time as for dates (hours 00 to 23, no leap second),
 *   with up to 6 fraction digits, `T` or a space between date and time, and an optional zone
 *   (`Z`, `+02:00`, `-0530`). Datetime columns hold UTC (as the resources' value codec writes
 *   them), so a zoned value is converted to UTC and one without a zone is taken as UTC. Bound
 *   as `'YYYY-MM-DD HH:MM:SS.fff'` (at least 3 fraction digits, the stored form, so that SQLite's
 *   text comparison orders it correctly), with `+00:00` appended on PostgreSQL.
 * - string: a quoted string, bound as is.
 */
export function convertLiteral(kind: ColumnKind, literal: PlainLiteral, dialect: CompileContext['dialect']): Conversion {
  switch (kind) {
    case 'string':
      return literal.kind === 'string' ? accept(literal.value) : expect('a quoted text value');
    case 'integer':
      return literal.kind === 'number' && INTEGRAL.test(literal.text) ? integerValue(literal.text) : expect('a whole number');
    case 'decimal':
      return literal.kind === 'number' ? decimalValue(literal.text) : expect('a number');
    case 'boolean':
      if (literal.kind !== 'boolean') return expect('true or false');
      return accept(dialect === 'postgres' ? literal.value : literal.value ? 1 : 0);
    case 'date':
      return literal.kind === 'string' ? dateTimeValue(literal.value, false, dialect) : expect("a date written 'YYYY-MM-DD'");
    case 'datetime':
      return literal.kind === 'string' ? dateTimeValue(literal.value, true, dialect) : expect("a date and time written 'YYYY-MM-DD HH:MM:SS'");
    case 'json':
    case 'binary':
      // Never reached: the compiler refuses JSON and binary columns in filters and sorts (see `resolveColumn`).
      return expect('no value: JSON and binary columns cannot be compared');
  }
}

/**
 * How a value bound for comparison with a column of `kind` is written in SQL. MySQL compares a
 * DECIMAL with a text parameter as doubles; the cast keeps it exact. PostgreSQL gives an untyped
 * parameter the column's own type, so a whole number past an `integer` column's 32-bit range
 * would fail the statement instead of matching nothing; as bigint it compares with every integer
 * width (and the column's index is still used).
 */
export function comparedPlaceholder(kind: ColumnKind, dialect: CompileContext['dialect'], placeholder: string): string {
  if (kind === 'decimal' && dialect === 'mysql') return `CAST(${placeholder} AS DECIMAL(65,30))`;
  if (kind === 'integer' && dialect === 'postgres') return `CAST(${placeholder} AS bigint)`;
  return placeholder;
}

/**
 * A global's value as a literal. Globals come from the user record or an identity provider,
 * where numbers and flags often arrive as text (and ids as numbers), so a global is read as
 * the column's kind when its value can be: text for string columns, numeric text for number
 * columns, 'true' / 'false' for boolean columns.
 */
export function literalOfGlobal(value: string | number | boolean, kind: ColumnKind): PlainLiteral {
  if (kind === 'string') return { kind: 'string', value: String(value) };
  if (typeof value === 'boolean') return { kind: 'boolean', value };
  if (typeof value === 'number') return { kind: 'number', text: String(value) };
  if ((kind === 'integer' || kind === 'decimal') && NUMBER.test(value)) return { kind: 'number', text: value };
  if (kind === 'boolean' && (value === 'true' || value === 'false')) return { kind: 'boolean', value: value === 'true' };
  return { kind: 'string', value };
}

function accept(value: unknown): Conversion {
  return { ok: true, value };
}

function expect(expected: string): Conversion {
  return { ok: false, expected };
}

function integerValue(text: string): Conversion {
  const whole = BigInt(text.split('.')[0]!);
  if (whole < INT64_MIN || whole > INT64_MAX) return expect('a whole number within the 64-bit range');
  return accept(Number.isSafeInteger(Number(whole)) ? Number(whole) : whole.toString());
}

function decimalValue(text: string): Conversion {
  if (!NUMBER.test(text)) return expect('a number');
  const [integerPart, fraction = ''] = text.replace('-', '').split('.');
  if (integerPart!.replace(/^0+/, '').length > MAX_DECIMAL_INTEGER_DIGITS || fraction.length > MAX_DECIMAL_FRACTION_DIGITS) {
    return expect(`a number of at most ${MAX_DECIMAL_INTEGER_DIGITS} digits before and ${MAX_DECIMAL_FRACTION_DIGITS} after the point`);
  }
  return accept(text);
}

function dateTimeValue(text: string, withTime: boolean, dialect: CompileContext['dialect']): Conversion {
  const failure = expect(withTime ? "a date and time written 'YYYY-MM-DD HH:MM:SS'" : "a date written 'YYYY-MM-DD'");
  const match = DATETIME.exec(text);
  if (!match) return failure;
  const [, year, month, day, hour = '00', minute = '00', second = '00', fraction = '', zone] = match;
  // Years from 1: a filter only compares, but PostgreSQL fails the statement on year 0 (it was a 500).
  if (Number(year) < 1 || !isCalendarDate(Number(year), Number(month), Number(day))) return failure;
  if (!isTimeOfDay(Number(hour), Number(minute), Number(second))) return failure;
  if (!withTime) return match[4] === undefined ? accept(`${year}-${month}-${day}`) : failure;

  const offsetMinutes = zoneOffsetMinutes(zone);
  if (offsetMinutes === undefined) return failure;
  const utc = new Date(0);
  utc.setUTCFullYear(Number(year), Number(month) - 1, Number(day));
  utc.setUTCHours(Number(hour), Number(minute) - offsetMinutes, Number(second));
  if (utc.getUTCFullYear() < 1 || utc.getUTCFullYear() > 9999) return failure;
  const pad = (n: number, width = 2): string => String(n).padStart(width, '0');
  const wallClock =
    `${pad(utc.getUTCFullYear(), 4)}-${pad(utc.getUTCMonth() + 1)}-${pad(utc.getUTCDate())} ` +
    `${pad(utc.getUTCHours())}:${pad(utc.getUTCMinutes())}:${pad(utc.getUTCSeconds())}.${fraction.padEnd(3, '0')}`;
  // The explicit zone makes a timestamptz column right whatever the session's time zone;
  // PostgreSQL ignores it for a timestamp column. SQLite compares text, MySQL would refuse it.
  return accept(dialect === 'postgres' ? `${wallClock}+00:00` : wallClock);
}
