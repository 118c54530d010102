import { apiErrorOf } from '../../../test/support/api-error-of.js';
import type { FilterNode } from './ast.js';
import { parseFilter } from './filter-parser.js';
import { parseOrder, parseSysOrder } from './order-parser.js';
import { compileFilter, compileOrder } from './sql-compiler.js';
import { numberedParams, positionalParams, type CompileContext, type ParameterList, type ResolvedColumn } from './compile-context.js';
import { parseSysFilter } from './sysfilter-parser.js';

const PARENT_SQL = '(SELECT "p"."salesrep_id" FROM "purchaseorder" "p" WHERE "p"."id" = "t"."order_id")';

const COLUMNS: Record<string, ResolvedColumn> = {
  id: { sql: '"t"."id"', kind: 'integer', notNull: true },
  balance: { sql: '"t"."balance"', kind: 'decimal' },
  credit_limit: { sql: '"t"."credit_limit"', kind: 'decimal' },
  name: { sql: '"t"."name"', kind: 'string', maxLength: 30 },
  city: { sql: '"t"."city"', kind: 'string' },
  paid: { sql: '"t"."paid"', kind: 'boolean' },
  due: { sql: '"t"."due"', kind: 'date' },
  created: { sql: '"t"."created"', kind: 'datetime' },
  'purchaseorder.salesrep_id': { sql: PARENT_SQL, kind: 'integer' },
};

function context(dialect: CompileContext['dialect'] = 'sqlite', globals?: CompileContext['globals']): CompileContext & { params: ParameterList } {
  return {
    dialect,
    globals,
    params: dialect === 'postgres' ? numberedParams() : positionalParams(),
    columns: { resolve: (path) => COLUMNS[path.join('.')] },
  };
}

/** Compiles a free-form filter; returns the SQL and the bound values. */
function compile(filter: string | FilterNode, dialect?: CompileContext['dialect'], globals?: CompileContext['globals']) {
  const ctx = context(dialect, globals);
  const tree = typeof filter === 'string' ? parseFilter(filter) : filter;
  return { sql: compileFilter(tree, ctx), values: ctx.params.values };
}

describe('compileFilter: operators', () => {
  it.each([
    ['balance = 10', '("t"."balance" = ?)'],
    ['balance <> 10', '("t"."balance" <> ?)'],
    ['balance != 10', '("t"."balance" <> ?)'],
    ['balance < 10', '("t"."balance" < ?)'],
    ['balance <= 10', '("t"."balance" <= ?)'],
    ['balance > 10', '("t"."balance" > ?)'],
    ['balance >= 10', '("t"."balance" >= ?)'],
    ['10 < balance', '(? < "t"."balance")'],
    ["name like 'A%'", `("t"."name" LIKE ? ESCAPE '!')`],
    ["name not like 'A%'", `("t"."name" NOT LIKE ? ESCAPE '!')`],
    ['id in (1, 2)', '("t"."id" IN (?, ?))'],
    ['id not in (3)', '("t"."id" NOT IN (?))'],
    ['id between 1 and 9', '("t"."id" BETWEEN ? AND ?)'],
    ['id not between 1 and 9', '("t"."id" NOT BETWEEN ? AND ?)'],
    ['name is null', '("t"."name" IS NULL)'],
    ['name is not null', '("t"."name" IS NOT NULL)'],
    ['name = null', '("t"."name" IS NULL)'],
    ['null <> name', '("t"."name" IS NOT NULL)'],
    ['balance <= credit_limit', '("t"."balance" <= "t"."credit_limit")'],
    ['id = balance', '("t"."id" = "t"."balance")'],
    ["due < created", '("t"."due" < "t"."created")'],
    ['purchaseorder.salesrep_id = 7', `(${PARENT_SQL} = ?)`],
    ['not id = 1', '(NOT ("t"."id" = ?))'],
    ['id = 1 and id = 2 or not (id = 3 or id = 4)', '((("t"."id" = ?) AND ("t"."id" = ?)) OR (NOT (("t"."id" = ?) OR ("t"."id" = ?))))'],
  ])('%s', (filter, sql) => {
    expect(compile(filter).sql).toBe(sql);
  });

  it('binds values in placeholder order, numbered on PostgreSQL', () => {
    expect(compile("id in (1, 2) and name like 'x%' and due between '2024-01-01' and '2024-12-31'", 'postgres')).toEqual({
      sql: `(("t"."id" IN (CAST($1 AS bigint), CAST($2 AS bigint))) AND ("t"."name" LIKE $3 ESCAPE '!') AND ("t"."due" BETWEEN $4 AND $5))`,
      values: [1, 2, 'x%', '2024-01-01', '2024-12-31'],
    });
  });

  it('continues the numbering of a sink that starts later', () => {
    const ctx = { ...context('postgres'), params: numberedParams(4) };
    expect(compileFilter(parseFilter('id = 1 or id = 2'), ctx)).toBe('(("t"."id" = CAST($4 AS bigint)) OR ("t"."id" = CAST($5 AS bigint)))');
    expect(ctx.params.values).toEqual([1, 2]);
  });

  it('compiles empty and / or (hand-built trees) to constants', () => {
    expect(compile({ type: 'and', operands: [] }).sql).toBe('(1=1)');
    expect(compile({ type: 'or', operands: [] }).sql).toBe('(1=0)');
  });
});

describe('compileFilter: sysfilter', () => {
  const sys = (text: string, dialect?: CompileContext['dialect']) => {
    const ctx = context(dialect);
    return { sql: compileFilter(parseSysFilter(text), ctx), values: ctx.params.values };
  };

  it.each([
    ['equal(id:1)', '("t"."id" = ?)'],
    ['notequal(id:1)', '("t"."id" <> ?)'],
    ['less(id:1)', '("t"."id" < ?)'],
    ['lessequal(id:1)', '("t"."id" <= ?)'],
    ['greater(id:1)', '("t"."id" > ?)'],
    ['greaterequal(id:1)', '("t"."id" >= ?)'],
    ["like(name:'a%')", `("t"."name" LIKE ? ESCAPE '!')`],
    ["notlike(name:'a%')", `("t"."name" NOT LIKE ? ESCAPE '!')`],
    ['null(name, due)', '(("t"."name" IS NULL) AND ("t"."due" IS NULL))'],
    ['notnull(name)', '("t"."name" IS NOT NULL)'],
    ['null_or(name, due)', '(("t"."name" IS NULL) OR ("t"."due" IS NULL))'],
    ['equal(name:null)', '("t"."name" IS NULL)'],
    ['notequal(name:null)', '("t"."name" IS NOT NULL)'],
    ['less_or(balance:100, credit_limit:500)', '(("t"."balance" < ?) OR ("t"."credit_limit" < ?))'],
    ["equal_uc(name:'alpha')", '(UPPER("t"."name") = UPPER(?))'],
    ["greater_uc(name:'m')", '(UPPER("t"."name") > UPPER(?))'],
    ["like_uc(name:'%al%')", `(UPPER("t"."name") LIKE UPPER(?) ESCAPE '!')`],
    ["notlike_or_uc(name:'a%', city:'b%')", `((UPPER("t"."name") NOT LIKE UPPER(?) ESCAPE '!') OR (UPPER("t"."city") NOT LIKE UPPER(?) ESCAPE '!'))`],
    ["equal_uc_or(name:'a', city:'b')", '((UPPER("t"."name") = UPPER(?)) OR (UPPER("t"."city") = UPPER(?)))'],
  ])('%s', (text, sql) => {
    expect(sys(text).sql).toBe(sql);
  });

  it('binds the values', () => {
    expect(sys("equal(name:'Alpha', balance:12.50, paid:true)")).toEqual({
      sql: '(("t"."name" = ?) AND ("t"."balance" = ?) AND ("t"."paid" = ?))',
      values: ['Alpha', '12.50', 1],
    });
  });

  it('refuses _uc on a column that is not text', () => {
    const error = apiErrorOf(() => sys('equal_uc(balance:1)'));
    expect(error.errorCode).toBe(4000);
    expect(error.message).toBe('a case-insensitive comparison (_uc) applies to text columns only, and "balance" holds decimal values');
  });
});

describe('compileFilter: values and column kinds', () => {
  it('binds integers as numbers and large ones as exact text', () => {
    expect(compile('id = 42').values).toEqual([42]);
    expect(compile('id = -7.000').values).toEqual([-7]);
    expect(compile('id = 9223372036854775807').values).toEqual(['9223372036854775807']);
    expect(compile('id = -9223372036854775808').values).toEqual(['-9223372036854775808']);
  });

  it('casts integers to bigint on PostgreSQL, so a value past a 32-bit column matches nothing instead of failing', () => {
    expect(compile('id < 3000000000', 'postgres')).toEqual({ sql: '("t"."id" < CAST($1 AS bigint))', values: [3000000000] });
    expect(compile('id < 3000000000', 'mysql').sql).toBe('("t"."id" < ?)');
  });

  it('binds decimals as their exact text, cast to DECIMAL on MySQL', () => {
    expect(compile('balance = 0.10000000000000000000000001').values).toEqual(['0.10000000000000000000000001']);
    expect(compile('balance in (1, 2.5)', 'mysql')).toEqual({
      sql: '("t"."balance" IN (CAST(? AS DECIMAL(65,30)), CAST(? AS DECIMAL(65,30))))',
      values: ['1', '2.5'],
    });
    expect(compile('balance between 1 and 2', 'postgres').sql).toBe('("t"."balance" BETWEEN $1 AND $2)');
  });

  it('binds booleans as 1/0 on SQLite and MySQL and true/false on PostgreSQL', () => {
    expect(compile('paid = true', 'sqlite').values).toEqual([1]);
    expect(compile('paid <> false', 'mysql').values).toEqual([0]);
    expect(compile('paid in (true, false)', 'postgres').values).toEqual([true, false]);
  });

  it('binds dates as given and datetimes as UTC in the stored form', () => {
    expect(compile("due = '2024-02-29'").values).toEqual(['2024-02-29']);
    expect(compile("created >= '2024-02-29'").values).toEqual(['2024-02-29 00:00:00.000']);
    expect(compile("created >= '2024-02-29T13:45'").values).toEqual(['2024-02-29 13:45:00.000']);
    expect(compile("created < '2024-02-29 13:45:07.5'").values).toEqual(['2024-02-29 13:45:07.500']);
    expect(compile("created < '2024-02-29 13:45:07.123456'").values).toEqual(['2024-02-29 13:45:07.123456']);
  });

  it('converts a zoned datetime to UTC, and tells PostgreSQL it is UTC', () => {
    expect(compile("created = '2024-01-05T10:00:00.000Z'", 'mysql').values).toEqual(['2024-01-05 10:00:00.000']);
    expect(compile("created = '2024-03-01T01:30:00+02:00'").values).toEqual(['2024-02-29 23:30:00.000']);
    expect(compile("created = '0001-01-01T00:00-0530'").values).toEqual(['0001-01-01 05:30:00.000']);
    expect(compile("created = '2024-12-31T23:00:00-01:00'", 'postgres').values).toEqual(['2025-01-01 00:00:00.000+00:00']);
  });

  it.each([
    ['id = 1.5', 'column "id" takes a whole number, not 1.5'],
    ["id = '1'", `column "id" takes a whole number, not '1'`],
    ['id = 9223372036854775808', 'column "id" takes a whole number within the 64-bit range, not 9223372036854775808'],
    ['balance = true', 'column "balance" takes a number, not true'],
    ['balance = 1234567890123456789012345678901234567', 'column "balance" takes a number of at most 35 digits before and 30 after the point, not 123456789012345678901234…'],
    ['name = 5', 'column "name" takes a quoted text value, not 5'],
    ["paid = 'yes'", `column "paid" takes true or false, not 'yes'`],
    ['paid = 1', 'column "paid" takes true or false, not 1'],
    ["due = '2023-02-29'", `column "due" takes a date written 'YYYY-MM-DD', not '2023-02-29'`],
    ["due = '2024-01-01 10:00'", `column "due" takes a date written 'YYYY-MM-DD', not '2024-01-01 10:00'`],
    ["created = '2024-01-01T10:00+15:00'", `column "created" takes a date and time written 'YYYY-MM-DD HH:MM:SS', not '2024-01-01T10:00+15:00'`],
    ["created = '0001-01-01T00:00+01:00'", `column "created" takes a date and time written 'YYYY-MM-DD HH:MM:SS', not '0001-01-01T00:00+01:00'`],
    ["due = '2024-01-01Z'", `column "due" takes a date written 'YYYY-MM-DD', not '2024-01-01Z'`],
    ["created = '2024-01-01 24:00'", `column "created" takes a date and time written 'YYYY-MM-DD HH:MM:SS', not '2024-01-01 24:00'`],
    ['due = 20240101', `column "due" takes a date written 'YYYY-MM-DD', not 20240101`],
    ['balance like 1', '"like" applies to text columns only, and "balance" holds decimal values'],
    ["due like '2024%'", '"like" applies to text columns only, and "due" holds date values'],
    ['name like null', 'column "name": null cannot be used with like; use is null'],
    ['id in (1, null)', 'column "id": null cannot be used with in; use is null'],
    ['id between null and 2', 'column "id": null cannot be used with between; use is null'],
    ['id < null', 'column "id": null can only be compared with = or <> (or use is null)'],
    ['paid < true', 'column "paid" holds true/false values: use = or <>, not "<"'],
    ['paid between false and true', 'column "paid" holds true/false values: use = or <>, not "between"'],
    ['name = id', 'columns "name" and "id" cannot be compared: string and integer'],
    ['paid = due', 'columns "paid" and "due" cannot be compared: boolean and date'],
  ])('%s -> 400/4000', (filter, message) => {
    const error = apiErrorOf(() => compile(filter));
    expect(error.errorCode).toBe(4000);
    expect(error.message).toBe(message);
  });

  it('refuses a hand-built comparison of two values', () => {
    const tree: FilterNode = { type: 'compare', operator: '=', left: { kind: 'number', text: '1' }, right: { kind: 'number', text: '1' }, caseInsensitive: false };
    expect(apiErrorOf(() => compile(tree)).errorCode).toBe(4000);
  });

  it.each(['secret = 1', "name = 'x' or secret is null", 'purchaseorder.secret = 1', 'id = secret'])(
    'refuses a column the resolver does not give: %s',
    (filter) => {
      const error = apiErrorOf(() => compile(filter));
      expect(error.errorCode).toBe(4003);
      expect(error.message).toMatch(/^unknown column "[a-z.]+"$/);
    },
  );

  it('leaves the caller\'s parameters untouched when it throws', () => {
    const ctx = context();
    expect(() => compileFilter(parseFilter('id = 1 and id = 1.5'), ctx)).toThrow();
    expect(ctx.params.values).toEqual([]);
  });
});

describe('compileFilter: like patterns', () => {
  it('keeps % and _ as wildcards and every other character literal', () => {
    expect(compile(String.raw`name like 'a\%_b!c%'`).values).toEqual([String.raw`a\%_b!!c%`]);
    expect(compile("name like @{pattern}", 'sqlite', { pattern: 'x!%' }).values).toEqual(['x!!%']);
  });
});

describe('compileFilter: globals', () => {
  it('binds a present global as a parameter', () => {
    expect(compile('city = @{region}', 'postgres', { region: "West'; DROP TABLE t; --" })).toEqual({
      sql: '("t"."city" = $1)',
      values: ["West'; DROP TABLE t; --"],
    });
    expect(compile('purchaseorder.salesrep_id = @{_apikey.user_identifier}', 'sqlite', { '_apikey.user_identifier': 12 }).values).toEqual([12]);
  });

  it('reads numeric and boolean text of a global for such columns', () => {
    expect(compile('id = @{employee}', 'sqlite', { employee: '17' }).values).toEqual([17]);
    expect(compile('balance < @{limit}', 'sqlite', { limit: 2.5 }).values).toEqual(['2.5']);
    expect(compile('paid = @{flag}', 'postgres', { flag: 'true' }).values).toEqual([true]);
    expect(compile('name = @{employee}', 'sqlite', { employee: 17 }).values).toEqual(['17']);
  });

  it.each([
    ['absent', 'city = @{region}', {}],
    ['absent, without any globals', 'city = @{region}', undefined],
    ['null', 'city = @{region}', { region: null }],
    ['a prototype property, not a global', 'city = @{constructor}', {}],
    ['of the wrong kind', 'id = @{region}', { region: 'West' }],
    ['not a number', 'balance = @{limit}', { limit: Number.NaN }],
    ['absent under not', 'not city = @{region}', {}],
    ['absent in one branch of an or', "name = 'x' or city <> @{region}", {}],
    ['absent in an in list', 'city not in (@{a}, @{region})', { a: 'x' }],
    ['absent as a like pattern', 'name not like @{region}', {}],
  ])('denies the whole filter when a global is %s', (_, filter, globals) => {
    expect(compile(filter, 'sqlite', globals as CompileContext['globals'])).toEqual({ sql: '(1=0)', values: [] });
  });

  it('still reports an unknown column in a filter with a missing global', () => {
    expect(apiErrorOf(() => compile('secret = @{region}', 'sqlite', {})).errorCode).toBe(4003);
  });
});

describe('compileFilter: no request text in the SQL', () => {
  const hostile = [
    "x'); DROP TABLE customer; --",
    "' OR '1'='1",
    '"t"."id" /* comment */',
    '\\\'; SELECT pg_sleep(10); --',
    '$1 ? ?',
  ];

  it.each(hostile)('binds %j as a value', (value) => {
    const quoted = `'${value.replaceAll('\\', '\\\\').replaceAll("'", "''")}'`;
    for (const dialect of ['sqlite', 'mysql', 'postgres'] as const) {
      const { sql, values } = compile(`name = ${quoted} or name like ${quoted} or name in (${quoted})`, dialect);
      expect(values).toEqual([value, value, value]);
      for (const fragment of ['DROP', '--', '/*', 'OR \'', 'pg_sleep', '1\'=']) {
        expect(sql).not.toContain(fragment);
      }
    }
  });
});

describe('compileOrder', () => {
  const order = (terms: Parameters<typeof compileOrder>[0], dialect: CompileContext['dialect'] = 'sqlite') => compileOrder(terms, context(dialect));

  it('returns ORDER BY items from the resolver', () => {
    expect(order(parseOrder('balance desc, name'))).toEqual(['"t"."balance" DESC', '"t"."name" ASC']);
    expect(order(parseSysOrder('(name:asc_uc, purchaseorder.salesrep_id:desc)'), 'mysql')).toEqual(['UPPER("t"."name") ASC', `${PARENT_SQL} DESC`]);
  });

  it('sorts nulls first ascending on PostgreSQL too, as SQLite and MySQL do', () => {
    expect(order(parseSysOrder('(balance:asc, name:desc_uc)'), 'postgres')).toEqual(['"t"."balance" ASC NULLS FIRST', 'UPPER("t"."name") DESC NULLS LAST']);
  });

  it('leaves the nulls order out on PostgreSQL for a column that cannot be NULL, so its plain index serves the order', () => {
    expect(order(parseSysOrder('(id:asc, balance:desc)'), 'postgres')).toEqual(['"t"."id" ASC', '"t"."balance" DESC NULLS LAST']);
    expect(order(parseSysOrder('(id:desc)'), 'postgres')).toEqual(['"t"."id" DESC']);
    // null_first / null_last place no NULL there either: no leading IS NULL item on SQLite and MariaDB.
    expect(order(parseSysOrder('(id:null_last)'), 'sqlite')).toEqual(['"t"."id" ASC']);
  });

  it('places nulls for null_first / null_last portably: a leading IS NULL item, NULLS FIRST / LAST on PostgreSQL', () => {
    const terms = parseSysOrder('(name:null_first, balance:null_last)');
    for (const dialect of ['sqlite', 'mysql'] as const) {
      expect(order(terms, dialect)).toEqual(['("t"."name" IS NULL) DESC', '"t"."name" ASC', '("t"."balance" IS NULL) ASC', '"t"."balance" ASC']);
    }
    expect(order(terms, 'postgres')).toEqual(['"t"."name" ASC NULLS FIRST', '"t"."balance" ASC NULLS LAST']);
  });

  it('sorts _lc terms by LOWER(column), text columns only', () => {
    expect(order(parseSysOrder('(name:asc_lc, city:desc_lc)'), 'postgres')).toEqual(['LOWER("t"."name") ASC NULLS FIRST', 'LOWER("t"."city") DESC NULLS LAST']);
    expect(order(parseOrder('name desc_lc'))).toEqual(['LOWER("t"."name") DESC']);
    expect(apiErrorOf(() => order(parseSysOrder('(balance:asc_lc)'))).message).toBe(
      'a case-insensitive sort (_lc) applies to text columns only, and "balance" holds decimal values',
    );
  });

  it('refuses an unknown column and _uc on a column that is not text', () => {
    expect(apiErrorOf(() => order(parseOrder('secret'))).errorCode).toBe(4003);
    const error = apiErrorOf(() => order(parseSysOrder('(balance:desc_uc)')));
    expect(error.errorCode).toBe(4000);
    expect(error.message).toBe('a case-insensitive sort (_uc) applies to text columns only, and "balance" holds decimal values');
  });
});

describe('parameter sinks', () => {
  it('collects values with ? or numbered placeholders', () => {
    const positional = positionalParams();
    expect([positional.add('a'), positional.add(2)]).toEqual(['?', '?']);
    expect(positional.values).toEqual(['a', 2]);
    const numbered = numberedParams();
    expect([numbered.add('a'), numbered.add(2)]).toEqual(['$1', '$2']);
    expect(numbered.values).toEqual(['a', 2]);
  });
});


describe('columns whose SQL binds values of its own (render)', () => {
  const guarded: ResolvedColumn = {
    sql: 'unused',
    kind: 'integer',
    render: (params) => `(CASE WHEN "t"."owner" = ${params.add('G')} THEN "t"."secret" END)`,
  };
  const GUARDED = '(CASE WHEN "t"."owner" = ? THEN "t"."secret" END)';
  const ctx = (): CompileContext & { params: ParameterList } => ({
    dialect: 'sqlite',
    params: positionalParams(),
    columns: { resolve: (path) => (path.join('.') === 'secret' ? guarded : COLUMNS[path.join('.')]) },
  });

  it.each([
    ['secret > 5', `(${GUARDED} > ?)`, ['G', 5]],
    ['5 < secret', `(? < ${GUARDED})`, [5, 'G']],
    ['secret between 1 and 2', `(${GUARDED} BETWEEN ? AND ?)`, ['G', 1, 2]],
    ['id = 1 and secret in (3, 4)', `(("t"."id" = ?) AND (${GUARDED} IN (?, ?)))`, [1, 'G', 3, 4]],
    ['secret = null', `(${GUARDED} IS NULL)`, ['G']],
    ['secret = id', `(${GUARDED} = "t"."id")`, ['G']],
  ])('%s binds in the order the placeholders appear', (filter, sql, values) => {
    const c = ctx();
    expect(compileFilter(parseFilter(filter), c)).toBe(sql);
    expect(c.params.values).toEqual(values);
  });

  it('binds an order term\'s own values, and nothing when the filter is refused', () => {
    const c = ctx();
    expect(compileOrder(parseOrder('secret desc, id'), c)).toEqual([`${GUARDED} DESC`, '"t"."id" ASC']);
    expect(c.params.values).toEqual(['G']);
    const nulls = ctx();
    expect(compileOrder(parseSysOrder('(secret:null_last)'), nulls)).toEqual([`(${GUARDED} IS NULL) ASC`, `${GUARDED} ASC`]);
    expect(nulls.params.values).toEqual(['G', 'G']);
    const refused = ctx();
    expect(() => compileFilter(parseFilter("secret like 'x%'"), refused)).toThrow();
    expect(refused.params.values).toEqual([]);
  });
});
