import { ApiError } from '../../common/api-error.js';
import { ErrorCode } from '../../common/error-codes.js';
import type { ColumnRef, Literal } from './ast.js';
import { tokenize, type SymbolText, type Token } from './lexer.js';
import { checkLength, excerpt, NodeBudget, syntaxError, type QueryLimits } from './limits.js';

export interface GrammarOptions {
  /** sysfilter: a double-quoted text in a value's place is a value (LAC); elsewhere it is always a name. */
  doubleQuotedValues?: boolean;
}

/** How an error message names the token it stopped at. */
function describeToken(token: Token): string {
  return token.type === 'end' ? 'the end of the text' : `"${excerpt(token.source)}"`;
}

/**
 * A cursor over one parameter's tokens with the pieces every grammar shares: keyword and
 * symbol tests, literals, column names, and errors of the form
 * `<label> syntax error at position <n>: expected <what> [after "<previous>"], found <token>`.
 */
export class TokenStream {
  private readonly tokens: Token[];
  private index = 0;

  constructor(text: string, readonly label: string, readonly budget: NodeBudget, private readonly options: GrammarOptions = {}) {
    this.tokens = tokenize(text, label);
  }

  peek(): Token {
    return this.tokens[this.index]!;
  }

  next(): Token {
    const token = this.peek();
    if (this.index < this.tokens.length - 1) this.index++;
    return token;
  }

  /** The token just consumed, for "after ..." in messages. */
  previous(): Token | undefined {
    return this.index > 0 ? this.tokens[this.index - 1] : undefined;
  }

  isKeyword(keyword: string): boolean {
    const token = this.peek();
    return token.type === 'word' && token.path.length === 1 && token.lower === keyword;
  }

  isSymbol(symbol: SymbolText): boolean {
    const token = this.peek();
    return token.type === 'symbol' && token.text === symbol;
  }

  /** Consumes the keyword if it is next. */
  acceptKeyword(keyword: string): boolean {
    if (!this.isKeyword(keyword)) return false;
    this.next();
    return true;
  }

  acceptSymbol(symbol: SymbolText): boolean {
    if (!this.isSymbol(symbol)) return false;
    this.next();
    return true;
  }

  expectKeyword(keyword: string): void {
    if (!this.acceptKeyword(keyword)) this.fail(`"${keyword}"`);
  }

  expectSymbol(symbol: SymbolText, what = `"${symbol}"`): void {
    if (!this.acceptSymbol(symbol)) this.fail(what);
  }

  expectEnd(what: string): void {
    if (this.peek().type !== 'end') this.fail(what);
  }

  /** Throws 4001 at the next token: what was expected, after what, and what was found. */
  fail(expected: string): never {
    const at = this.peek();
    const previous = this.previous();
    const after = previous ? ` after ${describeToken(previous)}` : '';
    throw syntaxError(this.label, at.position, `expected ${expected}${after}, found ${describeToken(at)}`);
  }

  /** Counts one tree node at the next token's position. */
  spend(): void {
    this.budget.spend(this.peek().position);
  }

  /**
   * A column name: `col` or `rel.col`, not one of `reserved`; or a double-quoted name (`"name"`, escapes decoded),
   * one part, which may be any text but empty, a keyword included.
   */
  column(expected: string, reserved: ReadonlySet<string> = NO_WORDS): ColumnRef {
    const token = this.peek();
    let path: string[];
    if (token.type === 'word' && !reserved.has(token.lower)) path = [...token.path];
    else if (token.type === 'string' && token.quote === '"' && token.value !== '') path = [token.value];
    else return this.fail(expected);
    this.spend();
    this.next();
    return { kind: 'column', path };
  }

  /** A value: quoted string, number, true, false, null or @{global}; undefined when none is next. */
  literal(): Literal | undefined {
    const token = this.peek();
    const value = token.type === 'string' && token.quote === '"' && !this.options.doubleQuotedValues ? undefined : literalOf(token);
    if (value) {
      this.spend();
      this.next();
    }
    return value;
  }

  expectLiteral(): Literal {
    return this.literal() ?? this.fail('a value');
  }
}

const NO_WORDS: ReadonlySet<string> = new Set();

function literalOf(token: Token): Literal | undefined {
  switch (token.type) {
    case 'string':
      return { kind: 'string', value: token.value };
    case 'number':
      return { kind: 'number', text: token.text };
    case 'global':
      return { kind: 'global', name: token.name };
    case 'word':
      if (token.path.length !== 1) return undefined;
      if (token.lower === 'true' || token.lower === 'false') return { kind: 'boolean', value: token.lower === 'true' };
      if (token.lower === 'null') return { kind: 'null' };
      return undefined;
    default:
      return undefined;
  }
}

/**
 * Parses one parameter or several repeated ones (`?filter=a&filter=b`) with `parseOne`. The
 * length and node limits apply to all of them together; errors name the parameter as
 * `<label>` or, when repeated, `<label> #<n>`.
 */
export function parseParameters<T>(
  label: string,
  input: string | readonly string[],
  limits: Required<QueryLimits>,
  parseOne: (stream: TokenStream) => T,
  options?: GrammarOptions,
): T[] {
  const texts = typeof input === 'string' ? [input] : input;
  if (texts.length === 0) throw new ApiError(ErrorCode.FILTER_SYNTAX, `${label} is empty`);
  checkLength(label, texts, limits);
  const budget = new NodeBudget(label, limits.maxNodes);
  return texts.map((text, index) => {
    const stream = new TokenStream(text, texts.length > 1 ? `${label} #${index + 1}` : label, budget, options);
    const result = parseOne(stream);
    stream.expectEnd('the end of the text');
    return result;
  });
}
