import { apiErrorOf } from '../../../test/support/api-error-of.js';
import { combineSortTerms, parseOrder, parseSysOrder } from './order-parser.js';

describe('parseOrder', () => {
  it('reads columns with optional directions, case-insensitively', () => {
    expect(parseOrder('balance DESC, name, rel.due asc')).toEqual([
      { column: ['balance'], direction: 'desc', caseInsensitive: false },
      { column: ['name'], direction: 'asc', caseInsensitive: false },
      { column: ['rel', 'due'], direction: 'asc', caseInsensitive: false },
    ]);
  });

  it('lets a column be named like a direction', () => {
    expect(parseOrder('desc desc')).toEqual([{ column: ['desc'], direction: 'desc', caseInsensitive: false }]);
  });

  it.each([
    ['', 'order syntax error at position 1: expected a column name, found the end of the text'],
    ['a,', 'order syntax error at position 3: expected a column name after ",", found the end of the text'],
    ['a desc desc', 'order syntax error at position 8: expected a modifier (asc, desc, asc_uc, desc_uc, asc_lc, desc_lc, null_first or null_last), "," or the end of the text after "desc", found "desc"'],
    ['a:desc', 'order syntax error at position 2: expected a modifier (asc, desc, asc_uc, desc_uc, asc_lc, desc_lc, null_first or null_last), "," or the end of the text after "a", found ":"'],
    ['a up', 'order syntax error at position 3: expected a modifier (asc, desc, asc_uc, desc_uc, asc_lc, desc_lc, null_first or null_last), "," or the end of the text after "a", found "up"'],
  ])('%j', (text, message) => {
    const error = apiErrorOf(() => parseOrder(text));
    expect(error.errorCode).toBe(4001);
    expect(error.message).toBe(message);
  });

  it('allows 8 sort terms and refuses 9', () => {
    const columns = (n: number): string => Array.from({ length: n }, (_, i) => `c${i}`).join(', ');
    expect(parseOrder(columns(8))).toHaveLength(8);
    const error = apiErrorOf(() => parseOrder(columns(9)));
    expect(error.errorCode).toBe(4001);
    expect(error.message).toBe('too many sort terms: 9, at most 8');
    expect(apiErrorOf(() => parseOrder(['a, b, c, d', 'e, f, g, h, i'])).errorCode).toBe(4001);
  });

  it('refuses text over the length limit', () => {
    expect(apiErrorOf(() => parseOrder('a'.repeat(5000))).message).toBe('order is too long: 5000 characters, at most 4096');
  });
});

describe('sort modifiers and quoted names', () => {
  it("reads LAC's example and every modifier, in sysorder and order", () => {
    expect(parseSysOrder('(name:null_first,balance:desc)')).toEqual([
      { column: ['name'], direction: 'asc', caseInsensitive: false, nulls: 'first' },
      { column: ['balance'], direction: 'desc', caseInsensitive: false },
    ]);
    const expected = [
      { column: ['a'], direction: 'asc', caseInsensitive: true, lowerCase: true },
      { column: ['b'], direction: 'desc', caseInsensitive: true, lowerCase: true },
      { column: ['c'], direction: 'asc', caseInsensitive: false, nulls: 'last' },
      { column: ['d'], direction: 'asc', caseInsensitive: false, nulls: 'first' },
      { column: ['e'], direction: 'desc', caseInsensitive: true },
    ];
    expect(parseSysOrder('(a:asc_lc, b DESC_LC, c:Null_Last, d null_first, e:desc_uc)')).toEqual(expected);
    expect(parseOrder('a asc_lc, b desc_lc, c null_last, d NULL_FIRST, e desc_uc')).toEqual(expected);
  });

  it('reads double-quoted names, escapes decoded, keywords and spaces allowed', () => {
    expect(parseSysOrder('("name":null_first, "credit limit" desc, "desc")')).toEqual([
      { column: ['name'], direction: 'asc', caseInsensitive: false, nulls: 'first' },
      { column: ['credit limit'], direction: 'desc', caseInsensitive: false },
      { column: ['desc'], direction: 'asc', caseInsensitive: false },
    ]);
    expect(parseOrder('"na\\u006de" desc')).toEqual([{ column: ['name'], direction: 'desc', caseInsensitive: false }]);
  });

  it.each([
    ["(name:'x')", 'sysorder syntax error at position 7'],
    ["('name')", 'sysorder syntax error at position 2: expected a column name'],
    ['("")', 'sysorder syntax error at position 2: expected a column name'],
    ['(name:null_first_uc)', 'sysorder syntax error at position 7'],
    ['(name:nulls_first)', 'sysorder syntax error at position 7'],
  ])('refuses %j', (text, message) => {
    const error = apiErrorOf(() => parseSysOrder(text));
    expect(error.errorCode).toBe(4001);
    expect(error.message).toContain(message);
  });
});

describe('parseSysOrder', () => {
  it('reads every direction', () => {
    expect(parseSysOrder('(name:asc_uc, balance:DESC, due:asc, rel.x:desc_uc)')).toEqual([
      { column: ['name'], direction: 'asc', caseInsensitive: true },
      { column: ['balance'], direction: 'desc', caseInsensitive: false },
      { column: ['due'], direction: 'asc', caseInsensitive: false },
      { column: ['rel', 'x'], direction: 'desc', caseInsensitive: true },
    ]);
  });

  it.each([
    ['(balance,name desc)', [['balance', 'asc', false], ['name', 'desc', false]]],
    ['( balance , name DESC_UC )', [['balance', 'asc', false], ['name', 'desc', true]]],
    ['(name)', [['name', 'asc', false]]],
    ['(a asc, b:desc, c, d asc_uc)', [['a', 'asc', false], ['b', 'desc', false], ['c', 'asc', false], ['d', 'asc', true]]],
    ['(desc desc, asc)', [['desc', 'desc', false], ['asc', 'asc', false]]],
    ['(rel.x desc)', [['rel.x', 'desc', false]]],
  ])('reads %j: no direction is ascending, the direction may follow a space', (text, expected) => {
    expect(parseSysOrder(text).map((t) => [t.column.join('.'), t.direction, t.caseInsensitive])).toEqual(expected);
  });

  it.each([
    ['name:asc', 'sysorder syntax error at position 1: expected "(", found "name"'],
    ['(name', 'sysorder syntax error at position 6: expected a modifier (asc, desc, asc_uc, desc_uc, asc_lc, desc_lc, null_first or null_last), "," or ")" after "name", found the end of the text'],
    ['(name up)', 'sysorder syntax error at position 7: expected a modifier (asc, desc, asc_uc, desc_uc, asc_lc, desc_lc, null_first or null_last), "," or ")" after "name", found "up"'],
    ['(name desc asc)', 'sysorder syntax error at position 12: expected "," or ")" after "desc", found "asc"'],
    ['(name:)', 'sysorder syntax error at position 7: expected a modifier: asc, desc, asc_uc, desc_uc, asc_lc, desc_lc, null_first or null_last after ":", found ")"'],
    ['(,name)', 'sysorder syntax error at position 2: expected a column name after "(", found ","'],
    ['(name:up)', 'sysorder syntax error at position 7: expected a modifier: asc, desc, asc_uc, desc_uc, asc_lc, desc_lc, null_first or null_last after ":", found "up"'],
    ['(name:asc', 'sysorder syntax error at position 10: expected "," or ")" after "asc", found the end of the text'],
    ['(name:asc))', 'sysorder syntax error at position 11: expected the end of the text after ")", found ")"'],
  ])('%j', (text, message) => {
    const error = apiErrorOf(() => parseSysOrder(text));
    expect(error.errorCode).toBe(4001);
    expect(error.message).toBe(message);
  });

  it('allows 8 sort terms and refuses 9', () => {
    const terms = (n: number): string => `(${Array.from({ length: n }, (_, i) => `c${i}:asc`).join(',')})`;
    expect(parseSysOrder(terms(8))).toHaveLength(8);
    expect(apiErrorOf(() => parseSysOrder(terms(9))).errorCode).toBe(4001);
  });
});

describe('combineSortTerms', () => {
  it('joins order and sysorder and limits their total to 8', () => {
    const order = parseOrder('a, b, c, d');
    const sysorder = parseSysOrder('(e:asc, f:asc, g:asc, h:desc_uc)');
    expect(combineSortTerms([order, sysorder]).map((term) => term.column[0])).toEqual(['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h']);
    expect(apiErrorOf(() => combineSortTerms([order, sysorder, parseOrder('i')])).message).toBe('too many sort terms: 9, at most 8');
    expect(apiErrorOf(() => combineSortTerms([order], { maxSortTerms: 3 })).errorCode).toBe(4001);
  });
});
