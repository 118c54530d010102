import { apiErrorOf } from '../../../test/support/api-error-of.js';
import type { FilterNode, Literal, Operand } from './ast.js';
import { parseFilter } from './filter-parser.js';

const col = (...path: string[]): Operand & { kind: 'column' } => ({ kind: 'column', path });
const num = (text: string): Literal => ({ kind: 'number', text });
const str = (value: string): Literal => ({ kind: 'string', value });
const eq = (name: string, value: string): FilterNode => ({ type: 'compare', operator: '=', left: col(name), right: num(value), caseInsensitive: false });

describe('parseFilter: predicates', () => {
  it.each([
    ['=', '='],
    ['<>', '<>'],
    ['!=', '<>'],
    ['<', '<'],
    ['<=', '<='],
    ['>', '>'],
    ['>=', '>='],
  ])('reads the comparison %s', (written, operator) => {
    expect(parseFilter(`balance ${written} 10`)).toEqual({ type: 'compare', operator, left: col('balance'), right: num('10'), caseInsensitive: false });
  });

  it('reads comparisons without spaces and with the value on the left', () => {
    expect(parseFilter('balance>=-1.50')).toEqual({ type: 'compare', operator: '>=', left: col('balance'), right: num('-1.50'), caseInsensitive: false });
    expect(parseFilter('100 < balance')).toEqual({ type: 'compare', operator: '<', left: num('100'), right: col('balance'), caseInsensitive: false });
  });

  it('reads a comparison of two columns and a qualified column', () => {
    expect(parseFilter('amount_total <= purchaseorder.credit_limit')).toEqual({
      type: 'compare', operator: '<=', left: col('amount_total'), right: col('purchaseorder', 'credit_limit'), caseInsensitive: false,
    });
  });

  it('keeps number text exactly, decimals included', () => {
    expect(parseFilter('x = 0.10000000000000000000000001')).toMatchObject({ right: num('0.10000000000000000000000001') });
    expect(parseFilter('x = 007')).toMatchObject({ right: num('007') });
  });

  it('reads strings with doubled quotes, booleans, null and globals', () => {
    expect(parseFilter("name = 'O''Brien'")).toMatchObject({ right: str("O'Brien") });
    expect(parseFilter("name = ''")).toMatchObject({ right: str('') });
    expect(parseFilter('paid = TRUE')).toMatchObject({ right: { kind: 'boolean', value: true } });
    expect(parseFilter('paid = false')).toMatchObject({ right: { kind: 'boolean', value: false } });
    expect(parseFilter('paid = Null')).toMatchObject({ right: { kind: 'null' } });
    expect(parseFilter('region = @{region}')).toMatchObject({ right: { kind: 'global', name: 'region' } });
    expect(parseFilter('owner = @{_apikey.user_identifier}')).toMatchObject({ right: { kind: 'global', name: '_apikey.user_identifier' } });
  });

  it('reads like and not like', () => {
    expect(parseFilter("name like 'A%'")).toEqual({ type: 'like', negated: false, subject: col('name'), pattern: str('A%'), caseInsensitive: false });
    expect(parseFilter("name NOT LIKE '_b%'")).toEqual({ type: 'like', negated: true, subject: col('name'), pattern: str('_b%'), caseInsensitive: false });
  });

  it('reads in and not in', () => {
    expect(parseFilter("id in (1, 2,3)")).toEqual({ type: 'in', negated: false, subject: col('id'), values: [num('1'), num('2'), num('3')] });
    expect(parseFilter("name not in ('a', @{g})")).toEqual({ type: 'in', negated: true, subject: col('name'), values: [str('a'), { kind: 'global', name: 'g' }] });
  });

  it('reads between and not between', () => {
    expect(parseFilter('balance between 1 and 2')).toEqual({ type: 'between', negated: false, subject: col('balance'), low: num('1'), high: num('2') });
    expect(parseFilter('balance not between 1 and 2')).toMatchObject({ type: 'between', negated: true });
  });

  it('reads is null and is not null', () => {
    expect(parseFilter('notes is null')).toEqual({ type: 'isNull', negated: false, subject: col('notes') });
    expect(parseFilter('notes IS NOT NULL')).toEqual({ type: 'isNull', negated: true, subject: col('notes') });
  });
});

describe('parseFilter: escapes and double-quoted names (LAC 5.3)', () => {
  it.each([
    ["name = 'Alpha\\u0020and Sons'", 'Alpha and Sons'],
    ["name = 'a\\nb\\rc\\td'", 'a\nb\rc\td'],
    ["name = 'O\\'Brien'", "O'Brien"],
    ["name = 'C:\\\\'", 'C:\\'],
    [`name = 'say \\"hi\\"'`, 'say "hi"'],
    ["name = 'C:\\Quit'", 'C:\\Quit'],
    ["name like 'a\\%'", 'a\\%'],
  ])('decodes %s', (text, value) => {
    const tree = parseFilter(text) as { right?: { value: string }; pattern?: { value: string } };
    expect((tree.right ?? tree.pattern)!.value).toBe(value);
  });

  it('reads a double-quoted name as a column, never as a value, keywords included', () => {
    expect(parseFilter(`"name" = 'Alpha and Sons'`)).toEqual({
      type: 'compare',
      operator: '=',
      left: { kind: 'column', path: ['name'] },
      right: { kind: 'string', value: 'Alpha and Sons' },
      caseInsensitive: false,
    });
    expect(parseFilter(`"and" is null and "na\\u006de" = "city"`)).toMatchObject({
      type: 'and',
      operands: [{ type: 'isNull', subject: { path: ['and'] } }, { left: { path: ['name'] }, right: { kind: 'column', path: ['city'] } }],
    });
    expect(apiErrorOf(() => parseFilter(`name like "x%"`)).message).toBe('filter syntax error at position 11: expected a value after "like", found ""x%""');
    expect(apiErrorOf(() => parseFilter(`"" = 1`)).errorCode).toBe(4001);
  });
});

describe('parseFilter: logic and precedence', () => {
  it('binds not tighter than and, and tighter than or', () => {
    expect(parseFilter('not a = 1 and b = 2 or c = 3')).toEqual({
      type: 'or',
      operands: [{ type: 'and', operands: [{ type: 'not', operand: eq('a', '1') }, eq('b', '2')] }, eq('c', '3')],
    });
    expect(parseFilter('a = 1 or b = 2 and c = 3')).toEqual({
      type: 'or',
      operands: [eq('a', '1'), { type: 'and', operands: [eq('b', '2'), eq('c', '3')] }],
    });
  });

  it('makes one node of a chain and keeps parenthesized groups', () => {
    expect(parseFilter('a = 1 AND b = 2 and c = 3')).toEqual({ type: 'and', operands: [eq('a', '1'), eq('b', '2'), eq('c', '3')] });
    expect(parseFilter('(a = 1 and b = 2) and c = 3')).toEqual({
      type: 'and',
      operands: [{ type: 'and', operands: [eq('a', '1'), eq('b', '2')] }, eq('c', '3')],
    });
    expect(parseFilter('(a = 1 or b = 2) and not (c = 3)')).toEqual({
      type: 'and',
      operands: [{ type: 'or', operands: [eq('a', '1'), eq('b', '2')] }, { type: 'not', operand: eq('c', '3') }],
    });
  });

  it('reads between inside an and chain', () => {
    expect(parseFilter('a between 1 and 2 and b = 3')).toEqual({
      type: 'and',
      operands: [{ type: 'between', negated: false, subject: col('a'), low: num('1'), high: num('2') }, eq('b', '3')],
    });
  });

  it('ANDs repeated parameters', () => {
    expect(parseFilter(['a = 1', 'b = 2 or c = 3'])).toEqual({
      type: 'and',
      operands: [eq('a', '1'), { type: 'or', operands: [eq('b', '2'), eq('c', '3')] }],
    });
  });
});

describe('parseFilter: syntax errors', () => {
  it.each([
    ['balance = ', 'filter syntax error at position 11: expected a column or a value after "=", found the end of the text'],
    ['balance = )', 'filter syntax error at position 11: expected a column or a value after "=", found ")"'],
    ['balance 10', 'filter syntax error at position 9: expected an operator such as "=", "like", "in", "between" or "is" after "balance", found "10"'],
    ['a = 1 b = 2', 'filter syntax error at position 7: expected "and", "or" or the end of the text after "1", found "b"'],
    ['(a = 1', 'filter syntax error at position 7: expected ")", "and" or "or" after "1", found the end of the text'],
    ['a is 1', 'filter syntax error at position 6: expected "null" after "is", found "1"'],
    ["name = 'abc", 'filter syntax error at position 8: this string has no closing quote (a quote inside a string is written twice or escaped with a backslash)'],
    ['a = 1 # 2', 'filter syntax error at position 7: unexpected character "#"'],
    ['a in ()', 'filter syntax error at position 7: expected a value after "(", found ")"'],
    ['a in (1,)', 'filter syntax error at position 9: expected a value after ",", found ")"'],
    ['1 = 2', 'filter syntax error at position 1: a comparison needs a column on one side'],
    ["'x' like 'y'", 'filter syntax error at position 5: expected a comparison operator such as "=" after "\'x\'", found "like"'],
    ['and = 1', 'filter syntax error at position 1: expected a condition: a column, a value, "not" or "(", found "and"'],
    ['a.b.c = 1', 'filter syntax error at position 4: a column name may be qualified only once (relationship.column)'],
    ['a = @x', 'filter syntax error at position 5: expected "{" after "@" (a global is written @{name})'],
    ['a = @{x', 'filter syntax error at position 8: expected "}" to close the global "@{x"'],
    ['a = 1.', 'filter syntax error at position 7: expected digits after the decimal point'],
    ['a = 12ab', 'filter syntax error at position 7: expected a number, found "12a"'],
    ['a not = 1', 'filter syntax error at position 7: expected "like", "in" or "between" after "not", found "="'],
    ['a between 1 or 2', 'filter syntax error at position 13: expected "and" after "1", found "or"'],
    ['', 'filter syntax error at position 1: expected a condition: a column, a value, "not" or "(", found the end of the text'],
  ])('%j', (text, message) => {
    const error = apiErrorOf(() => parseFilter(text));
    expect(error.errorCode).toBe(4001);
    expect(error.statusCode).toBe(400);
    expect(error.message).toBe(message);
  });

  it('names the repeated parameter that failed', () => {
    expect(apiErrorOf(() => parseFilter(['a = 1', 'b ='])).message).toMatch(/^filter #2 syntax error at position 4:/);
  });

  it('echoes only a short excerpt of the input', () => {
    const long = 'x'.repeat(500);
    const error = apiErrorOf(() => parseFilter(`a = 1 ${long} = 2`));
    expect(error.message.length).toBeLessThan(160);
    expect(error.message).not.toContain(long);
  });

  it('refuses a NUL character inside a string', () => {
    expect(apiErrorOf(() => parseFilter("a = 'x\u0000y'")).errorCode).toBe(4001);
  });

  it('refuses a lone surrogate inside a string, keeps a pair', () => {
    expect(apiErrorOf(() => parseFilter("a = 'x\ud800y'")).message).toMatch(/lone surrogate/);
    expect(apiErrorOf(() => parseFilter("a = '\udc00'")).errorCode).toBe(4001);
    expect(parseFilter("a = '\ud83d\ude00'")).toMatchObject({ type: 'compare' });
  });
});

describe('parseFilter: limits', () => {
  it('refuses text longer than 4096 characters, counting repeated parameters together', () => {
    const text = `name = '${'x'.repeat(4096)}'`;
    expect(apiErrorOf(() => parseFilter(text)).message).toBe(`filter is too long: ${text.length} characters, at most 4096`);
    const half = `name = '${'x'.repeat(2100)}'`;
    expect(() => parseFilter(half)).not.toThrow();
    expect(apiErrorOf(() => parseFilter([half, half])).errorCode).toBe(4001);
  });

  it('refuses more than 200 nodes, and accepts exactly 200', () => {
    // each "a = 1" is 3 nodes, the or node 1: 66 comparisons + 1 = 199 nodes
    const within = Array.from({ length: 66 }, () => 'a = 1').join(' or ');
    expect(() => parseFilter(within)).not.toThrow();
    expect(() => parseFilter(`${within} or a is null`)).toThrow(); // 199 + 2 = 201
    expect(() => parseFilter(within.replace('a = 1', 'not a = 1'))).not.toThrow(); // 200
    const error = apiErrorOf(() => parseFilter(within.replace('a = 1', 'not not a = 1')));
    expect(error.errorCode).toBe(4001);
    expect(error.message).toMatch(/^filter is too complex at position \d+: more than 200/);
  });

  it('refuses nesting deeper than 32, by parentheses or not, without exhausting the stack', () => {
    expect(() => parseFilter(`${'('.repeat(32)}a = 1${')'.repeat(32)}`)).not.toThrow();
    expect(apiErrorOf(() => parseFilter(`${'('.repeat(33)}a = 1${')'.repeat(33)}`)).message).toBe(
      'filter syntax error at position 33: nested deeper than 32 levels',
    );
    const deep = { maxLength: 1_000_000, maxNodes: 1_000_000 };
    expect(apiErrorOf(() => parseFilter(`${'('.repeat(200_000)}a = 1${')'.repeat(200_000)}`, deep)).errorCode).toBe(4001);
    expect(apiErrorOf(() => parseFilter(`${'not '.repeat(100_000)}a = 1`, deep)).errorCode).toBe(4001);
  });

  it('takes configured limits', () => {
    expect(apiErrorOf(() => parseFilter('a = 1 and b = 2', { maxNodes: 6 })).errorCode).toBe(4001);
    expect(apiErrorOf(() => parseFilter('a = 1', { maxLength: 4 })).errorCode).toBe(4001);
    expect(apiErrorOf(() => parseFilter('((a = 1))', { maxDepth: 1 })).errorCode).toBe(4001);
    expect(() => parseFilter('(a = 1)', { maxDepth: 1, maxLength: undefined })).not.toThrow();
  });
});
