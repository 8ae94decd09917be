import { describe, expect, it } from 'vitest';
import { copyLot, copySize, lotUnitOf, type CopyTerms } from './copy-lot.ts';

const ratio = (r: number, maxLot: number | null = null): CopyTerms => ({ sizing: { mode: 'ratio', ratio: r }, maxLot });
const equity = (multiplier: number, maxLot: number | null = null): CopyTerms => ({ sizing: { mode: 'equity', multiplier }, maxLot });
const fixed = (lot: number, maxLot: number | null = null): CopyTerms => ({ sizing: { mode: 'fixed', lot }, maxLot });

describe('the size of a copy', () => {
  it('is the master lot times the ratio, to 0.01 lot', () => {
    // 1.50 × 0.4372 = 0.6558 → 0.66
    expect(copyLot(1.5, 0.4372, 'lot')).toBe(0.66);
    expect(copySize(1.5, ratio(0.4372), 'lot')).toBe(0.66);
  });

  it('never goes under 0.01 lot', () => {
    expect(copyLot(0.5, 0.01, 'lot')).toBe(0.01);
    expect(copySize(0.5, ratio(0.01), 'lot')).toBe(0.01);
  });

  it('sizes indices, coins, metals and commodities in 0.01 lot like pairs, and only shares whole', () => {
    expect(['EURUSD', 'XAUUSD', 'US30', 'NAS100.cash', 'BTCUSD', 'USOIL', 'AAPL', 'SAP.DE'].map(lotUnitOf)).toEqual(['lot', 'lot', 'lot', 'lot', 'lot', 'lot', 'share', 'share']);
    // An index trade of 2 lots at 0.37 is 0.74 lot (not 1, as a share would be).
    expect(copySize(2, ratio(0.37), lotUnitOf('US30'))).toBe(0.74);
  });

  it('copies shares whole, at least one', () => {
    // 250 × 0.37 = 92.5 → 93; 3 × 0.1 = 0.3 → 1
    expect(copyLot(250, 0.37, 'share')).toBe(93);
    expect(copyLot(3, 0.1, 'share')).toBe(1);
  });
});

describe('sizing by equity proportion', () => {
  it('scales the master lot by the follower’s equity over the master’s, both in EUR', () => {
    // Master 1.20 lot, equity 100,000 EUR; follower 25,000 EUR → 1.20 × 0.25 = 0.30
    expect(copySize(1.2, equity(1), 'lot', { follower: 25_000, master: 100_000 })).toBe(0.3);
  });

  it('times the multiplier', () => {
    // 1.20 × 0.25 × 1.5 = 0.45
    expect(copySize(1.2, equity(1.5), 'lot', { follower: 25_000, master: 100_000 })).toBe(0.45);
  });

  it('rounds shares to whole ones', () => {
    // 300 shares × 12,000 / 90,000 = 40
    expect(copySize(300, equity(1), 'share', { follower: 12_000, master: 90_000 })).toBe(40);
  });

  it('cannot size without both equities, nor with a master equity that is not positive', () => {
    expect(copySize(1, equity(1), 'lot', { follower: null, master: 100_000 })).toBeNull();
    expect(copySize(1, equity(1), 'lot', { follower: 10_000, master: 0 })).toBeNull();
    expect(copySize(1, equity(1), 'lot')).toBeNull();
  });
});

describe('a fixed size', () => {
  it('is the same whatever the master trades', () => {
    expect(copySize(0.2, fixed(0.1), 'lot')).toBe(0.1);
    expect(copySize(7.5, fixed(0.1), 'lot')).toBe(0.1);
  });

  it('goes to the nearest step: 0.016 lot is 0.02, 2.4 shares are 2', () => {
    expect(copySize(1, fixed(0.016), 'lot')).toBe(0.02);
    expect(copySize(100, fixed(2.4), 'share')).toBe(2);
  });
});

describe('the maximum lot', () => {
  it('caps a ratio copy', () => {
    // 5 × 2 = 10 lots, capped at 3
    expect(copySize(5, ratio(2, 3), 'lot')).toBe(3);
  });

  it('caps an equity-proportional copy and a fixed one', () => {
    expect(copySize(4, equity(1, 1.5), 'lot', { follower: 100_000, master: 100_000 })).toBe(1.5);
    expect(copySize(1, fixed(2, 0.5), 'lot')).toBe(0.5);
  });

  it('is taken to the step below it, never under one step', () => {
    // A cap of 0.129 lot allows 0.12; of 0.29 lot, 0.29 (not 0.28); of 0.5 share, one share.
    expect(copySize(1, ratio(1, 0.129), 'lot')).toBe(0.12);
    expect(copySize(1, ratio(1, 0.29), 'lot')).toBe(0.29);
    expect(copySize(10, ratio(1, 0.5), 'share')).toBe(1);
  });

  it('leaves a copy under it alone', () => {
    expect(copySize(0.4, ratio(0.5, 1), 'lot')).toBe(0.2);
  });
});
