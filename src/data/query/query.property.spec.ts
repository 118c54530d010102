import fc from 'fast-check';
import { ApiError } from '../../common/api-error.js';
import type { ColumnRef, FilterNode, Literal, Operand, Predicate } from './ast.js';
import { FILTER_KEYWORDS, parseFilter } from './filter-parser.js';
import { printFilter } from './filter-printer.js';
import { parseOrder, parseSysOrder } from './order-parser.js';
import { compileFilter, compileOrder } from './sql-compiler.js';
import { numberedParams, positionalParams, type CompileContext, type ParameterList, type ResolvedColumn } from './compile-context.js';
import { parseSysFilter } from './sysfilter-parser.js';

// ---- a resolver for the compiler ------------------------------------------------------

const KINDS: Record<string, ResolvedColumn['kind']> = { a: 'string', name: 'string', balance: 'decimal', id: 'integer', paid: 'boolean', due: 'date', created: 'datetime' };
const PARENT_SQL = '(SELECT "p"."rep" FROM "po" "p" WHERE "p"."id" = "t"."po_id")';
const RESOLVED: Record<string, ResolvedColumn> = {
  ...Object.fromEntries(Object.entries(KINDS).map(([key, kind]) => [key, { sql: `"t"."${key}"`, kind }])),
  'po.rep': { sql: PARENT_SQL, kind: 'integer' },
};

// ---- generated syntax trees ------------------------------------------------------------

const name = fc.stringMatching(/^[A-Za-z_][A-Za-z0-9_]{0,8}$/).filter((word) => !FILTER_KEYWORDS.has(word.toLowerCase()));
const anyColumn: fc.Arbitrary<ColumnRef> = fc.array(name, { minLength: 1, maxLength: 2 }).map((path) => ({ kind: 'column', path }));

const literal: fc.Arbitrary<Literal> = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 12 }).filter((s) => !s.includes('\u0000')).map((value) => ({ kind: 'string' as const, value })),
  fc.stringMatching(/^-?\d{1,12}(\.\d{1,12})?$/).map((text) => ({ kind: 'number' as const, text })),
  fc.boolean().map((value) => ({ kind: 'boolean' as const, value })),
  fc.constant({ kind: 'null' as const }),
  fc.stringMatching(/^[A-Za-z0-9_.]{1,12}$/).map((globalName) => ({ kind: 'global' as const, name: globalName })),
);
const comparisonOperator = fc.constantFrom('=' as const, '<>' as const, '<' as const, '<=' as const, '>' as const, '>=' as const);

/** Predicates over `column`, with values from `valueFor(column)`. */
function predicateOf(column: fc.Arbitrary<ColumnRef>, valueFor: (column: ColumnRef) => fc.Arbitrary<Literal>): fc.Arbitrary<Predicate> {
  return column.chain((subject) => {
    const value = valueFor(subject);
    const operand: fc.Arbitrary<Operand> = fc.oneof(column, value);
    return fc.oneof(
      fc.tuple(comparisonOperator, operand, fc.boolean()).map(([operator, other, columnFirst]) => ({
        type: 'compare' as const,
        operator,
        left: columnFirst ? subject : other,
        right: columnFirst ? other : subject,
        caseInsensitive: false,
      })),
      fc.record({ type: fc.constant('like' as const), negated: fc.boolean(), subject: fc.constant(subject), pattern: value, caseInsensitive: fc.constant(false) }),
      fc.record({ type: fc.constant('in' as const), negated: fc.boolean(), subject: fc.constant(subject), values: fc.array(value, { minLength: 1, maxLength: 4 }) }),
      fc.record({ type: fc.constant('between' as const), negated: fc.boolean(), subject: fc.constant(subject), low: value, high: value }),
      fc.record({ type: fc.constant('isNull' as const), negated: fc.boolean(), subject: fc.constant(subject) }),
    );
  });
}

function treeOf(predicate: fc.Arbitrary<Predicate>): fc.Arbitrary<FilterNode> {
  return fc.letrec<{ tree: FilterNode }>((tie) => ({
    tree: fc.oneof(
      { maxDepth: 3, depthIdentifier: 'tree' },
      predicate,
      fc.record({ type: fc.constant('and' as const), operands: fc.array(tie('tree'), { minLength: 2, maxLength: 3 }) }),
      fc.record({ type: fc.constant('or' as const), operands: fc.array(tie('tree'), { minLength: 2, maxLength: 3 }) }),
      fc.record({ type: fc.constant('not' as const), operand: tie('tree') }),
    ),
  })).tree;
}

/** Any syntactically valid tree. */
const tree = treeOf(predicateOf(anyColumn, () => literal));

/** Values that mostly fit each test column's kind, so that these trees also compile. */
const FITTING: Record<string, fc.Arbitrary<Literal>> = {
  string: fc.oneof(
    fc.string({ unit: 'binary', maxLength: 12 }).filter((s) => !s.includes('\u0000')).map((value) => ({ kind: 'string' as const, value })),
    fc.constantFrom("x'; DROP TABLE t; --", '%!_\\', '$1 ?').map((value) => ({ kind: 'string' as const, value })),
  ),
  integer: fc.stringMatching(/^-?\d{1,15}$/).map((text) => ({ kind: 'number' as const, text })),
  decimal: fc.stringMatching(/^-?\d{1,12}(\.\d{1,12})?$/).map((text) => ({ kind: 'number' as const, text })),
  boolean: fc.boolean().map((value) => ({ kind: 'boolean' as const, value })),
  date: fc.constantFrom('2024-02-29', '1999-12-31').map((value) => ({ kind: 'string' as const, value })),
  datetime: fc.constantFrom('2024-02-29', '2024-01-01 10:00:00.5', '2024-01-01T23:59').map((value) => ({ kind: 'string' as const, value })),
};
const GLOBAL_FOR: Record<string, string> = { string: 'g', integer: 'n', decimal: 'n', boolean: 'b', date: 'absent', datetime: 'absent' };

const knownColumn: fc.Arbitrary<ColumnRef> = fc
  .constantFrom('a', 'name', 'balance', 'id', 'paid', 'due', 'created', 'po.rep', 'secret')
  .map((written) => ({ kind: 'column', path: written.split('.') }));
const compilableTree = treeOf(
  predicateOf(knownColumn, (column) => {
    const kind = RESOLVED[column.path.join('.')]?.kind ?? 'string';
    return fc.oneof(
      { arbitrary: FITTING[kind]!, weight: 8 },
      { arbitrary: fc.constant<Literal>({ kind: 'global', name: GLOBAL_FOR[kind]! }), weight: 1 },
      { arbitrary: literal, weight: 1 },
    );
  }),
);

const GENEROUS = { maxLength: 1_000_000, maxNodes: 1_000_000, maxDepth: 1_000 };

// ---- hostile text ---------------------------------------------------------------------

const FRAGMENTS = [
  ' ', ' ', ' ', 'a', 'name', 'balance', 'id', 'paid', 'due', 'created', 'secret', 'po.rep', 'x.y.z', '=', '<>', '!=', '<', '<=', '>', '>=',
  '(', ')', '(', ')', ',', ':', "'", "''", "'x'", "'2024-02-29'", '1', '-2.5', '0.10', '99999999999999999999', '1.', '-',
  'and', 'OR', 'not', 'like', 'in', 'between', 'is', 'null', 'true', 'false', '@{g}', '@{absent}', '@{', '}', '@',
  '%', '_', ';', '--', '/*', '*/', '"', '`', '\\', '\u0000', '\n', 'é', '𝄞', '$1', '?',
  'equal', 'notequal_uc', 'less_or', 'like_uc_or', 'null', 'notnull', 'equal_or_or', 'asc', 'desc', 'asc_uc', 'desc_uc',
];
const fragmentText = fc.array(fc.constantFrom(...FRAGMENTS), { maxLength: 40 }).map((parts) => parts.join(''));

/** A printed valid tree with a few characters deleted, inserted or replaced. */
const mutatedText = fc
  .tuple(fc.oneof(tree, compilableTree).map(printFilter), fc.array(fc.tuple(fc.nat(), fc.constantFrom('delete', 'insert', 'replace'), fc.constantFrom(...FRAGMENTS)), { maxLength: 4 }))
  .map(([text, edits]) =>
    edits.reduce((current, [at, edit, fragment]) => {
      const i = current.length === 0 ? 0 : at % current.length;
      if (edit === 'delete') return current.slice(0, i) + current.slice(i + 1);
      if (edit === 'insert') return current.slice(0, i) + fragment + current.slice(i);
      return current.slice(0, i) + fragment + current.slice(i + 1);
    }, text),
  );

const anyText = fc.oneof(fragmentText, mutatedText, compilableTree.map(printFilter), fc.string({ unit: 'binary', maxLength: 60 }));

// ---- a whitelist of what compiled SQL may contain -------------------------------------

function contextFor(dialect: CompileContext['dialect']): CompileContext & { params: ParameterList } {
  return {
    dialect,
    params: dialect === 'postgres' ? numberedParams() : positionalParams(),
    columns: { resolve: (path) => (Object.hasOwn(RESOLVED, path.join('.')) ? RESOLVED[path.join('.')] : undefined) },
    globals: { g: 'West', n: 5, b: true },
  };
}

const SQL_TOKENS = [
  ...Object.values(RESOLVED).map((resolved) => resolved.sql),
  "ESCAPE '!'",
  'DECIMAL(65,30)',
  'bigint',
].sort((x, y) => y.length - x.length);
const SQL_WORDS = new Set(['AND', 'OR', 'NOT', 'LIKE', 'IN', 'BETWEEN', 'IS', 'NULL', 'UPPER', 'CAST', 'AS', 'ASC', 'DESC', 'NULLS', 'FIRST', 'LAST']);
const SQL_OTHER = /\s+|\$\d+|\?|<>|<=|>=|[=<>(),]|1=0|1=1|[A-Z]+/y;

/** Splits compiled SQL into resolver SQL, placeholders, operators and keywords; false if anything else is left. */
function onlyWhitelisted(sql: string): { ok: boolean; placeholders: number } {
  let i = 0;
  let placeholders = 0;
  outer: while (i < sql.length) {
    for (const token of SQL_TOKENS) {
      if (sql.startsWith(token, i)) {
        i += token.length;
        continue outer;
      }
    }
    SQL_OTHER.lastIndex = i;
    const match = SQL_OTHER.exec(sql);
    if (!match) return { ok: false, placeholders };
    const token = match[0];
    if (/^[A-Z]+$/.test(token) && !SQL_WORDS.has(token)) return { ok: false, placeholders };
    if (token === '?' || token.startsWith('$')) placeholders++;
    i += token.length;
  }
  return { ok: true, placeholders };
}

/** Runs `work`; an error must be an ApiError with one of `codes` and a short message. */
function expectOnlyApiErrors<T>(codes: number[], work: () => T): T | undefined {
  try {
    return work();
  } catch (error) {
    if (!(error instanceof ApiError) || !codes.includes(error.errorCode) || error.message.length > 300) throw error;
    return undefined;
  }
}

/** Compiles `tree` if it can (else only 4000/4003 may come out) and checks the SQL; true when it compiled. */
function compilesToWhitelistedSql(tree: FilterNode, ctx: CompileContext & { params: ParameterList }): boolean {
  const sql = expectOnlyApiErrors([4000, 4003], () => compileFilter(tree, ctx));
  if (sql === undefined) return false;
  const { ok, placeholders } = onlyWhitelisted(sql);
  expect({ sql, ok }).toEqual({ sql, ok: true });
  expect(placeholders).toBe(ctx.params.values.length);
  return true;
}

// ---- properties -----------------------------------------------------------------------

describe('query language properties', () => {
  it('has a whitelist that refuses anything a value could smuggle in', () => {
    expect(onlyWhitelisted(`("t"."name" = ?) AND (${PARENT_SQL} IN ($1, $2))`)).toEqual({ ok: true, placeholders: 3 });
    for (const sql of [`("t"."name" = 'x')`, '("t"."name" = ?) -- x', '("t"."id" = 5)', '("t"."x" = ?)', '(?); DROP TABLE t']) {
      expect(onlyWhitelisted(sql).ok).toBe(false);
    }
  });

  it('parses a printed tree back into the same tree', () => {
    fc.assert(
      fc.property(fc.oneof(tree, compilableTree), (generated) => {
        expect(parseFilter(printFilter(generated), GENEROUS)).toEqual(generated);
      }),
      { numRuns: 2000 },
    );
  });

  it('compiles trees over known columns into whitelisted SQL with one value per placeholder', () => {
    let compiled = 0;
    fc.assert(
      fc.property(compilableTree, fc.constantFrom('sqlite' as const, 'mysql' as const, 'postgres' as const), (generated, dialect) => {
        if (compilesToWhitelistedSql(generated, contextFor(dialect))) compiled++;
      }),
      { numRuns: 2000 },
    );
    expect(compiled).toBeGreaterThan(200); // the generator must keep reaching the compiler
  });

  it('answers any filter text with a tree or a 4001, and compiles only whitelisted SQL', () => {
    fc.assert(
      fc.property(anyText, fc.constantFrom('sqlite' as const, 'mysql' as const, 'postgres' as const), (text, dialect) => {
        const parsed = expectOnlyApiErrors([4001], () => parseFilter(text));
        if (parsed) compilesToWhitelistedSql(parsed, contextFor(dialect));
      }),
      { numRuns: 2000 },
    );
  });

  it('answers any sysfilter, order or sysorder text with a result or a 4001, and compiles only whitelisted SQL', () => {
    fc.assert(
      fc.property(anyText, fc.constantFrom('sqlite' as const, 'mysql' as const, 'postgres' as const), (text, dialect) => {
        const sysfilter = expectOnlyApiErrors([4001], () => parseSysFilter(text));
        if (sysfilter) compilesToWhitelistedSql(sysfilter, contextFor(dialect));
        for (const parse of [parseOrder, parseSysOrder]) {
          const terms = expectOnlyApiErrors([4001], () => parse(text));
          const items = terms && expectOnlyApiErrors([4000, 4003], () => compileOrder(terms, contextFor(dialect)));
          for (const item of items ?? []) expect(onlyWhitelisted(item).ok).toBe(true);
        }
      }),
      { numRuns: 2000 },
    );
  });

  it('never overflows the stack on deep nesting, whatever the limits', () => {
    fc.assert(
      fc.property(fc.integer({ min: 33, max: 20_000 }), fc.constantFrom('(', 'not ', 'not ('), (depth, opener) => {
        const text = `${opener.repeat(depth)}a = 1${opener.includes('(') ? ')'.repeat(depth) : ''}`;
        expect(expectOnlyApiErrors([4001], () => parseFilter(text, { maxLength: 200_000, maxNodes: 200_000 }))).toBeUndefined();
      }),
      { numRuns: 50 },
    );
  });
});
