import { ApiError } from '../../common/api-error.js';
import { ErrorCode } from '../../common/error-codes.js';
import type { OrderTerm } from './ast.js';
import { resolveLimits, type QueryLimits } from './limits.js';
import { parseParameters, type TokenStream } from './token-stream.js';

const SYSORDER_DIRECTIONS: Record<string, Pick<OrderTerm, 'direction' | 'caseInsensitive'>> = {
  asc: { direction: 'asc', caseInsensitive: false },
  desc: { direction: 'desc', caseInsensitive: false },
  asc_uc: { direction: 'asc', caseInsensitive: true },
  desc_uc: { direction: 'desc', caseInsensitive: true },
};

/**
 * Parses a free-form `order`: `column [asc|desc] ("," column [asc|desc])*`, ascending by
 * default, keywords case-insensitive; a column may be `rel.col`. Repeated parameters are
 * concatenated. At most `maxSortTerms` (8) terms.
 *
 * @throws ApiError 400 / 4001 naming the position and what was expected.
 */
export function parseOrder(text: string | readonly string[], limits?: QueryLimits): OrderTerm[] {
  return parseTerms('order', text, limits, (stream) => {
    const terms: OrderTerm[] = [];
    do {
      const column = stream.column('a column name').path;
      const descending = stream.acceptKeyword('desc');
      if (!descending) stream.acceptKeyword('asc');
      terms.push({ column, direction: descending ? 'desc' : 'asc', caseInsensitive: false });
    } while (stream.acceptSymbol(','));
    stream.expectEnd('"asc", "desc", "," or the end of the text');
    return terms;
  });
}

/**
 * Parses a structured `sysorder`: `"(" term ("," term)* ")"`, a term being `column`, `column ":" direction` or
 * `column direction` (LAC's CLI documents `(balance,name desc)`), direction one of `asc`, `desc`, `asc_uc`,
 * `desc_uc` (`_uc` sorts by `UPPER(column)`), keywords case-insensitive; no direction is ascending. The
 * parentheses are required, as in LAC. At most `maxSortTerms` (8) terms.
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
      const token = stream.peek();
      const direction = token.type === 'word' && token.path.length === 1 ? SYSORDER_DIRECTIONS[token.lower] : undefined;
      if (direction) stream.next();
      else if (colon) stream.fail('a direction: asc, desc, asc_uc or desc_uc');
      directed = direction !== undefined;
      terms.push({ column, ...(direction ?? ASCENDING) });
    } while (stream.acceptSymbol(','));
    stream.expectSymbol(')', directed ? '"," or ")"' : 'a direction (asc, desc, asc_uc or desc_uc), "," or ")"');
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
