import { ApiError } from '../../common/api-error.js';
import { ErrorCode } from '../../common/error-codes.js';
import type { OrderTerm } from '../../data/query/ast.js';
import { parseSysOrder } from '../../data/query/order-parser.js';

/** How many entries a meta list may be asked for at once, and from how far. */
const MAX_PAGE = 5000;
const MAX_OFFSET = 1_000_000;
const ACCEPTED = new Set(['sysorder', 'pagesize', 'offset']);

/** The one text value of a query parameter, or undefined. */
function single(query: Record<string, unknown>, name: string): string | undefined {
  const value = query[name];
  if (value === undefined) return undefined;
  if (typeof value !== 'string') throw new ApiError(ErrorCode.BAD_REQUEST, `Query parameter "${name}" may be given once, as text.`);
  return value;
}

function whole(text: string | undefined, name: string, min: number, max: number): number | undefined {
  if (text === undefined || text === '') return undefined;
  if (!/^\d{1,9}$/.test(text) || Number(text) < min || Number(text) > max) {
    throw new ApiError(ErrorCode.BAD_REQUEST, `Query parameter "${name}" must be a whole number from ${min} to ${max}.`);
  }
  return Number(text);
}

/** Compares two entries' values under one sort term (`_uc` upper-cased, `_lc` lower-cased, `null_first`/`null_last`). */
function compare(a: unknown, b: unknown, term: OrderTerm): number {
  const absent = (v: unknown): boolean => v === null || v === undefined;
  if (term.nulls && absent(a) !== absent(b)) return (absent(a) ? -1 : 1) * (term.nulls === 'first' ? 1 : -1);
  // Numbers (an ident, a count) by value: as text, 13 would sort before 9.
  if (typeof a === 'number' && typeof b === 'number') return (a - b) * (term.direction === 'desc' ? -1 : 1);
  const text = (v: unknown): string => {
    const plain = absent(v) ? '' : typeof v === 'string' ? v : JSON.stringify(v);
    if (!term.caseInsensitive) return plain;
    return term.lowerCase ? plain.toLowerCase() : plain.toUpperCase();
  };
  const [x, y] = [text(a), text(b)];
  const order = x < y ? -1 : x > y ? 1 : 0;
  return term.direction === 'desc' ? -order : order;
}

/**
 * 400 / 4000 naming the query parameters (but `auth`) that are not `accepted`. Only `auth` itself carries a
 * key (apiKeyOfRequest): a near miss such as `AUTH` or `auth[]` is an unknown parameter, as on the resources.
 */
export function refuseOtherParameters(query: Record<string, unknown>, accepted: ReadonlySet<string> = new Set()): void {
  const unknown = Object.keys(query).filter((name) => !accepted.has(name) && name !== 'auth');
  if (unknown.length > 0) {
    throw new ApiError(ErrorCode.BAD_REQUEST, `Unknown query parameter(s) here: ${unknown.map((n) => `"${n.slice(0, 64)}"`).join(', ')}.`);
  }
}

/**
 * The query of one meta entry (`@tables/<name>`, `@views/<name>`): only `auth` and `pagesize`, which LAC's Node SDK
 * sends on every GET once `setPageSize` was called. One entry is never paged: the value is checked, nothing more.
 */
export function acceptOneEntryQuery(query: Record<string, unknown>): void {
  refuseOtherParameters(query, ONE_ENTRY);
  whole(single(query, 'pagesize'), 'pagesize', 1, MAX_PAGE);
}
const ONE_ENTRY = new Set(['pagesize']);

/**
 * The query of a meta list (`@resources`, `@tables`, `@schema/<prefix>`, ...), as LAC's clients send it
 * (the CLI's `schema list` asks `@tables?sysorder=(entity:asc_uc,entity:desc)&pagesize=1000`): `sysorder` over
 * the entries' own fields, `pagesize` and `offset` (without pagesize the list is whole). Any other parameter
 * (but `auth`) is 400 / 4000 naming it, rather than ignored.
 */
export function pageOfMetaList(
  entries: ReadonlyArray<Record<string, unknown>>,
  query: Record<string, unknown>,
  nextBatch: (offset: number) => string,
): unknown[] {
  refuseOtherParameters(query, ACCEPTED);
  const sysorder = single(query, 'sysorder');
  const pageSize = whole(single(query, 'pagesize'), 'pagesize', 1, MAX_PAGE);
  const offset = whole(single(query, 'offset'), 'offset', 0, MAX_OFFSET) ?? 0;
  const list = [...entries];
  if (sysorder !== undefined) {
    const fields = new Set(entries.flatMap((e) => Object.keys(e).filter((k) => typeof e[k] !== 'object' || e[k] === null)));
    const terms = parseSysOrder(sysorder);
    for (const term of terms) {
      const field = term.column.join('.');
      if (term.column.length !== 1 || !fields.has(field)) {
        throw new ApiError(ErrorCode.UNKNOWN_COLUMN, `Cannot sort on "${field.slice(0, 64)}": not a field of these entries.`);
      }
    }
    list.sort((a, b) => {
      for (const term of terms) {
        const order = compare(a[term.column[0]!], b[term.column[0]!], term);
        if (order !== 0) return order;
      }
      return 0;
    });
  }
  if (pageSize === undefined) return offset > 0 ? list.slice(offset) : list;
  const page: unknown[] = list.slice(offset, offset + pageSize);
  if (list.length > offset + pageSize) page.push({ '@metadata': { next_batch: nextBatch(offset + pageSize) } });
  return page;
}
