import type { ColumnRef, ComparisonOperator, FilterNode, Literal, Operand } from './ast.js';
import { resolveLimits, syntaxError, type QueryLimits } from './limits.js';
import { parseParameters, type TokenStream } from './token-stream.js';

/**
 * Words with a meaning in the grammar; they cannot name a column in a free-form filter
 * (sysfilter can still name such a column). `true`, `false` and `null` are values.
 */
export const FILTER_KEYWORDS: ReadonlySet<string> = new Set(['and', 'or', 'not', 'like', 'in', 'between', 'is', 'true', 'false', 'null']);

const COMPARISONS: Record<string, ComparisonOperator> = { '=': '=', '<>': '<>', '!=': '<>', '<': '<', '<=': '<=', '>': '>', '>=': '>=' };

/**
 * Parses a free-form `filter` (api-contract §5) into a syntax tree.
 *
 * Grammar, keywords case-insensitive, `not` binding tighter than `and`, `and` tighter than `or`:
 * ```
 * or        := and ("or" and)*
 * and       := unary ("and" unary)*
 * unary     := "not" unary | "(" or ")" | predicate
 * predicate := operand ("=" | "<>" | "!=" | "<" | "<=" | ">" | ">=") operand   -- one side a column
 *            | column ["not"] "like" value
 *            | column ["not"] "in" "(" value ("," value)* ")"
 *            | column ["not"] "between" value "and" value
 *            | column "is" ["not"] "null"
 * operand   := column | value
 * column    := name | name "." name        -- name: [A-Za-z_][A-Za-z0-9_]*, not a keyword
 *            | '"' text '"'                -- any name, a keyword included, one part
 * value     := 'text' | -?digits[.digits] | true | false | null | @{global.name}
 * ```
 * Inside quotes `''` (or `""`) is one quote and JavaScript's escapes work: `\uNNNN`, `\n`, `\r`, `\t`, `\\`,
 * `\'`, `\"`; any other backslash is itself (lexer.ts).
 * Several texts (a repeated parameter) are ANDed. Limits (length, nodes, nesting) default to
 * `DEFAULT_QUERY_LIMITS`.
 *
 * @throws ApiError 400 / 4001 naming the 1-based position and what was expected, e.g.
 *   `filter syntax error at position 12: expected a value after "=", found ")"`.
 */
export function parseFilter(text: string | readonly string[], limits?: QueryLimits): FilterNode {
  const resolved = resolveLimits(limits);
  const trees = parseParameters('filter', text, resolved, (stream) => new FilterParser(stream, resolved.maxDepth).parse());
  if (trees.length === 1) return trees[0]!;
  return { type: 'and', operands: trees };
}

class FilterParser {
  private depth = 0;

  constructor(private readonly stream: TokenStream, private readonly maxDepth: number) {}

  parse(): FilterNode {
    const tree = this.or();
    this.stream.expectEnd('"and", "or" or the end of the text');
    return tree;
  }

  private or(): FilterNode {
    return this.chain('or', () => this.and());
  }

  private and(): FilterNode {
    return this.chain('and', () => this.unary());
  }

  private chain(type: 'and' | 'or', operand: () => FilterNode): FilterNode {
    const first = operand();
    if (!this.stream.isKeyword(type)) return first;
    this.stream.spend();
    const operands = [first];
    while (this.stream.acceptKeyword(type)) operands.push(operand());
    return { type, operands };
  }

  private unary(): FilterNode {
    const stream = this.stream;
    if (stream.isKeyword('not')) {
      stream.spend();
      return this.nested(() => {
        stream.next();
        return { type: 'not', operand: this.unary() };
      });
    }
    if (stream.isSymbol('(')) {
      return this.nested(() => {
        stream.next();
        const inner = this.or();
        stream.expectSymbol(')', '")", "and" or "or"');
        return inner;
      });
    }
    return this.predicate();
  }

  /** Parentheses and `not` recurse; the depth bound keeps hostile nesting from reaching the stack's end. */
  private nested(parse: () => FilterNode): FilterNode {
    if (++this.depth > this.maxDepth) {
      throw syntaxError(this.stream.label, this.stream.peek().position, `nested deeper than ${this.maxDepth} levels`);
    }
    const node = parse();
    this.depth--;
    return node;
  }

  private predicate(): FilterNode {
    const stream = this.stream;
    const start = stream.peek();
    stream.spend();
    const left = this.operand('a condition: a column, a value, "not" or "("');
    const operatorToken = stream.peek();
    const comparison = operatorToken.type === 'symbol' ? COMPARISONS[operatorToken.text] : undefined;

    if (comparison) {
      stream.next();
      const right = this.operand(`a column or a value`);
      if (left.kind !== 'column' && right.kind !== 'column') {
        throw syntaxError(stream.label, start.position, 'a comparison needs a column on one side');
      }
      return { type: 'compare', operator: comparison, left, right, caseInsensitive: false };
    }
    if (left.kind !== 'column') return stream.fail('a comparison operator such as "="');

    const subject: ColumnRef = left;
    if (stream.acceptKeyword('is')) {
      const negated = stream.acceptKeyword('not');
      stream.expectKeyword('null');
      return { type: 'isNull', negated, subject };
    }
    const negated = stream.acceptKeyword('not');
    if (stream.acceptKeyword('like')) {
      return { type: 'like', negated, subject, pattern: this.value(), caseInsensitive: false };
    }
    if (stream.acceptKeyword('in')) {
      stream.expectSymbol('(');
      const values = [this.value()];
      while (stream.acceptSymbol(',')) values.push(this.value());
      stream.expectSymbol(')', '"," or ")"');
      return { type: 'in', negated, subject, values };
    }
    if (stream.acceptKeyword('between')) {
      const low = this.value();
      stream.expectKeyword('and');
      return { type: 'between', negated, subject, low, high: this.value() };
    }
    return stream.fail(negated ? '"like", "in" or "between"' : 'an operator such as "=", "like", "in", "between" or "is"');
  }

  private operand(expected: string): Operand {
    return this.stream.literal() ?? this.stream.column(expected, FILTER_KEYWORDS);
  }

  private value(): Literal {
    return this.stream.expectLiteral();
  }
}
