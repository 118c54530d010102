import fc from 'fast-check';
import type { FilterNode } from './ast.js';
import { parseFilter } from './filter-parser.js';
import { printFilter } from './filter-printer.js';
import { parseSysFilter } from './sysfilter-parser.js';

describe('printFilter', () => {
  it.each([
    "a = 1 and (b = 'it''s' or c is not null)",
    '(a = 1 and b = 2) and c = 3',
    'not (a = 1 or b = 2) or not not c <> @{g.x}',
    "a not like '%x' and b in (1, -2.5, true, null) and c not between 'a' and 'b'",
    '100 > rel.col',
  ])('prints %j as it was written', (text) => {
    expect(printFilter(parseFilter(text))).toBe(text);
  });

  it('prints names that are no plain word double-quoted, and backslashes escaped', () => {
    const tree: FilterNode = {
      type: 'compare',
      operator: '=',
      left: { kind: 'column', path: ['credit limit'] },
      right: { kind: 'string', value: "C:\\it's" },
      caseInsensitive: false,
    };
    expect(printFilter(tree)).toBe(`"credit limit" = 'C:\\\\it''s'`);
    expect(parseFilter(printFilter(tree))).toEqual(tree);
    expect(printFilter(parseFilter('"and" is null'))).toBe('"and" is null');
  });

  it('round-trips any name and any well-formed text through quotes and escapes', () => {
    const text = fc.string({ unit: 'grapheme', maxLength: 12 });
    fc.assert(
      fc.property(text.filter((name) => name !== '' && !name.includes('\u0000')), text.filter((v) => !v.includes('\u0000')), (name, value) => {
        const tree: FilterNode = {
          type: 'compare',
          operator: '<>',
          left: { kind: 'column', path: [name] },
          right: { kind: 'string', value },
          caseInsensitive: false,
        };
        expect(parseFilter(printFilter(tree), { maxLength: 1000 })).toEqual(tree);
      }),
    );
  });

  it('refuses trees free-form text cannot spell', () => {
    expect(() => printFilter(parseSysFilter("equal_uc(a:'x')"))).toThrow('_uc');
    expect(() => printFilter({ type: 'or', operands: [] })).toThrow('empty');
  });
});
