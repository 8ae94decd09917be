import { describe, expect, it } from 'vitest';
import { FRESHNESS_SECONDS, isFresh } from './freshness.ts';

const now = Date.UTC(2026, 2, 5, 12, 0, 0); // 1 772 712 000 s
const nowSeconds = now / 1000;

describe('isFresh', () => {
  it('is green under 120 s old', () => {
    expect(FRESHNESS_SECONDS).toBe(120);
    expect(isFresh(nowSeconds, now)).toBe(true);
    expect(isFresh(nowSeconds - 119, now)).toBe(true);
    expect(isFresh(nowSeconds - 119.999, now)).toBe(true);
  });
  it('is red at 120 s and beyond', () => {
    expect(isFresh(nowSeconds - 120, now)).toBe(false);
    expect(isFresh(nowSeconds - 3600, now)).toBe(false);
  });
  it('is red in the future', () => {
    expect(isFresh(nowSeconds + 1, now)).toBe(false);
  });
  it('is red without a last update', () => {
    expect(isFresh(null, now)).toBe(false);
    expect(isFresh(undefined, now)).toBe(false);
    expect(isFresh(Number.NaN, now)).toBe(false);
  });
});
