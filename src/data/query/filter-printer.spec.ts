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

  it('refuses trees free-form text cannot spell', () => {
    expect(() => printFilter(parseSysFilter("equal_uc(a:'x')"))).toThrow('_uc');
    expect(() => printFilter({ type: 'or', operands: [] })).toThrow('empty');
  });
});
