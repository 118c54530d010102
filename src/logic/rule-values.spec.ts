import { jest } from '@jest/globals';
import { Decimal } from 'decimal.js';
import { ApiError } from '../common/api-error.js';
import type { ResourceColumn } from '../data/resource-registry.js';
import { fromRuleValue } from './rule-values.js';

function column(kind: ResourceColumn['kind'], extra: Partial<ResourceColumn> = {}): ResourceColumn {
  return {
    name: 'total',
    resource: 'team',
    propertyName: 'total',
    kind,
    nullable: false,
    generated: false,
    hasDefault: false,
    primary: false,
    unique: false,
    ...extra,
  };
}

describe('fromRuleValue', () => {
  const money = column('decimal', { precision: 19, scale: 4 });
  const int32 = column('integer', { integerBits: 32 });

  it('rounds a decimal to the column scale rather than refusing extra places', () => {
    expect(fromRuleValue(money, new Decimal('1.23456'))).toBe('1.2346');
    expect(fromRuleValue(money, 0.1 + 0.2)).toBe('0.3000');
  });

  it('refuses a decimal past the column, naming the column and its resource', () => {
    expect(() => fromRuleValue(money, new Decimal('1e15'))).toThrow(
      'The value the rules computed for column "total" of team is out of range for decimal(19,4).',
    );
    expect(() => fromRuleValue(money, new Decimal(Number.NaN))).toThrow(ApiError);
    expect(() => fromRuleValue(money, 'lots')).toThrow(/must be a number/);
  });

  it('holds integers to the column width, whole numbers only, Decimal or number', () => {
    expect(fromRuleValue(int32, new Decimal(2_147_483_647))).toBe(2_147_483_647);
    expect(() => fromRuleValue(int32, new Decimal(4_000_000_000))).toThrow(/"total" of team is out of range for a 32-bit integer/);
    expect(() => fromRuleValue(int32, 4_000_000_000)).toThrow(/out of range/);
    expect(() => fromRuleValue(int32, new Decimal('2.5'))).toThrow(/must be an integer/);
  });

  it('refuses huge computed values at once, without writing out their digits', () => {
    // Writing out a value's digits is toFixed (or toString of a plain form); a huge one is refused in its exponent form.
    const toFixed = jest.spyOn(Decimal.prototype, 'toFixed');
    try {
      for (const huge of ['1e100000000', '-1e600000000', '1e9000000000000000']) {
        expect(() => fromRuleValue(money, new Decimal(huge))).toThrow(/out of range for decimal\(19,4\)/);
        expect(() => fromRuleValue(int32, new Decimal(huge))).toThrow(/out of range for a 32-bit integer/);
      }
      expect(() => fromRuleValue(money, new Decimal(Number.POSITIVE_INFINITY))).toThrow(/must be a finite number/);
      expect(toFixed).not.toHaveBeenCalled();
    } finally {
      toFixed.mockRestore();
    }
  });

  it('takes a Date for a date or date-time column, and refuses an invalid one', () => {
    expect(fromRuleValue(column('date'), new Date('2026-02-28T23:00:00Z'))).toBe('2026-02-28');
    expect(fromRuleValue(column('datetime', { precision: 3 }), new Date('2026-02-28T23:00:00.123Z'))).toBe('2026-02-28T23:00:00.123Z');
    expect(() => fromRuleValue(column('datetime'), new Date(Number.NaN))).toThrow(/invalid Date/);
  });

  it('keeps null and undefined as null, whatever the column', () => {
    expect(fromRuleValue(int32, null)).toBeNull();
    expect(fromRuleValue(money, undefined)).toBeNull();
  });
});
