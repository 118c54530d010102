import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { Decimal } from 'decimal.js';
import { canonicalDecimal } from './value-codec.js';

describe('canonicalDecimal', () => {
  const numeral = fc
    .tuple(
      fc.boolean(),
      fc.stringMatching(/^\d{1,20}$/),
      fc.option(fc.stringMatching(/^\d{1,8}$/), { nil: undefined }),
    )
    .map(([negative, whole, fraction]) => `${negative ? '-' : ''}${whole}${fraction === undefined ? '' : `.${fraction}`}`);

  it('gives exactly what decimal.js gives, for any numeral and scale (the fast path must not differ)', () => {
    fc.assert(
      fc.property(numeral, fc.integer({ min: 0, max: 10 }), (value, scale) => {
        expect(canonicalDecimal(value, scale)).toBe(new Decimal(value).toFixed(scale));
      }),
      { numRuns: 5000 },
    );
  });

  it.each([
    ['10.5', 4, '10.5000'],
    ['-0.00', 2, '0.00'],
    ['-0', 2, '0.00'],
    ['007.5', 2, '7.50'],
    ['1.005', 2, '1.01'],
    ['12', 0, '12'],
    ['1e3', 2, '1000.00'],
  ])('%s at scale %i is %s', (value, scale, expected) => {
    expect(canonicalDecimal(value, scale)).toBe(expected);
  });

  it('keeps every digit when the column has no scale', () => {
    expect(canonicalDecimal('123.4500', undefined)).toBe('123.45');
  });
});
