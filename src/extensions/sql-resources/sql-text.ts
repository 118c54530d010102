import type { Dialect } from '../../database/dialect.js';

/** A piece of a SQL resource's text: SQL as written, a table placeholder, a parameter or a role global. */
export type SqlPiece =
  | { kind: 'text'; text: string }
  /** `{customer}` or `{customer c}`: the table as the caller may read it, under `alias` (the table's name without one). */
  | { kind: 'table'; table: string; alias: string }
  /** `:name`: the request's value of a declared parameter, bound. */
  | { kind: 'parameter'; name: string }
  /** `:@name`: the caller's global `name`, bound. */
  | { kind: 'global'; name: string };

export interface ScannedSql {
  pieces: SqlPiece[];
  /** What is wrong with the text, each a sentence without the resource's name. */
  problems: string[];
  /** Table names written straight after FROM or JOIN rather than as a placeholder (checked against the project's tables). */
  bareTables: string[];
}

/** An alias or a plain table name written into SQL unquoted: letters, digits and underscores, lower case (PostgreSQL folds the rest). */
export const PLAIN_NAME = /^[a-z_][a-z0-9_]*$/;

const WORD = /[A-Za-z_][A-Za-z0-9_$]*/y;
const PARAMETER = /:(@?)([A-Za-z_][A-Za-z0-9_.]*)/y;
const PLACEHOLDER = /\{\s*([A-Za-z_][A-Za-z0-9_:]*)(?:\s+([A-Za-z_][A-Za-z0-9_]*))?\s*\}/y;
/** Words that make a statement write, lock or leave the one SELECT; the read-only transaction refuses the rest. */
const WRITING_WORDS = new Set([
  'insert',
  'update',
  'delete',
  'merge',
  'create',
  'drop',
  'alter',
  'truncate',
  'grant',
  'revoke',
  'call',
  'into',
]);
/** Words that page a result: Tessera appends its own LIMIT and OFFSET. */
const PAGING_WORDS = new Set(['limit', 'offset', 'fetch']);

/**
 * Reads a SQL resource's text once, at boot: where its placeholders, parameters and globals are (never inside
 * a string, a quoted identifier or a comment), and whether it is one SELECT (or WITH) statement that writes
 * nothing and pages itself nowhere at its top level (Tessera appends LIMIT and OFFSET).
 */
export function scanSql(sql: string, dialect: Dialect): ScannedSql {
  const pieces: SqlPiece[] = [];
  const problems = new Set<string>();
  const bareTables: string[] = [];
  let text = '';
  let depth = 0;
  let firstWord: string | undefined;
  let previousWord: string | undefined;
  const flush = (): void => {
    if (text !== '') pieces.push({ kind: 'text', text });
    text = '';
  };
  let i = 0;
  while (i < sql.length) {
    const c = sql[i]!;
    const next = sql[i + 1];
    const skipped = skipQuotedOrComment(sql, i, dialect);
    if (skipped > i) {
      text += sql.slice(i, skipped);
      i = skipped;
      continue;
    }
    if (c === '{') {
      PLACEHOLDER.lastIndex = i;
      const match = PLACEHOLDER.exec(sql);
      if (!match) {
        problems.add('a "{" that starts no table placeholder: write {table} or {table alias}');
        text += c;
        i += 1;
        continue;
      }
      flush();
      pieces.push({ kind: 'table', table: match[1]!, alias: match[2] ?? match[1]! });
      previousWord = undefined;
      i = PLACEHOLDER.lastIndex;
      continue;
    }
    if (c === ':' && next === ':') {
      text += '::';
      i += 2;
      continue;
    }
    if (c === ':') {
      PARAMETER.lastIndex = i;
      const match = PARAMETER.exec(sql);
      if (match) {
        flush();
        pieces.push(match[1] ? { kind: 'global', name: match[2]! } : { kind: 'parameter', name: match[2]! });
        i = PARAMETER.lastIndex;
        continue;
      }
    }
    if ((c === '?' && dialect !== 'postgres') || (c === '$' && next !== undefined && /\d/.test(next))) {
      problems.add(`a placeholder "${c}" of the driver's: name the value as a parameter (:name) instead`);
    }
    if (c === ';') problems.add('a ";": a SQL resource is one statement, without a ";"');
    if (c === '(') depth += 1;
    if (c === ')') depth -= 1;
    WORD.lastIndex = i;
    const word = /[A-Za-z_]/.test(c) ? WORD.exec(sql)?.[0] : undefined;
    if (word !== undefined) {
      const lower = word.toLowerCase();
      firstWord ??= lower;
      if (WRITING_WORDS.has(lower)) problems.add(`the word ${word.toUpperCase()}: a SQL resource only reads`);
      if (depth === 0 && PAGING_WORDS.has(lower))
        problems.add(`its own ${word.toUpperCase()}: Tessera pages the result (pagesize, offset)`);
      if (depth === 0 && lower === 'for') problems.add('FOR (a locking clause): a SQL resource only reads');
      if (previousWord === 'from' || previousWord === 'join') bareTables.push(word);
      previousWord = lower;
      text += word;
      i += word.length;
      continue;
    }
    if (!/\s/.test(c)) previousWord = c === ',' ? previousWord : undefined;
    text += c;
    i += 1;
  }
  flush();
  if (firstWord !== 'select' && firstWord !== 'with') problems.add('no SELECT (or WITH) at its start: a SQL resource is one SELECT');
  return { pieces, problems: [...problems], bareTables };
}

/** The index after a string, quoted identifier or comment starting at `i`; `i` itself when none starts there. */
function skipQuotedOrComment(sql: string, i: number, dialect: Dialect): number {
  const c = sql[i]!;
  const next = sql[i + 1];
  if (c === '-' && next === '-') return endOf(sql, '\n', i + 2, true);
  if (c === '#' && dialect === 'mysql') return endOf(sql, '\n', i + 1, true);
  if (c === '/' && next === '*') return endOf(sql, '*/', i + 2, true);
  if (c === "'" || c === '"' || c === '`') {
    let j = i + 1;
    while (j < sql.length) {
      if (sql[j] === '\\' && dialect === 'mysql' && c !== '`') j += 2;
      else if (sql[j] === c && sql[j + 1] === c) j += 2;
      else if (sql[j] === c) return j + 1;
      else j += 1;
    }
    return sql.length;
  }
  if (c === '$' && dialect === 'postgres') {
    const tag = /\$[A-Za-z_]*\$/y;
    tag.lastIndex = i;
    const match = tag.exec(sql);
    if (match) return endOf(sql, match[0], tag.lastIndex, true);
  }
  return i;
}

function endOf(sql: string, terminator: string, from: number, inclusive: boolean): number {
  const at = sql.indexOf(terminator, from);
  if (at < 0) return sql.length;
  return inclusive ? at + terminator.length : at;
}
