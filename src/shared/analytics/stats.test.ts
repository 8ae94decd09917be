import { describe, expect, it } from 'vitest';
import { mean, median, normalCdf, pearson, stdev, sum } from './stats.ts';

describe('mean', () => {
  it('is null for no values', () => expect(mean([])).toBeNull());
  it('of one value is that value', () => expect(mean([7])).toBe(7));
  it('averages', () => expect(mean([10, 25, 15, 40, 20])).toBe(22));
  it('ignores non-finite values', () => {
    expect(mean([1, Number.NaN, 3, Infinity])).toBe(2);
    expect(mean([Number.NaN])).toBeNull();
  });
});

describe('median', () => {
  it('is null for no values', () => expect(median([])).toBeNull());
  it('of one value is that value', () => expect(median([3])).toBe(3));
  it('M2: MAE pips 10, 25, 15, 40, 20 → 20; MFE 30, 55, 45, 60, 35 → 45', () => {
    expect(median([10, 25, 15, 40, 20])).toBe(20);
    expect(median([30, 55, 45, 60, 35])).toBe(45);
  });
  it('of an even count is the mean of the two middle values', () => {
    expect(median([40, 10, 30, 20])).toBe(25);
    expect(median([1, 2])).toBe(1.5);
  });
  it('does not mutate its input', () => {
    const input = [3, 1, 2];
    median(input);
    expect(input).toEqual([3, 1, 2]);
  });
});

describe('sum', () => {
  it('sum of nothing is 0', () => expect(sum([])).toBe(0));
});

describe('stdev', () => {
  // 2, 4, 4, 4, 5, 5, 7, 9: mean 5, Σ (x − 5)² = 32 → population √(32 / 8) = 2, sample √(32 / 7) = 2.138090.
  it('population divides by n, sample by n − 1', () => {
    expect(stdev([2, 4, 4, 4, 5, 5, 7, 9], 'population')).toBe(2);
    expect(stdev([2, 4, 4, 4, 5, 5, 7, 9], 'sample')).toBeCloseTo(2.13809, 5);
  });
  it('is null without enough values', () => {
    expect(stdev([], 'population')).toBeNull();
    expect(stdev([3], 'sample')).toBeNull();
    expect(stdev([3], 'population')).toBe(0);
  });
});

describe('pearson', () => {
  it('is 1 and −1 on a line, and r on a cloud', () => {
    expect(pearson([[0, 1], [1, 3], [2, 5]])).toBe(1);
    expect(pearson([[0, 5], [1, 3], [2, 1]])).toBe(-1);
    // (1, 2), (2, 1), (3, 4): means 2 and 7/3; Sxy = 2, Sxx = 2, Syy = 14/3 → 2 / √(28/3) = 0.654654.
    expect(pearson([[1, 2], [2, 1], [3, 4]])).toBeCloseTo(0.654654, 6);
  });
  it('is null under two pairs or where a side does not vary', () => {
    expect(pearson([[1, 2]])).toBeNull();
    expect(pearson([[1, 2], [2, 2]])).toBeNull();
  });
});

describe('normalCdf', () => {
  // Reference values: Φ(x) = ½ erfc(−x / √2), printed to 16 digits by Python's math.erfc.
  it.each([
    [0, 0.5],
    [1, 0.8413447460685429],
    [1.96, 0.9750021048517795],
    [-2.5, 0.006209665325776139],
    [1.6448536269514722, 0.95],
    [8, 0.9999999999999993],
  ])('Φ(%d) = %d', (x, expected) => expect(normalCdf(x)).toBeCloseTo(expected, 14));
});
