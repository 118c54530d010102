/**
 * Placeholders in the messages of constraints and parent checks, filled with the failing row's
 * values (LAC's `{attr|format}`):
 *
 * ```
 * placeholder := "{" ["old."] attribute ["|" format] "}"
 * format      := "number" [":" places]      places 0..20: 1234.5 → 1,234.5 (number) or 1,234.50 (number:2)
 *              | "money" [":" symbol]       two places, grouped, the symbol (1 to 4 characters, none of {}|:) before it: $1,234.50
 *              | "date" [":" pattern]       YYYY MM DD HH mm ss (UTC) and the separators - / . , : space T; default YYYY-MM-DD
 * ```
 *
 * `old.` names the value before the change (see `constraint`); on an insert it reads `null`.
 * `number` and `money` apply to integer and decimal columns, `date` to date and date-time
 * columns. A placeholder with a format or `old.` must name a column of the row's resource, and
 * its format must be valid for it: the rule bank stops the boot otherwise (`messageProblems`).
 * A plain `{word}` that names no column is left as written. NULL reads `null` whatever the
 * format; a value the reader may not see reads `(hidden)` whatever the format.
 */
import { Decimal } from 'decimal.js';
import type { Resource, ResourceColumn } from '../data/resource-registry.js';
import type { CanonicalRow, CanonicalValue } from '../data/value-codec.js';

/** What a message shows instead of a value its reader may not see. */
export const HIDDEN_VALUE = '(hidden)';

const PLACEHOLDER = /\{(old\.)?([A-Za-z0-9_]+)(?:\|([^{}]*))?\}/g;
const DATE_TOKENS = /YYYY|MM|DD|HH|mm|ss/g;
const DATE_SEPARATORS = /^[-/.,: T]*$/;
const MONEY_SYMBOL = /^[^{}|:]{1,4}$/;

interface Placeholder {
  whole: string;
  old: boolean;
  name: string;
  /** The format as written after `|` (absent: the value as it is). */
  format?: string;
}

function placeholdersOf(template: string): Placeholder[] {
  return [...template.matchAll(PLACEHOLDER)].map((m) => ({ whole: m[0], old: m[1] !== undefined, name: m[2]!, format: m[3] }));
}

/** The columns a message names (its `old.` placeholders included), for judging what its reader may see. */
export function messageColumns(resource: Resource, template: string): string[] {
  return placeholdersOf(template)
    .filter((p) => resource.columnsByName.has(p.name))
    .map((p) => p.name);
}

/** True when the message names the column's current value (with or without a format). */
export function namesCurrent(template: string, column: string): boolean {
  return placeholdersOf(template).some((p) => !p.old && p.name === column);
}

/** What is wrong with a message's placeholders for rows of `resource` (empty: nothing). */
export function messageProblems(resource: Resource, template: string): string[] {
  const problems: string[] = [];
  for (const p of placeholdersOf(template)) {
    const column = resource.columnsByName.get(p.name);
    if (!column) {
      if (p.old || p.format !== undefined) problems.push(`message placeholder ${p.whole}: ${resource.name} has no attribute "${p.name}"`);
      continue;
    }
    if (p.format === undefined) continue;
    const why = formatProblem(column, p.format);
    if (why) problems.push(`message placeholder ${p.whole}: ${why}`);
  }
  return problems;
}

function formatProblem(column: ResourceColumn, format: string): string | undefined {
  const [kind, arg] = splitFormat(format);
  const numeric = column.kind === 'integer' || column.kind === 'decimal';
  switch (kind) {
    case 'number':
      if (!numeric) return `format "number" applies to integer and decimal columns; ${column.name} is ${column.kind}`;
      if (arg !== undefined && !(/^\d{1,2}$/.test(arg) && Number(arg) <= 20)) return `"number:${arg}": places must be 0 to 20`;
      return undefined;
    case 'money':
      if (!numeric) return `format "money" applies to integer and decimal columns; ${column.name} is ${column.kind}`;
      if (arg !== undefined && !MONEY_SYMBOL.test(arg)) return `"money:${arg}": the symbol must be 1 to 4 characters, none of {}|:`;
      return undefined;
    case 'date':
      if (column.kind !== 'date' && column.kind !== 'datetime') {
        return `format "date" applies to date and date-time columns; ${column.name} is ${column.kind}`;
      }
      if (arg !== undefined && (arg === '' || !DATE_SEPARATORS.test(arg.replace(DATE_TOKENS, '')))) {
        return `"date:${arg}": a pattern is YYYY, MM, DD, HH, mm, ss and the separators - / . , : space T`;
      }
      return undefined;
    default:
      return `unknown format "${kind}" (known: number, money, date)`;
  }
}

function splitFormat(format: string): [string, string | undefined] {
  const at = format.indexOf(':');
  return at < 0 ? [format, undefined] : [format.slice(0, at), format.slice(at + 1)];
}

/**
 * The message with its placeholders filled from `row` (and `old` for `old.` ones); a column
 * `visible` refuses reads `(hidden)`. Placeholders naming no column are left as written.
 */
export function renderMessage(
  template: string,
  resource: Resource,
  row: CanonicalRow,
  old: CanonicalRow | null = null,
  visible: (column: string) => boolean = () => true,
): string {
  return template.replace(PLACEHOLDER, (whole, prefix: string | undefined, name: string, format: string | undefined) => {
    const column = resource.columnsByName.get(name);
    if (!column) return whole;
    if (!visible(name)) return HIDDEN_VALUE;
    const value = (prefix ? old?.[name] : row[name]) ?? null;
    if (value === null) return 'null';
    return format === undefined || formatProblem(column, format) ? plain(column, value) : formatted(value, format);
  });
}

function plain(column: ResourceColumn, value: CanonicalValue): string {
  return column.kind === 'decimal' ? new Decimal(value as string).toString() : String(value);
}

function formatted(value: CanonicalValue, format: string): string {
  const [kind, arg] = splitFormat(format);
  if (kind === 'date') return formatDate(String(value), arg ?? 'YYYY-MM-DD');
  const d = new Decimal(value as string | number);
  if (kind === 'money') return grouped(d, 2, arg ?? '');
  return grouped(d, arg === undefined ? undefined : Number(arg), '');
}

/** `-$1,234.50`: rounded half up to `places` (absent: the value's own), thousands separated by commas. */
function grouped(value: Decimal, places: number | undefined, symbol: string): string {
  const fixed = places === undefined ? value.abs().toFixed() : value.abs().toFixed(places, Decimal.ROUND_HALF_UP);
  const [whole, fraction] = fixed.split('.');
  const digits = whole!.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  const negative = value.isNegative() && !new Decimal(fixed).isZero();
  return `${negative ? '-' : ''}${symbol}${digits}${fraction === undefined ? '' : `.${fraction}`}`;
}

/** A date (`2030-01-02`) or date-time (`2030-01-02T10:00:00.000Z`, UTC) by the pattern's tokens. */
function formatDate(value: string, pattern: string): string {
  const parts: Record<string, string> = {
    YYYY: value.slice(0, 4),
    MM: value.slice(5, 7),
    DD: value.slice(8, 10),
    HH: value.slice(11, 13) || '00',
    mm: value.slice(14, 16) || '00',
    ss: value.slice(17, 19) || '00',
  };
  return pattern.replace(DATE_TOKENS, (token) => parts[token]!);
}
