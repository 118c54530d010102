/**
 * How MySQL/MariaDB and PostgreSQL refuse a value for its column: too long, out of range, not
 * a valid date, an invalid character or number text. Tessera checks every value against the
 * entity metadata before any SQL (resources/value-codec.ts), so one of these means the table
 * holds less than its entity says (a column narrowed by hand, a migration the entity does not
 * follow): still the request's value that does not fit, so 400 / 4000 rather than a 500.
 * SQLite refuses none of them.
 */
const POSTGRES_CODES = new Set([
  '22001', // string_data_right_truncation: too long for varchar(n)
  '22003', // numeric_value_out_of_range
  '22007', // invalid_datetime_format
  '22008', // datetime_field_overflow
  '22021', // character_not_in_repertoire (NUL)
  '22P02', // invalid_text_representation, e.g. 2.5 for an integer
]);
const MYSQL_CODES = new Set([
  'ER_DATA_TOO_LONG',
  'ER_WARN_DATA_OUT_OF_RANGE',
  'ER_TRUNCATED_WRONG_VALUE',
  'ER_TRUNCATED_WRONG_VALUE_FOR_FIELD',
]);
const MYSQL_ERRNOS = new Set([1406, 1264, 1292, 1366]);

export function isValueRefused(code: string | undefined, errno: number | undefined): boolean {
  return (code !== undefined && (POSTGRES_CODES.has(code) || MYSQL_CODES.has(code))) || (errno !== undefined && MYSQL_ERRNOS.has(errno));
}
