/**
 * RFC 4180 CSV of flat records: a header row, then one line per record, CRLF after each line;
 * a field holding a comma, a double quote, CR or LF is quoted, its quotes doubled.
 *
 * Values are written as JSON gives them: a number or boolean as its JSON text, a string as
 * itself, null (or a missing attribute) as an empty field, anything else (an object, such as
 * `inlinelimit`'s link to a long value) as its JSON text.
 *
 * Formula injection (OWASP, "CSV Injection"): a spreadsheet runs a cell that starts with `=`,
 * `+`, `-`, `@`, a tab or a carriage return as a formula. Such a text field, header included,
 * is written with a `'` in front (and quoted), so it is shown, not run. A number is never
 * prefixed (`-5` stays a number), nor is a text that is exactly a number (a decimal column's
 * `-12.50`): neither can be a formula.
 */
export function toCsv(header: readonly string[], records: Iterable<Record<string, unknown>>): string {
  const lines = [header.map((name) => field(name)).join(',')];
  for (const record of records) lines.push(header.map((name) => field(record[name])).join(','));
  return lines.map((line) => `${line}\r\n`).join('');
}

const FORMULA_START = /^[=+\-@\t\r]/;
const NUMBER_LITERAL = /^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/;
const NEEDS_QUOTES = /[",\r\n]/;

/** One field as written. */
export function field(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint') return String(value);
  let text = typeof value === 'string' ? value : JSON.stringify(value);
  if (FORMULA_START.test(text) && !NUMBER_LITERAL.test(text)) text = `'${text}`;
  else if (!NEEDS_QUOTES.test(text)) return text;
  return `"${text.replaceAll('"', '""')}"`;
}
