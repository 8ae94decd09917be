import { describe, expect, it } from 'vitest';
import { copyLot } from './copy-lot.ts';

describe('the size of a copy', () => {
  it('is the master lot times the ratio, to 0.01 lot', () => {
    // 1.50 × 0.4372 = 0.6558 → 0.66
    expect(copyLot(1.5, 0.4372, 'Forex')).toBe(0.66);
  });

  it('never goes under 0.01 lot', () => {
    expect(copyLot(0.5, 0.01, 'Forex')).toBe(0.01);
  });

  it('copies shares whole, at least one', () => {
    // 250 × 0.37 = 92.5 → 93; 3 × 0.1 = 0.3 → 1
    expect(copyLot(250, 0.37, 'Equities')).toBe(93);
    expect(copyLot(3, 0.1, 'Equities')).toBe(1);
  });
});
