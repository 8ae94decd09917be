import { describe, expect, it } from 'vitest';
import { mean, median, roundTo, sum } from './stats.ts';

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

describe('sum and roundTo', () => {
  it('sum of nothing is 0', () => expect(sum([])).toBe(0));
  it('rounds half away from zero', () => {
    expect(roundTo(1.005, 2)).toBe(1.01);
    expect(roundTo(-1.005, 2)).toBe(-1.01);
    expect(roundTo(1.0834366666, 5)).toBe(1.08344);
    expect(roundTo(-0.001, 2)).toBe(0);
    expect(Object.is(roundTo(-0.001, 2), -0)).toBe(false);
  });
  it('maps non-finite to 0', () => expect(roundTo(Number.NaN, 2)).toBe(0));
});
