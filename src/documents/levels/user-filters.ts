import { ApiError } from '../../common/api-error.js';
import { ErrorCode } from '../../common/error-codes.js';
import type { FilterNode, Literal, Operand } from '../../data/query/ast.js';
import { parseFilter } from '../../data/query/filter-parser.js';
import { tokenize } from '../../data/query/lexer.js';
import { excerpt, resolveLimits } from '../../data/query/limits.js';
import { parseParameters } from '../../data/query/token-stream.js';

/**
 * Named filters (`userfilter=<name>(param:value, ...)`). A definition is filter grammar with
 * `:param` placeholders; at boot each placeholder becomes a reference node in the tree, and at
 * request time the reference is replaced by the request's literal, which the compiler binds as a
 * parameter like any other value: the request's text never reaches the SQL.
 */

/** A named filter, parsed at boot. */
export interface UserFilter {
  name: string;
  tree: FilterNode;
  /** Placeholder names, each bound by every call. */
  parameters: ReadonlySet<string>;
}

/** The internal name a `:param` placeholder gets in the tree (a global name the project's globals cannot take). */
const PLACEHOLDER_PREFIX = 'userfilter.';

const NAME = /^[A-Za-z_][A-Za-z0-9_]{0,63}$/;

/**
 * Parses a definition; throws a plain Error naming what is wrong (the boot check collects it).
 * `@{global}` references are refused: per-user rows are a role's row filter.
 */
export function parseUserFilter(name: string, text: string): UserFilter {
  if (!NAME.test(name)) throw new Error(`the name "${excerpt(name, 64)}" must be letters, digits and _`);
  const tokens = tokenize(text, `userfilter ${name}`);
  if (tokens.some((t) => t.type === 'global')) throw new Error('a named filter may not use @{globals}; use a role row filter');
  const parameters = new Set<string>();
  let rewritten = '';
  let at = 0;
  tokens.forEach((token, i) => {
    const next = tokens[i + 1];
    if (token.type !== 'symbol' || token.text !== ':' || next?.type !== 'word' || next.position !== token.position + 1) return;
    if (next.path.length !== 1) throw new Error(`placeholder ":${next.source}" must be a plain name`);
    parameters.add(next.source);
    rewritten += `${text.slice(at, token.position - 1)}@{${PLACEHOLDER_PREFIX}${next.source}}`;
    at = next.position - 1 + next.source.length;
  });
  rewritten += text.slice(at);
  return { name, tree: parseFilter(rewritten), parameters };
}

/** One `userfilter` request parameter: the name and its arguments. */
export interface UserFilterCall {
  name: string;
  args: ReadonlyMap<string, Literal>;
}

/**
 * Parses `name`, `name()` or `name(param:value, ...)`; values are literals of the filter grammar
 * ('text', numbers, true, false, null).
 *
 * @throws ApiError 400 / 4001 for bad syntax, 400 / 4000 for a repeated parameter.
 */
export function parseUserFilterCall(text: string): UserFilterCall {
  const [call] = parseParameters('userfilter', text, resolveLimits(), (stream) => {
    const name = stream.column('a filter name').path;
    if (name.length !== 1) stream.fail('a filter name');
    const args = new Map<string, Literal>();
    if (stream.acceptSymbol('(') && !stream.acceptSymbol(')')) {
      do {
        const param = stream.column('a parameter name').path;
        if (param.length !== 1) stream.fail('a parameter name');
        stream.expectSymbol(':', '":" and a value');
        const value = stream.expectLiteral();
        if (value.kind === 'global') stream.fail('a value');
        if (args.has(param[0]!)) throw new ApiError(ErrorCode.BAD_REQUEST, `userfilter parameter "${excerpt(param[0]!)}" is given twice.`);
        args.set(param[0]!, value);
      } while (stream.acceptSymbol(','));
      stream.expectSymbol(')', '"," or ")"');
    }
    return { name: name[0]!, args };
  });
  return call!;
}

/**
 * The filter with the call's values in place of its placeholders.
 *
 * @throws ApiError 400 / 4000 naming an unknown or missing parameter.
 */
export function bindUserFilter(filter: UserFilter, call: UserFilterCall): FilterNode {
  for (const name of call.args.keys()) {
    if (!filter.parameters.has(name)) {
      throw new ApiError(ErrorCode.BAD_REQUEST, `userfilter ${filter.name} has no parameter "${excerpt(name)}".`);
    }
  }
  const missing = [...filter.parameters].filter((name) => !call.args.has(name));
  if (missing.length > 0) {
    throw new ApiError(ErrorCode.BAD_REQUEST, `userfilter ${filter.name} needs a value for: ${missing.join(', ')}.`);
  }
  return substitute(filter.tree, (name) => call.args.get(name.slice(PLACEHOLDER_PREFIX.length))!);
}

function substitute(node: FilterNode, valueOf: (placeholder: string) => Literal): FilterNode {
  const literal = (operand: Literal): Literal => (operand.kind === 'global' ? valueOf(operand.name) : operand);
  const operand = (value: Operand): Operand => (value.kind === 'column' ? value : literal(value));
  switch (node.type) {
    case 'and':
    case 'or':
      return { type: node.type, operands: node.operands.map((operand) => substitute(operand, valueOf)) };
    case 'not':
      return { type: 'not', operand: substitute(node.operand, valueOf) };
    case 'compare':
      return { ...node, left: operand(node.left), right: operand(node.right) };
    case 'like':
      return { ...node, pattern: literal(node.pattern) };
    case 'in':
      return { ...node, values: node.values.map(literal) };
    case 'between':
      return { ...node, low: literal(node.low), high: literal(node.high) };
    case 'isNull':
      return node;
  }
}
