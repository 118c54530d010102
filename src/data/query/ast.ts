/**
 * The syntax tree of the query language (api-contract §5). Filter, sysfilter, order and
 * sysorder texts all parse into these types; the SQL compiler reads nothing else, so a tree
 * built by hand (for example a role's row filter) compiles under the same checks.
 */

/** A column, as named in the request: `['balance']`, or `['purchaseorder', 'salesrep_id']` for a parent's column. */
export type ColumnPath = string[];

export interface ColumnRef {
  kind: 'column';
  path: ColumnPath;
}

export interface StringLiteral {
  kind: 'string';
  value: string;
}

/** A number keeps the text it was written with, so a decimal never passes through a JS float. */
export interface NumberLiteral {
  kind: 'number';
  text: string;
}

export interface BooleanLiteral {
  kind: 'boolean';
  value: boolean;
}

export interface NullLiteral {
  kind: 'null';
}

/** `@{name}`: a global value of the caller (role row filters), bound at compile time. */
export interface GlobalRef {
  kind: 'global';
  name: string;
}

/** Anything that stands where a value may: a literal or a global reference. */
export type Literal = StringLiteral | NumberLiteral | BooleanLiteral | NullLiteral | GlobalRef;

export type Operand = ColumnRef | Literal;

/** `!=` is read as `<>`. */
export type ComparisonOperator = '=' | '<>' | '<' | '<=' | '>' | '>=';

/** `left op right`; the parser guarantees at least one side is a column. */
export interface Comparison {
  type: 'compare';
  operator: ComparisonOperator;
  left: Operand;
  right: Operand;
  /** sysfilter `_uc`: compare `UPPER(left)` with `UPPER(right)`. Always false from a free-form filter. */
  caseInsensitive: boolean;
}

export interface LikeTest {
  type: 'like';
  negated: boolean;
  subject: ColumnRef;
  pattern: Literal;
  caseInsensitive: boolean;
}

export interface InTest {
  type: 'in';
  negated: boolean;
  subject: ColumnRef;
  /** Never empty. */
  values: Literal[];
}

export interface BetweenTest {
  type: 'between';
  negated: boolean;
  subject: ColumnRef;
  low: Literal;
  high: Literal;
}

export interface NullTest {
  type: 'isNull';
  /** `is not null` */
  negated: boolean;
  subject: ColumnRef;
}

/** `a and b and c` is one node with three operands; parentheses keep their own node. */
export interface AndNode {
  type: 'and';
  operands: FilterNode[];
}

export interface OrNode {
  type: 'or';
  operands: FilterNode[];
}

export interface NotNode {
  type: 'not';
  operand: FilterNode;
}

export type Predicate = Comparison | LikeTest | InTest | BetweenTest | NullTest;

export type FilterNode = AndNode | OrNode | NotNode | Predicate;

export interface OrderTerm {
  column: ColumnPath;
  direction: 'asc' | 'desc';
  /** `asc_uc` / `desc_uc`: sort by `UPPER(column)`; with `lowerCase`, `asc_lc` / `desc_lc`: by `LOWER(column)`. */
  caseInsensitive: boolean;
  /** `_lc`: the case-insensitive sort compares lower-cased values (unlike `_uc` for characters between `Z` and `a`, such as `_`). */
  lowerCase?: boolean;
  /** `null_first` / `null_last`: where nulls go; absent, nulls sort as the smallest value. */
  nulls?: 'first' | 'last';
}
