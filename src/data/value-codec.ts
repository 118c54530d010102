import { Decimal } from 'decimal.js';
import { ApiError } from '../common/api-error.js';
import { ErrorCode } from '../common/error-codes.js';
import { MAX_YEAR, MIN_YEAR, parseDate, parseDateTime } from './date-values.js';
import type { ColumnKind } from './column-kind.js';
import type { Dialect } from '../database/dialect.js';
import type { ResourceColumn } from './resource-registry.js';

/**
 * Values inside Tessera are canonical and the same on every database:
 * string → string; integer → number; decimal → string with the column's scale ("10.5000");
 * boolean → boolean; date → "YYYY-MM-DD"; datetime → "YYYY-MM-DDTHH:mm:ss.sssZ" (UTC);
 * json → the value's JSON text, as JSON.stringify writes it; binary → the bytes in standard base64,
 * padded (one text per byte string, so checksums and comparisons are over the bytes).
 * Checksums, comparisons and rules work on these; JSON output renders decimals as numbers and
 * json values as the values they spell.
 */
export type CanonicalValue = string | number | boolean | null;
export type CanonicalRow = Record<string, CanonicalValue>;

const pad = (n: number, width = 2): string => String(n).padStart(width, '0');

function utcIso(ms: number): string {
  return new Date(ms).toISOString();
}

/** node-pg reads DATE and TIMESTAMP (without zone) as local wall time; undo that. */
function localWallClockToUtc(d: Date): number {
  return Date.UTC(d.getFullYear(), d.getMonth(), d.getDate(), d.getHours(), d.getMinutes(), d.getSeconds(), d.getMilliseconds());
}

/** A plain decimal numeral as databases print them: no exponent, no superfluous leading zero. */
const PLAIN_DECIMAL = /^-?(?:0|[1-9]\d*)(?:\.(\d+))?$/;

export function canonicalDecimal(value: Decimal.Value, scale: number | undefined): string {
  // Fast path for what every read meets: a plain numeral with no more digits than the scale
  // only needs zeros appended (decimal.js gives the same string, at several times the cost).
  if (typeof value === 'string' && scale !== undefined) {
    const plain = PLAIN_DECIMAL.exec(value);
    const digits = plain?.[1]?.length ?? 0;
    if (plain && digits <= scale && !/^-0(\.0*)?$/.test(value)) {
      return scale === 0 ? value : `${value}${digits === 0 ? '.' : ''}${'0'.repeat(scale - digits)}`;
    }
  }
  const d = new Decimal(value);
  return scale === undefined ? d.toString() : d.toFixed(scale);
}

const NEGATIVE_OR_POSITIVE_ZERO = /^-?0(\.0*)?$/;

/**
 * Whether two decimal texts hold the same value. Plain numerals with as many fraction digits
 * (two canonical values of one column) are the same value exactly when they are the same
 * text, zero's sign aside, so the common case needs no parsing; anything else goes to decimal.js.
 */
export function sameDecimal(a: string, b: string): boolean {
  if (a === b) return true;
  const x = PLAIN_DECIMAL.exec(a);
  const y = x && PLAIN_DECIMAL.exec(b);
  if (x && y && (x[1]?.length ?? 0) === (y[1]?.length ?? 0) && !NEGATIVE_OR_POSITIVE_ZERO.test(a)) return false;
  return new Decimal(a).equals(b);
}

/** What the drivers hand back for a column: text, numbers, booleans, dates, or bytes. */
export type DriverValue = string | number | bigint | boolean | Date | Buffer;

/** Converts what a driver returned for a column into the canonical value. */
export function fromDatabase(column: ResourceColumn, raw: DriverValue | null | undefined, dialect: Dialect): CanonicalValue {
  if (raw === null || raw === undefined) return null;
  switch (column.kind) {
    case 'string':
      return String(raw);
    case 'integer': {
      const n = typeof raw === 'number' ? raw : Number(raw);
      return Number.isSafeInteger(n) ? n : String(raw);
    }
    case 'decimal':
      // SQLite hands back a double; its shortest decimal form is the value that was stored.
      return canonicalDecimal(String(raw), column.scale);
    case 'boolean':
      return raw === true || raw === 1 || raw === '1' || raw === 't' || raw === 'true';
    case 'date': {
      if (raw instanceof Date) {
        const ms = dialect === 'postgres' ? localWallClockToUtc(raw) : raw.getTime();
        return utcIso(ms).slice(0, 10);
      }
      return String(raw).slice(0, 10);
    }
    case 'datetime': {
      if (raw instanceof Date) return utcIso(dialect === 'postgres' ? localWallClockToUtc(raw) : raw.getTime());
      const text = String(raw).replace(' ', 'T');
      const withZone = /[zZ]|[+-]\d\d:?\d\d$/.test(text) ? text : `${text}Z`;
      const ms = Date.parse(withZone);
      return Number.isNaN(ms) ? String(raw) : utcIso(ms);
    }
    case 'json':
      return jsonFromDatabase(raw);
    case 'binary':
      // SQLite keeps text written into a blob column as text: its bytes are its UTF-8.
      return (Buffer.isBuffer(raw) ? raw : Buffer.from(String(raw), 'utf8')).toString('base64');
  }
}

/**
 * PostgreSQL's driver parses json, jsonb and arrays; MySQL's parses JSON; MariaDB (whose JSON is
 * text) and SQLite hand back the text. Text that is no JSON (SQLite keeps whatever was written)
 * is served as the JSON string it is.
 */
function jsonFromDatabase(raw: DriverValue | object): string {
  if (typeof raw !== 'string' && !Buffer.isBuffer(raw)) return JSON.stringify(raw);
  const text = String(raw);
  try {
    return JSON.stringify(JSON.parse(text));
  } catch {
    return JSON.stringify(text);
  }
}

/** Converts a canonical value into the parameter a driver binds for the column. */
export function toDatabase(column: ResourceColumn, value: CanonicalValue, dialect: Dialect): unknown {
  if (value === null) return null;
  switch (column.kind) {
    case 'boolean':
      return dialect === 'postgres' ? value === true : value === true ? 1 : 0;
    case 'datetime': {
      if (dialect === 'postgres') return value;
      const d = new Date(String(value));
      return `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())} ${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}.${pad(d.getUTCMilliseconds(), 3)}`;
    }
    case 'binary':
      return Buffer.from(String(value), 'base64');
    case 'json':
      // An array's driver takes a JavaScript array (node-pg writes it as an array literal); JSON columns take the text.
      return column.items !== undefined ? (JSON.parse(String(value)) as unknown) : value;
    default:
      return value;
  }
}

/** A value refused for its column: 400 / 4000 naming it; `why` says what is wrong ("is out of range for …"). */
export class ColumnValueError extends ApiError {
  constructor(
    readonly column: ResourceColumn,
    readonly why: string,
  ) {
    super(ErrorCode.BAD_REQUEST, `Column "${column.name}" ${why}.`);
  }
}

function bad(column: ResourceColumn, why: string): ColumnValueError {
  return new ColumnValueError(column, why);
}

const INTEGER_TEXT = /^-?\d+$/;
const DECIMAL_TEXT = /^(-?\d+)(?:\.(\d+))?$/;

/**
 * The range an integer column takes on every database: its declared width (SQLite would store
 * any 64-bit value in an `integer` that MySQL and PostgreSQL keep to 32 bits). An unsigned column
 * (MySQL only) takes what both of its readings share: from 0 to the signed maximum. A 64-bit
 * column takes JavaScript's exact integers (±(2^53 - 1)): SQLite's driver reads integers as
 * doubles, so a larger value would not come back as written.
 */
export function integerRange(column: ResourceColumn): { min: number; max: number } {
  const bits = column.integerBits ?? 64;
  const max = bits >= 64 ? Number.MAX_SAFE_INTEGER : 2 ** (bits - 1) - 1;
  return { min: column.unsigned ? 0 : -max - (bits >= 64 ? 0 : 1), max };
}

function integerFromRequest(column: ResourceColumn, value: unknown): number {
  // A JSON number past the double range (1e400) parses as Infinity: refused as such, not as out of range.
  if (typeof value === 'number' && !Number.isFinite(value)) throw bad(column, NOT_FINITE);
  const n = typeof value === 'number' ? value : typeof value === 'string' && INTEGER_TEXT.test(value) ? Number(value) : NaN;
  if (Number.isNaN(n) || !Number.isInteger(n)) throw bad(column, 'must be an integer');
  const { min, max } = integerRange(column);
  if (!(n >= min && n <= max)) {
    const width = column.integerBits && column.integerBits < 64 ? `a ${column.integerBits}-bit integer` : 'an integer';
    throw bad(column, `is out of range for ${width} (${min} to ${max})`);
  }
  return n + 0; // never -0
}

/** String.prototype.isWellFormed (Node 20; ES2024, past this project's `lib`): no lone surrogate. */
export function isWellFormed(text: string): boolean {
  return (text as string & { isWellFormed(): boolean }).isWellFormed();
}

const NOT_FINITE = 'must be a finite number';
const EXPONENT_TEXT = /^-?(\d+)(?:\.(\d+))?e([+-]?\d+)$/i;
/**
 * Past any column's range whatever the digits before it: a request body holds at most a few
 * million digits, so a value with a larger exponent cannot come back into range, and decimal.js
 * (which turns exponents past 9e15 into Infinity or zero) never sees one.
 */
const MAX_EXPONENT = 100_000_000;

/**
 * A decimal value from a request, checked against the column before any digit string is built:
 * the range is decided on decimal.js's exponent (`e`), so "1e100000000" costs no more than "1".
 */
function decimalFromRequest(column: ResourceColumn, value: unknown): string {
  if (typeof value === 'number' && !Number.isFinite(value)) throw bad(column, NOT_FINITE);
  const text = typeof value === 'number' ? String(value) : typeof value === 'string' ? value.trim() : '';
  const plain = DECIMAL_TEXT.exec(text);
  const exponential = plain ? null : EXPONENT_TEXT.exec(text);
  if (!plain && !exponential) throw bad(column, /^[+-]?(infinity|nan)$/i.test(text) ? NOT_FINITE : 'must be a number');
  if (exponential && /[1-9]/.test(`${exponential[1]}${exponential[2] ?? ''}`) && Math.abs(Number(exponential[3])) > MAX_EXPONENT) {
    throw bad(column, outOfRange(column));
  }
  // A plain numeral is measured as written (what decimal.js would count, without parsing it).
  const d = plain ? undefined : new Decimal(text);
  if (d && !d.isFinite()) throw bad(column, NOT_FINITE);
  const decimalPlaces = plain ? (plain[2] ?? '').replace(/0+$/, '').length : d!.decimalPlaces();
  if (column.scale !== undefined && decimalPlaces > column.scale) {
    throw bad(column, `has more than ${column.scale} decimal places`);
  }
  if (column.precision !== undefined && column.scale !== undefined) {
    // decimal.js's `e` is the exponent of the leading digit: e + 1 digits before the point.
    const integerDigits = plain ? plain[1]!.replace(/^-?0*/, '').length : d!.isZero() || d!.e < 0 ? 0 : d!.e + 1;
    if (integerDigits > column.precision - column.scale) throw bad(column, outOfRange(column));
  } else {
    // No declared precision: what a double holds (SQLite stores such values as doubles), neither
    // overflowing to Infinity nor underflowing to zero.
    const n = Number(text);
    if (!Number.isFinite(n) || (n === 0 && /[1-9]/.test(text.replace(/e.*$/i, '')))) throw bad(column, outOfRange(column));
  }
  return canonicalDecimal(d ?? text, column.scale);
}

function outOfRange(column: ResourceColumn): string {
  return column.precision !== undefined && column.scale !== undefined
    ? `is out of range for decimal(${column.precision},${column.scale})`
    : 'is out of range for a double-precision number';
}

/** Checks a value from a request body against the column and returns it canonical, or 400 / 4000 naming the column. */
export function fromRequest(column: ResourceColumn, value: unknown): CanonicalValue {
  if (value === null) {
    if (!column.nullable) throw bad(column, 'may not be null');
    return null;
  }
  switch (column.kind) {
    case 'string':
      if (typeof value !== 'string') throw bad(column, 'must be a string');
      // PostgreSQL cannot store NUL at all; the others would keep what it cannot.
      if (value.includes('\u0000')) throw bad(column, 'may not contain the NUL character');
      // A lone surrogate is not a character: SQLite stores it as three U+FFFD, MySQL and
      // PostgreSQL as one, so lengths and keys would differ between databases.
      if (!isWellFormed(value)) throw bad(column, 'is not well-formed Unicode (it holds a lone surrogate)');
      // An empty key would make the object's href the collection's URL.
      if (value === '' && column.primary) throw bad(column, 'is part of the primary key and may not be empty');
      // Lengths count characters (code points), as MySQL and PostgreSQL do; no code point is
      // longer than two UTF-16 units, so only a string longer in units needs counting.
      if (column.length !== undefined && value.length > column.length && [...value].length > column.length) {
        throw bad(column, `is longer than ${column.length} characters`);
      }
      return column.values ? oneOfTheValues(column, column.values, value) : value;
    case 'integer':
      return integerFromRequest(column, value);
    case 'json':
      return jsonFromRequest(column, value);
    case 'binary':
      return binaryFromRequest(column, value);
    case 'decimal':
      return decimalFromRequest(column, value);
    case 'boolean':
      if (typeof value !== 'boolean') throw bad(column, 'must be true or false');
      return value;
    case 'date': {
      const day = typeof value === 'string' ? parseDate(value) : undefined;
      if (day === undefined) throw bad(column, `must be a date that exists, written YYYY-MM-DD (years ${MIN_YEAR} to ${MAX_YEAR})`);
      return day;
    }
    case 'datetime': {
      const instant = typeof value === 'string' ? parseDateTime(value, column.precision ?? 0) : undefined;
      if (instant === undefined) {
        throw bad(column, `must be an ISO 8601 date-time that exists, e.g. 2026-01-31T12:00:00Z (years ${MIN_YEAR} to ${MAX_YEAR}, hours 00 to 23)`);
      }
      return instant;
    }
  }
}

/**
 * An ENUM's value must be one of its values; a SET's a comma-separated list of its members, each
 * at most once, put in the order the SET declares them (as MySQL/MariaDB store it, so the value
 * answered is the value stored).
 */
function oneOfTheValues(column: ResourceColumn, values: readonly string[], value: string): string {
  const listed = values.map((v) => JSON.stringify(v)).join(', ');
  if (!column.valueSet) {
    if (!values.includes(value)) throw bad(column, `must be one of ${listed}`);
    return value;
  }
  const members = value === '' ? [] : value.split(',');
  const unknown = members.filter((m) => !values.includes(m));
  if (unknown.length > 0) throw bad(column, `must be a comma-separated list of ${listed} (not ${JSON.stringify(unknown[0])})`);
  return values.filter((v) => members.includes(v)).join(',');
}

const ITEM_KINDS: Record<NonNullable<ResourceColumn['items']>, { test: (v: unknown) => boolean; what: string }> = {
  string: { test: (v) => typeof v === 'string' && !v.includes('\u0000') && isWellFormed(v), what: 'strings' },
  integer: { test: (v) => typeof v === 'number' && Number.isSafeInteger(v), what: 'integers' },
  boolean: { test: (v) => typeof v === 'boolean', what: 'true/false values' },
};

/** Any JSON value (a JSON null is SQL NULL); an array column's value is an array of its kind of values, or nulls. */
function jsonFromRequest(column: ResourceColumn, value: unknown): string {
  if (column.items !== undefined) {
    const { test, what } = ITEM_KINDS[column.items];
    if (!Array.isArray(value) || !value.every((item) => item === null || test(item))) {
      throw bad(column, `must be an array of ${what} (or nulls)`);
    }
  }
  // As in text columns: PostgreSQL refuses the NUL character, and JSON.stringify writes a lone surrogate as an escape each database reads its own way.
  if (anyText(value, (text) => text.includes('\u0000'))) throw bad(column, 'may not contain the NUL character');
  if (anyText(value, (text) => !isWellFormed(text))) throw bad(column, 'is not well-formed Unicode (it holds a lone surrogate)');
  return JSON.stringify(value);
}

/** Whether any string of a JSON value, property names included, at any depth, passes `test`. */
function anyText(value: unknown, test: (text: string) => boolean): boolean {
  if (typeof value === 'string') return test(value);
  if (Array.isArray(value)) return value.some((item) => anyText(item, test));
  if (typeof value === 'object' && value !== null) return Object.entries(value).some(([key, item]) => test(key) || anyText(item, test));
  return false;
}

/** What LAC's `b64:` prefix marks: the rest of the string is the bytes in base64 (its CLI's `putdata` sends a file so). */
export const BASE64_PREFIX = 'b64:';
/** Standard base64, padded, nothing else (no white space, no URL-safe alphabet). */
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;
const BINARY_FORMS = 'must be bytes in base64, written "b64:<base64>" (or as read: {"type": "base64", "value": "<base64>"})';

/** How many bytes a canonical (padded) base64 text holds. */
export function base64Bytes(text: string): number {
  return (text.length / 4) * 3 - (text.endsWith('==') ? 2 : text.endsWith('=') ? 1 : 0);
}

/**
 * Bytes from a request, as LAC takes them: `"b64:<base64>"`, or the object a GET answers
 * (`{"type": "base64", "value": …}`, its `length` checked when given), so that a row read can be
 * sent back. A link to the value (`url`, past `inlinelimit`) holds no bytes: refused, naming the
 * forms. The decoded size is held to the column's (its declared length, or its type's).
 */
function binaryFromRequest(column: ResourceColumn, value: unknown): string {
  let text: string | undefined;
  let declared: unknown;
  if (typeof value === 'string' && value.startsWith(BASE64_PREFIX)) {
    text = value.slice(BASE64_PREFIX.length);
  } else if (typeof value === 'object' && value !== null && !Array.isArray(value)) {
    const object = value as Record<string, unknown>;
    if (object.type === 'base64' && typeof object.value === 'string' && Object.keys(object).every((k) => k === 'type' || k === 'value' || k === 'length')) {
      text = object.value;
      declared = object.length;
    } else if (object.type === 'base64' && object.url !== undefined) {
      throw bad(column, `holds a link to its value, not the bytes: ${BINARY_FORMS}, or leave it out to keep it`);
    }
  }
  if (text === undefined) throw bad(column, BINARY_FORMS);
  if (!BASE64.test(text)) throw bad(column, 'is not standard base64 (A-Z, a-z, 0-9, + and /, padded with =, no white space)');
  const bytes = base64Bytes(text);
  if (declared !== undefined && declared !== bytes) throw bad(column, `says it holds ${JSON.stringify(declared)} bytes, but its value holds ${bytes}`);
  if (column.length !== undefined && bytes > column.length) throw bad(column, `is longer than ${column.length} bytes (${bytes})`);
  // One text per byte string: unused bits of the last character set to zero.
  return Buffer.from(text, 'base64').toString('base64');
}

/**
 * The JSON form of a canonical value: decimals become numbers (exact to 15 significant digits), json values what they spell,
 * bytes LAC's object `{"type": "base64", "length": <bytes>, "value": <base64>}` (see `inlined` for the link past `inlinelimit`).
 */
export function toJson(column: ResourceColumn, value: CanonicalValue): unknown {
  if (value !== null && column.kind === 'decimal') return Number(value);
  if (value !== null && column.kind === 'json') return JSON.parse(value as string) as unknown;
  if (value !== null && column.kind === 'binary') return { type: 'base64', length: base64Bytes(value as string), value };
  return value;
}

/** Whether two canonical values of a column are the same value (decimals compared by value: 1.50 is 1.5). */
export function sameValue(kind: ColumnKind, a: CanonicalValue | undefined, b: CanonicalValue | undefined): boolean {
  const x = a ?? null;
  const y = b ?? null;
  if (x === null || y === null || x === y) return x === y;
  return kind === 'decimal' && sameDecimal(x as string, y as string);
}
