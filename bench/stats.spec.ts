import { describe, expect, it } from '@jest/globals';
import { geometricMean, median, percentile, ratio } from './stats.js';

describe('bench statistics', () => {
  it('takes the median of odd and even counts without reordering the input', () => {
    const runs = [30, 10, 20];
    expect(median(runs)).toBe(20);
    expect(runs).toEqual([30, 10, 20]);
    expect(median([4, 1, 3, 2])).toBe(2.5);
    expect(median([])).toBeNaN();
  });

  it('gives no ratio for a missing or zero baseline', () => {
    expect(ratio(50, 100)).toBe(0.5);
    expect(ratio(50, 0)).toBeNaN();
    expect(ratio(undefined, 100)).toBeNaN();
  });

  it('averages ratios geometrically and ranks percentiles', () => {
    expect(geometricMean([2, 8])).toBeCloseTo(4);
    expect(geometricMean([Number.NaN])).toBeNaN();
    expect(percentile([5, 1, 4, 2, 3], 99)).toBe(5);
    expect(percentile([5, 1, 4, 2, 3], 50)).toBe(3);
  });
});
