import type { ColumnRef, ComparisonOperator, FilterNode, Predicate } from './ast.js';
import { resolveLimits, type QueryLimits } from './limits.js';
import { parseParameters, type TokenStream } from './token-stream.js';

type PairFunction = { kind: 'compare'; operator: ComparisonOperator } | { kind: 'like'; negated: boolean };
type ColumnFunction = { kind: 'null'; negated: boolean };

/** sysfilter functions that take `column:value` pairs. */
const PAIR_FUNCTIONS: Record<string, PairFunction> = {
  equal: { kind: 'compare', operator: '=' },
  notequal: { kind: 'compare', operator: '<>' },
  less: { kind: 'compare', operator: '<' },
  lessequal: { kind: 'compare', operator: '<=' },
  greater: { kind: 'compare', operator: '>' },
  greaterequal: { kind: 'compare', operator: '>=' },
  like: { kind: 'like', negated: false },
  notlike: { kind: 'like', negated: true },
};

/** sysfilter functions that take bare column names. */
const COLUMN_FUNCTIONS: Record<string, ColumnFunction> = {
  null: { kind: 'null', negated: false },
  notnull: { kind: 'null', negated: true },
};

const FUNCTION_NAMES = 'equal, notequal, less, lessequal, greater, greaterequal, like, notlike, null or notnull';

/**
 * Parses a structured `sysfilter` (api-contract §5) into the same syntax tree as a filter.
 *
 * ```
 * sysfilter := function "(" pair ("," pair)* ")"       -- equal, notequal, less, lessequal,
 *                                                     -- greater, greaterequal, like, notlike
 *            | ("null" | "notnull") "(" column ("," column)* ")"
 * function  := name ["_or"] ["_uc"]                   -- modifiers in either order
 * pair      := column ":" value                       -- value as in a filter, @{global} included
 * ```
 * A string value may be single- or double-quoted, with JavaScript's escapes (`'O\'Brien'`, `"say \"hi\""`,
 * `'Alpha\u0020and Sons'`; see the lexer) or a doubled quote for a quote, as in a filter. A column may be written
 * double-quoted (`equal("name":'Alpha and Sons')`): in a column's place a double-quoted text is a name.
 * `_or` joins the pairs with OR instead of AND; `_uc` compares `UPPER(column)` with
 * `UPPER(value)` (not allowed on null/notnull). Several texts (a repeated parameter) are ANDed.
 *
 * @throws ApiError 400 / 4001 naming the position and what was expected.
 */
export function parseSysFilter(text: string | readonly string[], limits?: QueryLimits): FilterNode {
  const trees = parseParameters('sysfilter', text, resolveLimits(limits), parseOne, { doubleQuotedValues: true });
  if (trees.length === 1) return trees[0]!;
  return { type: 'and', operands: trees };
}

function parseOne(stream: TokenStream): FilterNode {
  const nameToken = stream.peek();
  if (nameToken.type !== 'word' || nameToken.path.length !== 1) stream.fail(`a sysfilter function (${FUNCTION_NAMES})`);
  const [base, ...modifiers] = nameToken.lower.split('_');
  const pairFunction = PAIR_FUNCTIONS[base!];
  const columnFunction = COLUMN_FUNCTIONS[base!];
  if (!pairFunction && !columnFunction) stream.fail(`a sysfilter function (${FUNCTION_NAMES})`);

  const allowed = pairFunction ? ['or', 'uc'] : ['or'];
  const seen = new Set<string>();
  for (const modifier of modifiers) {
    if (!allowed.includes(modifier) || seen.has(modifier)) {
      stream.fail(`"${base}" with ${pairFunction ? 'the modifiers _or and _uc, each at most once' : 'at most the modifier _or'}`);
    }
    seen.add(modifier);
  }
  const caseInsensitive = seen.has('uc');
  stream.next();
  stream.expectSymbol('(');

  const predicates: Predicate[] = [];
  do {
    stream.spend();
    if (columnFunction) {
      predicates.push({ type: 'isNull', negated: columnFunction.negated, subject: stream.column('a column name') });
    } else {
      predicates.push(pair(stream, pairFunction!, caseInsensitive));
    }
  } while (stream.acceptSymbol(','));
  stream.expectSymbol(')', '"," or ")"');

  if (predicates.length === 1) return predicates[0]!;
  stream.budget.spend(nameToken.position);
  return { type: seen.has('or') ? 'or' : 'and', operands: predicates };
}

function pair(stream: TokenStream, fn: PairFunction, caseInsensitive: boolean): Predicate {
  const subject: ColumnRef = stream.column('a column name');
  stream.expectSymbol(':', '":" and a value');
  const value = stream.expectLiteral();
  if (fn.kind === 'like') return { type: 'like', negated: fn.negated, subject, pattern: value, caseInsensitive };
  return { type: 'compare', operator: fn.operator, left: subject, right: value, caseInsensitive };
}
