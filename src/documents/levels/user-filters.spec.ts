import { describe, expect, it } from '@jest/globals';
import { apiErrorOf } from '../../../test/support/api-error-of.js';
import { bindUserFilter, parseUserFilter, parseUserFilterCall } from './user-filters.js';

describe('named filters', () => {
  it('turns :placeholders into parameters, but not inside quoted text', () => {
    const filter = parseUserFilter('f', "name = :name and notes <> ':name' and balance between :low and :high");
    expect([...filter.parameters].sort()).toEqual(['high', 'low', 'name']);
    const tree = bindUserFilter(filter, parseUserFilterCall("f(name:'O''Brien', low:1, high:2.5)"));
    expect(tree).toEqual({
      type: 'and',
      operands: [
        {
          type: 'compare',
          operator: '=',
          left: { kind: 'column', path: ['name'] },
          right: { kind: 'string', value: "O'Brien" },
          caseInsensitive: false,
        },
        {
          type: 'compare',
          operator: '<>',
          left: { kind: 'column', path: ['notes'] },
          right: { kind: 'string', value: ':name' },
          caseInsensitive: false,
        },
        {
          type: 'between',
          negated: false,
          subject: { kind: 'column', path: ['balance'] },
          low: { kind: 'number', text: '1' },
          high: { kind: 'number', text: '2.5' },
        },
      ],
    });
  });

  it('refuses globals, bad names and bad syntax in a definition', () => {
    expect(() => parseUserFilter('f', 'name = @{employee_id}')).toThrow(/@\{globals\}/);
    expect(() => parseUserFilter('two words', 'name = :x')).toThrow(/letters, digits and _/);
    expect(() => parseUserFilter('f', 'name = :x.y')).toThrow(/plain name/);
    expect(() => parseUserFilter('f', 'name = ')).toThrow(/syntax error/);
  });

  it('parses calls with and without arguments, and refuses what is not a call', () => {
    expect(parseUserFilterCall('f').name).toBe('f');
    expect(parseUserFilterCall('f()').args.size).toBe(0);
    expect([...parseUserFilterCall('f(a:true, b:null)').args.keys()]).toEqual(['a', 'b']);
    expect(apiErrorOf(() => parseUserFilterCall('f(a:1, a:2)')).errorCode).toBe(4000);
    expect(apiErrorOf(() => parseUserFilterCall('f(a:@{x})')).errorCode).toBe(4001);
    expect(apiErrorOf(() => parseUserFilterCall('f(a:1')).errorCode).toBe(4001);
    expect(apiErrorOf(() => parseUserFilterCall('f(a:1) or 1=1')).errorCode).toBe(4001);
  });

  it('needs every parameter and no other', () => {
    const filter = parseUserFilter('f', 'balance > :min');
    expect(apiErrorOf(() => bindUserFilter(filter, parseUserFilterCall('f()'))).message).toContain('needs a value for: min');
    expect(apiErrorOf(() => bindUserFilter(filter, parseUserFilterCall('f(min:1, max:2)'))).message).toContain('no parameter "max"');
  });
});
