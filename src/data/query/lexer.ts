import { isWellFormed } from '../value-codec.js';
import { excerpt, syntaxError } from './limits.js';

/**
 * One lexer serves filter, sysfilter, order and sysorder: their tokens are the same, only the
 * grammars differ. It is a hand-written scanner (no backtracking regular expressions), linear
 * in the text, so hostile input costs no more than its length.
 */

export type SymbolText = '(' | ')' | ',' | ':' | '=' | '<>' | '!=' | '<' | '<=' | '>' | '>=';

interface TokenBase {
  /** 1-based character position of the token's first character. */
  position: number;
  /** The token as written, for error messages. */
  source: string;
}

/** An identifier or keyword; `rel.col` is one word with two path parts. */
export interface WordToken extends TokenBase {
  type: 'word';
  path: string[];
  /** Lower-cased text, for case-insensitive keyword tests. */
  lower: string;
}

export type Token =
  | WordToken
  /** A quoted text, escapes decoded; `quote` says which quote: `"` marks a name in every grammar but sysfilter's values. */
  | (TokenBase & { type: 'string'; value: string; quote: "'" | '"' })
  | (TokenBase & { type: 'number'; text: string })
  | (TokenBase & { type: 'global'; name: string })
  | (TokenBase & { type: 'symbol'; text: SymbolText })
  | (TokenBase & { type: 'end' });

const TWO_CHAR_SYMBOLS = new Set(['<>', '!=', '<=', '>=']);
const ONE_CHAR_SYMBOLS = new Set(['(', ')', ',', ':', '=', '<', '>']);

const isDigit = (c: string | undefined): boolean => c !== undefined && c >= '0' && c <= '9';
const isWordStart = (c: string | undefined): boolean =>
  c !== undefined && ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c === '_');
const isWordPart = (c: string | undefined): boolean => isWordStart(c) || isDigit(c);
const isGlobalNamePart = (c: string | undefined): boolean => isWordPart(c) || c === '.';
const isSpace = (c: string | undefined): boolean => c === ' ' || c === '\t' || c === '\n' || c === '\r';

/**
 * Quoted texts are the same in all four grammars (LAC 5.3): single- or double-quoted; a doubled quote is one quote;
 * a backslash starts one of JavaScript's escapes `\uNNNN` (four hex digits), `\n`, `\r`, `\t`, `\\`, `\'` and `\"`.
 * Any other backslash is itself (`'C:\temp'` is `C:\temp`), so a like pattern's backslash still matches itself.
 * A malformed `\u`, a NUL (also as `\u0000`) and a lone surrogate are syntax errors. What a double-quoted text means
 * (a name, or in sysfilter a value too) is the parsers' business.
 *
 * Splits `text` into tokens, ending with an `end` token. `label` names the parameter in errors.
 */
export function tokenize(text: string, label: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  const fail = (at: number, detail: string): never => {
    throw syntaxError(label, at + 1, detail);
  };

  const readWordPart = (start: number): number => {
    let end = start;
    while (isWordPart(text[end])) end++;
    return end;
  };

  while (i < text.length) {
    const c = text[i]!;
    const start = i;
    if (isSpace(c)) {
      i++;
    } else if (isWordStart(c)) {
      i = readWordPart(i);
      const path = [text.slice(start, i)];
      if (text[i] === '.') {
        if (!isWordStart(text[i + 1])) fail(i + 1, 'expected a column name after "."');
        const partEnd = readWordPart(i + 1);
        path.push(text.slice(i + 1, partEnd));
        i = partEnd;
        if (text[i] === '.') fail(i, 'a column name may be qualified only once (relationship.column)');
      }
      const source = text.slice(start, i);
      tokens.push({ type: 'word', path, lower: source.toLowerCase(), position: start + 1, source });
    } else if (isDigit(c) || (c === '-' && isDigit(text[i + 1]))) {
      i++;
      while (isDigit(text[i])) i++;
      if (text[i] === '.') {
        if (!isDigit(text[i + 1])) fail(i + 1, 'expected digits after the decimal point');
        i++;
        while (isDigit(text[i])) i++;
      }
      if (isWordPart(text[i]) || text[i] === '.') fail(i, `expected a number, found "${excerpt(text.slice(start, i + 1))}"`);
      const source = text.slice(start, i);
      tokens.push({ type: 'number', text: source, position: start + 1, source });
    } else if (c === "'" || c === '"') {
      i = readString(text, i, tokens, fail);
    } else if (c === '@') {
      if (text[i + 1] !== '{') fail(i, 'expected "{" after "@" (a global is written @{name})');
      i += 2;
      while (isGlobalNamePart(text[i])) i++;
      const name = text.slice(start + 2, i);
      if (name === '') fail(i, 'expected a global name after "@{"');
      if (text[i] !== '}') fail(i, `expected "}" to close the global "@{${excerpt(name)}"`);
      i++;
      tokens.push({ type: 'global', name, position: start + 1, source: text.slice(start, i) });
    } else if (TWO_CHAR_SYMBOLS.has(text.slice(i, i + 2))) {
      i += 2;
      tokens.push({ type: 'symbol', text: text.slice(start, i) as SymbolText, position: start + 1, source: text.slice(start, i) });
    } else if (ONE_CHAR_SYMBOLS.has(c)) {
      i++;
      tokens.push({ type: 'symbol', text: c as SymbolText, position: start + 1, source: c });
    } else {
      fail(i, `unexpected character "${excerpt(String.fromCodePoint(text.codePointAt(i)!))}"`);
    }
  }
  tokens.push({ type: 'end', position: text.length + 1, source: '' });
  return tokens;
}

const SIMPLE_ESCAPES: Readonly<Record<string, string>> = { n: '\n', r: '\r', t: '\t', '\\': '\\', "'": "'", '"': '"' };

/** Reads the string starting at `start` (its opening quote) into `tokens`; returns the index after it. */
function readString(text: string, start: number, tokens: Token[], fail: (at: number, detail: string) => never): number {
  const quote = text[start] as "'" | '"';
  let value = '';
  let i = start + 1;
  for (;;) {
    if (i >= text.length) fail(start, 'this string has no closing quote (a quote inside a string is written twice or escaped with a backslash)');
    const d = text[i]!;
    if (d === '\u0000') fail(i, 'a string may not contain the NUL character');
    if (d === '\\') {
      const [decoded, length] = escapeAt(text, i, fail);
      value += decoded;
      i += length;
    } else if (d === quote) {
      if (text[i + 1] !== quote) break;
      value += quote;
      i += 2;
    } else {
      value += d;
      i++;
    }
  }
  i++;
  // As in request bodies (value-codec.ts): a lone surrogate would compare differently on each database.
  if (!isWellFormed(value)) fail(start, 'a string may not contain a lone surrogate (it is not well-formed Unicode)');
  tokens.push({ type: 'string', value, quote, position: start + 1, source: text.slice(start, i) });
  return i;
}

/** The text a backslash at `at` stands for, and how many characters it takes. */
function escapeAt(text: string, at: number, fail: (at: number, detail: string) => never): [string, number] {
  const next = text[at + 1];
  if (next === undefined) return ['\\', 1];
  const simple = SIMPLE_ESCAPES[next];
  if (simple !== undefined) return [simple, 2];
  if (next !== 'u') return ['\\', 1];
  const hex = text.slice(at + 2, at + 6);
  if (!/^[0-9A-Fa-f]{4}$/.test(hex)) fail(at, 'expected four hexadecimal digits after "\\u" (write a backslash itself as "\\\\")');
  const code = Number.parseInt(hex, 16);
  if (code === 0) fail(at, 'a string may not contain the NUL character');
  return [String.fromCharCode(code), 6];
}
