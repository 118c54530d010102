import { FILTER_KEYWORDS } from './filter-parser.js';
import type { FilterNode, Operand } from './ast.js';

const PRECEDENCE = { or: 1, and: 2, not: 3 } as const;

/**
 * Prints a filter tree as free-form filter text that `parseFilter` reads back into the same
 * tree (for logs, links and tests). Parentheses appear only where the tree needs them.
 *
 * @throws Error for trees the free-form grammar cannot spell: sysfilter's case-insensitive
 *   (`_uc`) comparisons and empty `and` / `or` nodes.
 */
export function printFilter(node: FilterNode): string {
  switch (node.type) {
    case 'and':
    case 'or': {
      if (node.operands.length === 0) throw new Error(`an empty "${node.type}" has no free-form spelling`);
      // A child of the same kind was written in parentheses (the parser flattens only a chain).
      return node.operands.map((operand) => printChild(operand, PRECEDENCE[node.type])).join(` ${node.type} `);
    }
    case 'not':
      return `not ${printChild(node.operand, PRECEDENCE.not - 1)}`;
    case 'compare':
      refuseCaseInsensitive(node.caseInsensitive);
      return `${printOperand(node.left)} ${node.operator} ${printOperand(node.right)}`;
    case 'like':
      refuseCaseInsensitive(node.caseInsensitive);
      return `${printOperand(node.subject)} ${negation(node.negated)}like ${printOperand(node.pattern)}`;
    case 'in':
      return `${printOperand(node.subject)} ${negation(node.negated)}in (${node.values.map(printOperand).join(', ')})`;
    case 'between':
      return `${printOperand(node.subject)} ${negation(node.negated)}between ${printOperand(node.low)} and ${printOperand(node.high)}`;
    case 'isNull':
      return `${printOperand(node.subject)} is ${negation(node.negated)}null`;
  }
}

/** Parenthesizes `and`, `or` children that bind no tighter than `parent`. */
function printChild(node: FilterNode, parent: number): string {
  const text = printFilter(node);
  const own = node.type === 'and' || node.type === 'or' ? PRECEDENCE[node.type] : Infinity;
  return own <= parent ? `(${text})` : text;
}

function printOperand(operand: Operand): string {
  switch (operand.kind) {
    case 'column':
      return isPlainName(operand.path) ? operand.path.join('.') : quotedName(operand.path);
    case 'string':
      // A backslash starts an escape (lexer.ts): it is written as one.
      return `'${operand.value.replaceAll('\\', '\\\\').replaceAll("'", "''")}'`;
    case 'number':
      return operand.text;
    case 'boolean':
      return String(operand.value);
    case 'null':
      return 'null';
    case 'global':
      return `@{${operand.name}}`;
  }
}

/** Words the lexer reads as the path: a single keyword would not be read as a column. */
function isPlainName(path: string[]): boolean {
  return path.every((part) => /^[A-Za-z_][A-Za-z0-9_]*$/.test(part)) && !(path.length === 1 && FILTER_KEYWORDS.has(path[0]!.toLowerCase()));
}

/** A name that is no plain word (a keyword, a space): one double-quoted part. */
function quotedName(path: string[]): string {
  if (path.length !== 1) throw new Error('a qualified name with a part that is no plain word has no free-form spelling');
  return `"${path[0]!.replaceAll('\\', '\\\\').replaceAll('"', '""')}"`;
}

function negation(negated: boolean): string {
  return negated ? 'not ' : '';
}

function refuseCaseInsensitive(caseInsensitive: boolean): void {
  if (caseInsensitive) throw new Error('a case-insensitive (_uc) comparison has no free-form spelling');
}
