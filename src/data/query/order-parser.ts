import { ApiError } from '../../common/api-error.js';
import { ErrorCode } from '../../common/error-codes.js';
import type { OrderTerm } from './ast.js';
import { resolveLimits, type QueryLimits } from './limits.js';
import { parseParameters, type TokenStream } from './token-stream.js';

type Modifier = Pick<OrderTerm, 'direction' | 'caseInsensitive' | 'lowerCase' | 'nulls'>;

/** LAC's sort modifiers (its "Structured Sorts"); `null_first` and `null_last` sort ascending. */
const MODIFIERS: Readonly<Record<string, Modifier>> = {
  asc: { direction: 'asc', caseInsensitive: false },
  desc: { direction: 'desc', caseInsensitive: false },
  asc_uc: { direction: 'asc', caseInsensitive: true },
  desc_uc: { direction: 'desc', caseInsensitive: true },
  asc_lc: { direction: 'asc', caseInsensitive: true, lowerCase: true },
  desc_lc: { direction: 'desc', caseInsensitive: true, lowerCase: true },
  null_first: { direction: 'asc', caseInsensitive: false, nulls: 'first' },
  null_last: { direction: 'asc', caseInsensitive: false, nulls: 'last' },
};
const MODIFIER_LIST = 'asc, desc, asc_uc, desc_uc, asc_lc, desc_lc, null_first or null_last';

/** The modifier the next token names, consumed; undefined (nothing consumed) when it names none. */
function modifier(stream: TokenStream): Modifier | undefined {
  const token = stream.peek();
  const found = token.type === 'word' && token.path.length === 1 && Object.hasOwn(MODIFIERS, token.lower) ? MODIFIERS[token.lower] : undefined;
  if (found) stream.next();
  return found;
}

/**
 * Parses a free-form `order`: `column [modifier] ("," column [modifier])*`, ascending by default, modifier one of
 * `asc`, `desc` and LAC's `asc_uc`, `desc_uc`, `asc_lc`, `desc_lc`, `null_first`, `null_last`, keywords
 * case-insensitive; a column may be `rel.col` or double-quoted (`"name"`). Repeated parameters are concatenated.
 * At most `maxSortTerms` (8) terms.
 *
 * @throws ApiError 400 / 4001 naming the position and what was expected.
 */
export function parseOrder(text: string | readonly string[], limits?: QueryLimits): OrderTerm[] {
  return parseTerms('order', text, limits, (stream) => {
    const terms: OrderTerm[] = [];
    do {
      const column = stream.column('a column name').path;
      terms.push({ column, ...(modifier(stream) ?? ASCENDING) });
    } while (stream.acceptSymbol(','));
    stream.expectEnd(`a modifier (${MODIFIER_LIST}), "," or the end of the text`);
    return terms;
  });
}

/**
 * Parses a structured `sysorder`: `"(" term ("," term)* ")"`, a term being `column`, `column ":" modifier` or
 * `column modifier` (LAC's CLI documents `(balance,name desc)`), modifier one of `asc`, `desc`, `asc_uc`,
 * `desc_uc` (`_uc` sorts by `UPPER(column)`), `asc_lc`, `desc_lc` (by `LOWER(column)`), `null_first`,
 * `null_last` (ascending, nulls first or last: LAC's `(name:null_first,balance:desc)`), keywords
 * case-insensitive; no modifier is ascending. A column may be double-quoted. The parentheses are required, as in
 * LAC. At most `maxSortTerms` (8) terms.
 *
 * @throws ApiError 400 / 4001 naming the position and what was expected.
 */
export function parseSysOrder(text: string | readonly string[], limits?: QueryLimits): OrderTerm[] {
  return parseTerms('sysorder', text, limits, (stream) => {
    const terms: OrderTerm[] = [];
    stream.expectSymbol('(');
    let directed: boolean;
    do {
      const column = stream.column('a column name').path;
      const colon = stream.acceptSymbol(':');
      const direction = modifier(stream);
      if (!direction && colon) stream.fail(`a modifier: ${MODIFIER_LIST}`);
      directed = direction !== undefined;
      terms.push({ column, ...(direction ?? ASCENDING) });
    } while (stream.acceptSymbol(','));
    stream.expectSymbol(')', directed ? '"," or ")"' : `a modifier (${MODIFIER_LIST}), "," or ")"`);
    return terms;
  });
}

const ASCENDING = { direction: 'asc', caseInsensitive: false } as const;

function parseTerms(
  label: string,
  text: string | readonly string[],
  limits: QueryLimits | undefined,
  parseOne: (stream: TokenStream) => OrderTerm[],
): OrderTerm[] {
  const resolved = resolveLimits(limits);
  return combineSortTerms(parseParameters(label, text, resolved, parseOne), resolved);
}

/**
 * Joins the terms of `order` and `sysorder` (in that order of the arguments) and enforces the
 * limit on their total (api-contract §5: at most 8 sort terms).
 *
 * @throws ApiError 400 / 4001 when there are more.
 */
export function combineSortTerms(lists: readonly OrderTerm[][], limits?: QueryLimits): OrderTerm[] {
  const { maxSortTerms } = resolveLimits(limits);
  const terms = lists.flat();
  if (terms.length > maxSortTerms) {
    throw new ApiError(ErrorCode.FILTER_SYNTAX, `too many sort terms: ${terms.length}, at most ${maxSortTerms}`);
  }
  return terms;
}
