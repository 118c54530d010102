/** A piece of an SQL statement: a word, a quoted name or string, a parenthesis or comma, or any other character; comments and spaces are left out. */
interface Token {
  kind: 'word' | 'quoted' | 'string' | '(' | ')' | ',' | 'other';
  /** A word as written; a quoted name without its quotes (a doubled quote is one). */
  text: string;
  start: number;
  end: number;
}

/**
 * The tokens of a CREATE TABLE statement. `backslashEscapes`: a backslash escapes the next
 * character inside a string, as MySQL/MariaDB write them (SQLite has no escapes: a doubled quote
 * is one, as in both).
 */
function tokens(sql: string, backslashEscapes: boolean): Token[] {
  const found: Token[] = [];
  let i = 0;
  while (i < sql.length) {
    const c = sql[i]!;
    const start = i;
    if (/\s/.test(c)) {
      i++;
    } else if (sql.startsWith('--', i)) {
      const end = sql.indexOf('\n', i);
      i = end === -1 ? sql.length : end + 1;
    } else if (sql.startsWith('/*', i)) {
      const end = sql.indexOf('*/', i + 2);
      i = end === -1 ? sql.length : end + 2;
    } else if (c === "'" || c === '"' || c === '`' || c === '[') {
      const close = c === '[' ? ']' : c;
      let text = '';
      for (i++; i < sql.length; i++) {
        if (backslashEscapes && c !== '`' && c !== '[' && sql[i] === '\\') {
          text += sql.slice(i, i + 2);
          i++;
        } else if (sql[i] !== close) text += sql.charAt(i);
        else if (close !== ']' && sql[i + 1] === close) {
          text += close;
          i++;
        } else break;
      }
      i = Math.min(i + 1, sql.length);
      found.push({ kind: c === "'" ? 'string' : 'quoted', text, start, end: i });
    } else if (c === '(' || c === ')' || c === ',') {
      i++;
      found.push({ kind: c, text: c, start, end: i });
    } else {
      const word = /^[A-Za-z0-9_$\u0080-\uffff]+/.exec(sql.slice(i))?.[0];
      i += word?.length ?? 1;
      found.push({ kind: word ? 'word' : 'other', text: word ?? c, start, end: i });
    }
  }
  return found;
}

/** The parenthesis that closes the one at `open`, if the tokens hold it. */
function closing(list: Token[], open: number): Token | undefined {
  let depth = 0;
  for (const token of list.slice(open)) {
    if (token.kind === '(') depth++;
    else if (token.kind === ')' && --depth === 0) return token;
  }
  return undefined;
}

/** Words that begin a table constraint rather than a column in a CREATE TABLE's list (SQLite's and MySQL's). */
const TABLE_CONSTRAINTS = new Set(['constraint', 'primary', 'unique', 'check', 'foreign', 'key', 'index', 'fulltext', 'spatial', 'period']);

/**
 * The expression of each generated (computed) column of a CREATE TABLE statement, by column
 * name, as the statement writes it between the parentheses of `[GENERATED ALWAYS] AS (...)`:
 * SQLite's own statement (sqlite_master: SQLite keeps the expression nowhere else),
 * MySQL/MariaDB's SHOW CREATE TABLE (`backslashEscapes`), which writes it as their CREATE TABLE
 * takes it back.
 */
export function generatedExpressions(createTable: string, backslashEscapes: boolean): Map<string, string> {
  const expressions = new Map<string, string>();
  const all = tokens(createTable, backslashEscapes);
  const open = all.findIndex((token) => token.kind === '(');
  if (open === -1) return expressions;
  // The column list: its items split at the commas outside any parentheses.
  let depth = 0;
  let item: Token[] = [];
  const items: Token[][] = [];
  for (const token of all.slice(open + 1)) {
    if (token.kind === '(') depth++;
    if (token.kind === ')' && depth-- === 0) break;
    if (token.kind === ',' && depth === 0) {
      items.push(item);
      item = [];
    } else item.push(token);
  }
  items.push(item);
  for (const [name, ...rest] of items) {
    if (!name || (name.kind === 'word' && TABLE_CONSTRAINTS.has(name.text.toLowerCase()))) continue;
    if (name.kind !== 'word' && name.kind !== 'quoted') continue;
    let level = 0;
    for (let i = 0; i < rest.length - 1; i++) {
      const token = rest[i]!;
      if (token.kind === '(') level++;
      else if (token.kind === ')') level--;
      else if (level === 0 && token.kind === 'word' && token.text.toLowerCase() === 'as' && rest[i + 1]!.kind === '(') {
        const close = closing(rest, i + 1);
        if (close) expressions.set(name.text, createTable.slice(rest[i + 1]!.end, close.start).trim());
        break;
      }
    }
  }
  return expressions;
}
