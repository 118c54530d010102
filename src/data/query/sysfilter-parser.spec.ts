import { apiErrorOf } from '../../../test/support/api-error-of.js';
import type { ColumnRef } from './ast.js';
import { parseSysFilter } from './sysfilter-parser.js';

const col = (...path: string[]): ColumnRef => ({ kind: 'column', path });

describe('parseSysFilter', () => {
  it.each([
    ['equal', '='],
    ['notequal', '<>'],
    ['less', '<'],
    ['lessequal', '<='],
    ['greater', '>'],
    ['greaterequal', '>='],
  ])('reads %s as %s', (fn, operator) => {
    expect(parseSysFilter(`${fn}(balance:100)`)).toEqual({
      type: 'compare', operator, left: col('balance'), right: { kind: 'number', text: '100' }, caseInsensitive: false,
    });
  });

  it('reads like and notlike', () => {
    expect(parseSysFilter("like(name:'A%')")).toEqual({ type: 'like', negated: false, subject: col('name'), pattern: { kind: 'string', value: 'A%' }, caseInsensitive: false });
    expect(parseSysFilter("notlike(name:'A%')")).toMatchObject({ type: 'like', negated: true });
  });

  it('reads null and notnull with one or more columns', () => {
    expect(parseSysFilter('null(notes)')).toEqual({ type: 'isNull', negated: false, subject: col('notes') });
    expect(parseSysFilter('notnull(notes, rel.due)')).toEqual({
      type: 'and',
      operands: [
        { type: 'isNull', negated: true, subject: col('notes') },
        { type: 'isNull', negated: true, subject: col('rel', 'due') },
      ],
    });
    expect(parseSysFilter('null_or(a,b)')).toMatchObject({ type: 'or', operands: [{ type: 'isNull' }, { type: 'isNull' }] });
  });

  it('ANDs the pairs, or ORs them with _or', () => {
    expect(parseSysFilter("equal(name:'Alpha', balance:1)")).toMatchObject({ type: 'and', operands: [{ left: col('name') }, { left: col('balance') }] });
    expect(parseSysFilter('less_or(balance:100, credit_limit:500)')).toEqual({
      type: 'or',
      operands: [
        { type: 'compare', operator: '<', left: col('balance'), right: { kind: 'number', text: '100' }, caseInsensitive: false },
        { type: 'compare', operator: '<', left: col('credit_limit'), right: { kind: 'number', text: '500' }, caseInsensitive: false },
      ],
    });
  });

  it.each(['equal_uc', 'EQUAL_UC'])('reads %s as case-insensitive', (fn) => {
    expect(parseSysFilter(`${fn}(name:'alpha')`)).toMatchObject({ type: 'compare', caseInsensitive: true });
  });

  it.each(['equal_or_uc', 'equal_uc_or'])('combines modifiers in either order: %s', (fn) => {
    expect(parseSysFilter(`${fn}(a:'x', b:'y')`)).toMatchObject({
      type: 'or',
      operands: [{ caseInsensitive: true }, { caseInsensitive: true }],
    });
  });

  it('reads like_uc_or', () => {
    expect(parseSysFilter("like_uc_or(a:'x%', b:'%y')")).toMatchObject({ type: 'or', operands: [{ type: 'like', caseInsensitive: true }, { type: 'like' }] });
  });

  it('reads every kind of value, globals included, with spaces anywhere', () => {
    expect(parseSysFilter(" equal ( a : 'it''s' , b : -2.5 , c : true , d : null , e : @{region} ) ")).toMatchObject({
      type: 'and',
      operands: [
        { right: { kind: 'string', value: "it's" } },
        { right: { kind: 'number', text: '-2.5' } },
        { right: { kind: 'boolean', value: true } },
        { right: { kind: 'null' } },
        { right: { kind: 'global', name: 'region' } },
      ],
    });
  });

  it.each([
    [`equal(name:"Alpha Co")`, 'Alpha Co'],
    [`equal(name:'O\\'Brien')`, "O'Brien"],
    [`equal(name:"say \\"hi\\"")`, 'say "hi"'],
    [`equal(name:"it's")`, "it's"],
    [`equal(name:'it''s')`, "it's"],
    [`equal(name:"a""b")`, 'a"b'],
    [`equal(name:'C:\\\\')`, 'C:\\'],
    [`equal(name:'a\\b\\"c')`, 'a\\b"c'],
    [`equal(name:"a\\'b")`, "a'b"],
    [`equal(name:'Alpha\\u0020and Sons')`, 'Alpha and Sons'],
    [`equal(name:'line\\nnext\\r\\ttab')`, 'line\nnext\r\ttab'],
    [`equal(name:'\\u00e9t\\u00C9')`, 'étÉ'],
    [`equal(name:'\\uD83D\\uDE00')`, '😀'],
    [`equal(name:'a\\%b')`, 'a\\%b'],
  ])('reads the string value %s (double quotes, backslash escapes)', (text, value) => {
    expect(parseSysFilter(text)).toMatchObject({ type: 'compare', right: { kind: 'string', value } });
  });

  it('names the position of a string left open by an escaped quote', () => {
    expect(apiErrorOf(() => parseSysFilter(`equal(a:1, name:'C:\\')`)).message).toBe(
      'sysfilter syntax error at position 17: this string has no closing quote (a quote inside a string is written twice or escaped with a backslash)',
    );
    expect(apiErrorOf(() => parseSysFilter(`equal(name:"abc)`)).errorCode).toBe(4001);
  });

  it('reads a double-quoted column name, escapes included, and a double-quoted value', () => {
    expect(parseSysFilter(`equal("name":'Alpha and Sons')`)).toEqual({
      type: 'compare',
      operator: '=',
      left: { kind: 'column', path: ['name'] },
      right: { kind: 'string', value: 'Alpha and Sons' },
      caseInsensitive: false,
    });
    expect(parseSysFilter(`equal("na\\u006De":"x")`)).toMatchObject({ left: { path: ['name'] }, right: { value: 'x' } });
    expect(parseSysFilter(`null("credit limit")`)).toMatchObject({ type: 'isNull', subject: { path: ['credit limit'] } });
  });

  it.each([
    [`equal(name:'a\\u12')`, 'sysfilter syntax error at position 14: expected four hexadecimal digits after "\\u"'],
    [`equal(name:'a\\u{41}')`, 'sysfilter syntax error at position 14: expected four hexadecimal digits after "\\u"'],
    [`equal(name:'a\\u0000')`, 'sysfilter syntax error at position 14: a string may not contain the NUL character'],
    [`equal(name:'\\uD800')`, 'sysfilter syntax error at position 12: a string may not contain a lone surrogate'],
    [`equal("":1)`, 'sysfilter syntax error at position 7: expected a column name'],
    [`equal('name':1)`, 'sysfilter syntax error at position 7: expected a column name'],
  ])('refuses %s', (text, message) => {
    const error = apiErrorOf(() => parseSysFilter(text));
    expect(error.errorCode).toBe(4001);
    expect(error.message).toContain(message);
  });

  it('ANDs repeated parameters', () => {
    expect(parseSysFilter(['equal(a:1)', 'null(b)'])).toMatchObject({ type: 'and', operands: [{ type: 'compare' }, { type: 'isNull' }] });
  });

  it.each([
    ['', 'sysfilter syntax error at position 1: expected a sysfilter function (equal, notequal, less, lessequal, greater, greaterequal, like, notlike, null or notnull), found the end of the text'],
    ['equals(a:1)', 'sysfilter syntax error at position 1: expected a sysfilter function (equal, notequal, less, lessequal, greater, greaterequal, like, notlike, null or notnull), found "equals"'],
    ['equal_xx(a:1)', 'sysfilter syntax error at position 1: expected "equal" with the modifiers _or and _uc, each at most once, found "equal_xx"'],
    ['equal_or_or(a:1)', 'sysfilter syntax error at position 1: expected "equal" with the modifiers _or and _uc, each at most once, found "equal_or_or"'],
    ['null_uc(a)', 'sysfilter syntax error at position 1: expected "null" with at most the modifier _or, found "null_uc"'],
    ['equal a:1', 'sysfilter syntax error at position 7: expected "(" after "equal", found "a"'],
    ['equal(a 1)', 'sysfilter syntax error at position 9: expected ":" and a value after "a", found "1"'],
    ['equal(a:)', 'sysfilter syntax error at position 9: expected a value after ":", found ")"'],
    ['equal(a:b)', 'sysfilter syntax error at position 9: expected a value after ":", found "b"'],
    ['equal(a:1', 'sysfilter syntax error at position 10: expected "," or ")" after "1", found the end of the text'],
    ['equal()', 'sysfilter syntax error at position 7: expected a column name after "(", found ")"'],
    ['null(a:1)', 'sysfilter syntax error at position 7: expected "," or ")" after "a", found ":"'],
    ['equal(a:1) equal(b:2)', 'sysfilter syntax error at position 12: expected the end of the text after ")", found "equal"'],
  ])('%j', (text, message) => {
    const error = apiErrorOf(() => parseSysFilter(text));
    expect(error.errorCode).toBe(4001);
    expect(error.message).toBe(message);
  });

  it('applies the length and node limits', () => {
    expect(apiErrorOf(() => parseSysFilter(`equal(a:'${'x'.repeat(5000)}')`)).message).toMatch(/^sysfilter is too long/);
    const pairs = Array.from({ length: 70 }, (_, i) => `c${i}:${i}`).join(',');
    expect(apiErrorOf(() => parseSysFilter(`equal(${pairs})`)).message).toMatch(/^sysfilter is too complex/);
  });
});
