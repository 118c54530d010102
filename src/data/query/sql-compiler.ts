import { ApiError } from '../../common/api-error.js';
import { ErrorCode } from '../../common/error-codes.js';
import type { ColumnPath, ColumnRef, Comparison, FilterNode, Literal, OrderTerm } from './ast.js';
import { comparedPlaceholder, convertLiteral, literalOfGlobal, type PlainLiteral } from './column-values.js';
import type { ColumnKind } from '../column-kind.js';
import { positionalParams, type ColumnResolver, type CompileContext, type ParameterSink, type ResolvedColumn } from './compile-context.js';
import { excerpt } from './limits.js';

/** What a filter compiles to when it may admit no row at all. */
export const FALSE_PREDICATE = '(1=0)';
const TRUE_PREDICATE = '(1=1)';

/**
 * Compiles a filter tree into a parenthesized SQL boolean expression. Values only ever reach
 * the SQL as placeholders from `ctx.params`; identifiers only as `ctx.columns` returns them.
 *
 * Semantics, the same on SQLite, MySQL/MariaDB and PostgreSQL unless said otherwise:
 * - `= null` / `<> null` mean `IS NULL` / `IS NOT NULL`; null is refused anywhere else
 *   (ordering comparisons, `in` lists, `between`, `like`), since SQL would silently match nothing.
 * - Strings compare under the database's collation (MySQL's default is case-insensitive,
 *   PostgreSQL's and SQLite's `=` are not). sysfilter `_uc` is the portable case-insensitive
 *   form: `UPPER(column) op UPPER(value)` (SQLite upper-cases ASCII letters only).
 * - `like`: `%` matches any run of characters and `_` one character; every other character,
 *   backslash included, matches itself: there is no escape character for the client (the
 *   compiled SQL says `ESCAPE '!'` and doubles any `!` in the pattern so that all three
 *   databases agree). Case sensitivity is the database's LIKE (SQLite: ASCII case-insensitive;
 *   MySQL: the collation; PostgreSQL: case-sensitive); `_uc` is case-insensitive everywhere.
 *   `like` applies to string columns only.
 * - Each value must suit its column's kind; what each kind takes and how it is bound (integers
 *   as numbers, decimals as exact text, booleans as 1/0 or true/false, datetimes as UTC
 *   `'YYYY-MM-DD HH:MM:SS.fff'`) is listed at `convertLiteral` in `column-values.ts`.
 * - Booleans accept `=`, `<>` and `in`. Decimals bind as their exact text; on MySQL the
 *   placeholder is `CAST(? AS DECIMAL(65,30))`, because MySQL compares a DECIMAL column with a
 *   text parameter as doubles.
 * - Two columns may be compared when their kinds agree (numbers with numbers, dates with
 *   datetimes, strings with strings, booleans with booleans).
 * - Globals (`@{name}`): when any global the filter names is absent from `ctx.globals`, is null,
 *   or does not fit its column's kind, the WHOLE filter compiles to `(1=0)` (no parameter is
 *   added). Whole, not just the one comparison, so that `not`/`or` cannot turn a missing global
 *   into access (api-contract §7: such a row filter denies access).
 *
 * Nothing is added to `ctx.params` when an error is thrown.
 *
 * @throws ApiError 400 / 4003 `unknown column "x"` when the resolver refuses a column;
 *   400 / 4000 naming the column when a value or operator does not fit its kind.
 */
export function compileFilter(node: FilterNode, ctx: CompileContext): string {
  // A first pass against a scratch sink finds errors and unusable globals before the
  // caller's sink receives anything; only a clean tree is compiled for real.
  const probe = new FilterCompiler({ ...ctx, params: positionalParams() });
  probe.compile(node);
  if (probe.denied) return FALSE_PREDICATE;
  return new FilterCompiler(ctx).compile(node);
}

/**
 * Compiles sort terms into `ORDER BY` items, e.g. `['"t"."balance" DESC', 'UPPER("t"."name") ASC']`.
 * Nulls sort as the smallest value on all three databases (PostgreSQL gets `NULLS FIRST` /
 * `NULLS LAST` to match SQLite and MySQL, except on a column that cannot be NULL, whose plain
 * index then serves the order). `_uc` terms sort by `UPPER(column)`, `_lc` terms by
 * `LOWER(column)`; both need string columns. `null_first` / `null_last` place the nulls explicitly:
 * PostgreSQL says `NULLS FIRST` / `NULLS LAST`; SQLite and MariaDB/MySQL (which have no such clause,
 * or not in every supported version) get a leading `(column IS NULL) DESC` / `ASC` item, which the
 * three databases order the same way (false before true).
 *
 * @throws ApiError 400 / 4003 for a refused column, 400 / 4000 for `_uc` / `_lc` on a non-string column.
 */
export function compileOrder(terms: OrderTerm[], ctx: CompileContext): string[] {
  return terms.flatMap((term) => {
    const column = resolveColumn(ctx.columns, term.column);
    if (term.caseInsensitive) requireString(column, term.column, `a case-insensitive sort (${term.lowerCase ? '_lc' : '_uc'})`);
    const direction = term.direction === 'desc' ? 'DESC' : 'ASC';
    const nullsFirst = term.nulls ? term.nulls === 'first' : term.direction === 'asc';
    const items: string[] = [];
    // A column's SQL may bind values (a guard): each item writes it anew, in the order the items appear.
    if (term.nulls && ctx.dialect !== 'postgres' && !column.notNull) items.push(`(${sqlOf(column, ctx.params)} IS NULL) ${nullsFirst ? 'DESC' : 'ASC'}`);
    const sql = sqlOf(column, ctx.params);
    const expression = term.caseInsensitive ? `${term.lowerCase ? 'LOWER' : 'UPPER'}(${sql})` : sql;
    const nulls = ctx.dialect === 'postgres' && !column.notNull ? (nullsFirst ? ' NULLS FIRST' : ' NULLS LAST') : '';
    items.push(`${expression} ${direction}${nulls}`);
    return items;
  });
}

class FilterCompiler {
  /** Set when a global is unusable: the filter as a whole must admit nothing. */
  denied = false;

  constructor(private readonly ctx: CompileContext) {}

  compile(node: FilterNode): string {
    switch (node.type) {
      case 'and':
      case 'or':
        if (node.operands.length === 0) return node.type === 'and' ? TRUE_PREDICATE : FALSE_PREDICATE;
        return `(${node.operands.map((operand) => this.compile(operand)).join(node.type === 'and' ? ' AND ' : ' OR ')})`;
      case 'not':
        return `(NOT ${this.compile(node.operand)})`;
      case 'compare':
        return this.comparison(node);
      case 'like': {
        const column = this.column(node.subject);
        requireString(column, node.subject.path, '"like"');
        const pattern = this.plainValue(node.pattern, column, node.subject.path, 'like');
        const escaped = typeof pattern === 'string' ? pattern.replaceAll('!', '!!') : pattern;
        const columnSql = this.sql(column);
        const placeholder = this.ctx.params.add(escaped);
        const [subject, value] = node.caseInsensitive ? [`UPPER(${columnSql})`, `UPPER(${placeholder})`] : [columnSql, placeholder];
        return `(${subject} ${node.negated ? 'NOT LIKE' : 'LIKE'} ${value} ESCAPE '!')`;
      }
      case 'in': {
        const column = this.column(node.subject);
        const columnSql = this.sql(column);
        const placeholders = node.values.map((value) => this.bind(value, column, node.subject.path, 'in'));
        return `(${columnSql} ${node.negated ? 'NOT IN' : 'IN'} (${placeholders.join(', ')}))`;
      }
      case 'between': {
        const column = this.column(node.subject);
        refuseBoolean(column, node.subject.path, '"between"');
        const columnSql = this.sql(column);
        const low = this.bind(node.low, column, node.subject.path, 'between');
        const high = this.bind(node.high, column, node.subject.path, 'between');
        return `(${columnSql} ${node.negated ? 'NOT BETWEEN' : 'BETWEEN'} ${low} AND ${high})`;
      }
      case 'isNull':
        return `(${this.sql(this.column(node.subject))} ${node.negated ? 'IS NOT NULL' : 'IS NULL'})`;
    }
  }

  private comparison(node: Comparison): string {
    const { left, right, operator } = node;
    if (left.kind === 'column' && right.kind === 'column') {
      const [a, b] = [this.column(left), this.column(right)];
      if (kindFamily(a.kind) !== kindFamily(b.kind)) {
        throw badRequest(`columns "${nameOf(left.path)}" and "${nameOf(right.path)}" cannot be compared: ${a.kind} and ${b.kind}`);
      }
      if (operator !== '=' && operator !== '<>') refuseBoolean(a, left.path, `"${operator}"`);
      if (node.caseInsensitive) requireString(a, left.path, 'a case-insensitive comparison (_uc)');
      const leftSql = this.upper(this.sql(a), node);
      return `(${leftSql} ${operator} ${this.upper(this.sql(b), node)})`;
    }
    const ref = left.kind === 'column' ? left : right.kind === 'column' ? right : undefined;
    if (!ref) throw badRequest('a comparison needs a column on one side');
    const columnOnLeft = ref === left;
    const value = (columnOnLeft ? right : left) as Literal;

    const column = this.column(ref);
    if (value.kind === 'null') {
      if (operator === '=' || operator === '<>') return `(${this.sql(column)} ${operator === '=' ? 'IS NULL' : 'IS NOT NULL'})`;
      throw badRequest(`column "${nameOf(ref.path)}": null can only be compared with = or <> (or use is null)`);
    }
    if (operator !== '=' && operator !== '<>') refuseBoolean(column, ref.path, `"${operator}"`);
    if (node.caseInsensitive) requireString(column, ref.path, 'a case-insensitive comparison (_uc)');
    // Parameters are bound in the order they appear in the SQL (`?` placeholders are positional).
    if (columnOnLeft) {
      const columnSql = this.upper(this.sql(column), node);
      return `(${columnSql} ${operator} ${this.upper(this.bind(value, column, ref.path, operator), node)})`;
    }
    const placeholder = this.upper(this.bind(value, column, ref.path, operator), node);
    return `(${placeholder} ${operator} ${this.upper(this.sql(column), node)})`;
  }

  private upper(sql: string, node: Comparison): string {
    return node.caseInsensitive ? `UPPER(${sql})` : sql;
  }

  private column(ref: ColumnRef): ResolvedColumn {
    return resolveColumn(this.ctx.columns, ref.path);
  }

  /** The column's SQL, written now: call it where the SQL goes, in order with the values bound around it. */
  private sql(column: ResolvedColumn): string {
    return sqlOf(column, this.ctx.params);
  }

  /** Binds a value compared with `column` and returns its placeholder. */
  private bind(literal: Literal, column: ResolvedColumn, path: ColumnPath, operator: string): string {
    return comparedPlaceholder(column.kind, this.ctx.dialect, this.ctx.params.add(this.plainValue(literal, column, path, operator)));
  }

  /** The value to bind for a non-null literal or global; an unusable global sets `denied`. */
  private plainValue(literal: Literal, column: ResolvedColumn, path: ColumnPath, operator: string): unknown {
    if (literal.kind === 'null') {
      throw badRequest(`column "${nameOf(path)}": null cannot be used with ${operator}; use is null`);
    }
    let plain: PlainLiteral;
    if (literal.kind === 'global') {
      const globals = this.ctx.globals ?? {};
      const value = Object.hasOwn(globals, literal.name) ? globals[literal.name] : undefined;
      if (value === undefined || value === null) return this.deny();
      plain = literalOfGlobal(value, column.kind);
    } else {
      plain = literal;
    }
    const conversion = convertLiteral(column.kind, plain, this.ctx.dialect);
    if (conversion.ok) return conversion.value;
    if (literal.kind === 'global') return this.deny();
    throw badRequest(`column "${nameOf(path)}" takes ${conversion.expected}, not ${describeLiteral(plain)}`);
  }

  private deny(): null {
    this.denied = true;
    return null;
  }
}

function sqlOf(column: ResolvedColumn, params: ParameterSink): string {
  return column.render ? column.render(params) : column.sql;
}

function resolveColumn(columns: ColumnResolver, path: ColumnPath): ResolvedColumn {
  const column = columns.resolve(path);
  if (!column) throw new ApiError(ErrorCode.UNKNOWN_COLUMN, `unknown column "${nameOf(path)}"`);
  // The databases compare JSON differently (PostgreSQL's json not at all): no filter or sort reads it.
  if (column.kind === 'json') throw badRequest(`column "${nameOf(path)}" holds JSON values, which filters and sorts cannot compare`);
  // Bytes compare differently too (SQLite's blob with text, MySQL's padded binary(n)): neither is filtered nor sorted on.
  if (column.kind === 'binary') throw badRequest(`column "${nameOf(path)}" holds binary values, which filters and sorts cannot compare`);
  return column;
}

function requireString(column: ResolvedColumn, path: ColumnPath, what: string): void {
  if (column.kind !== 'string') throw badRequest(`${what} applies to text columns only, and "${nameOf(path)}" holds ${column.kind} values`);
}

function refuseBoolean(column: ResolvedColumn, path: ColumnPath, what: string): void {
  if (column.kind === 'boolean') throw badRequest(`column "${nameOf(path)}" holds true/false values: use = or <>, not ${what}`);
}

/** Kinds that SQL can compare with each other. */
function kindFamily(kind: ColumnKind): string {
  if (kind === 'integer' || kind === 'decimal') return 'number';
  if (kind === 'date' || kind === 'datetime') return 'date';
  return kind;
}

function nameOf(path: ColumnPath): string {
  return excerpt(path.join('.'), 64);
}

function describeLiteral(literal: PlainLiteral): string {
  switch (literal.kind) {
    case 'string':
      return `'${excerpt(literal.value)}'`;
    case 'number':
      return excerpt(literal.text);
    case 'boolean':
      return String(literal.value);
  }
}

function badRequest(message: string): ApiError {
  return new ApiError(ErrorCode.BAD_REQUEST, message);
}
