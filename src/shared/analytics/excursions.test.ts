import { describe, expect, it } from 'vitest';
import { pipSize } from '../domain/instruments.ts';
import { excursion, excursionStats, suggestSlTp, toPips } from './excursions.ts';

const pips = (distance: number, symbol: string): number => Math.round(toPips(distance, symbol) * 1e6) / 1e6;

describe('pipSize and toPips', () => {
  it('is 0.01 for JPY pairs, else 0.0001', () => {
    expect(pipSize('USDJPY')).toBe(0.01);
    expect(pipSize('eurjpy.m')).toBe(0.01);
    expect(pipSize('EURUSD')).toBe(0.0001);
  });
  it("is the classifier's for metals, indices and shares: gold 0.01, US30 one point, a share one cent", () => {
    expect(pipSize('XAUUSD.m')).toBe(0.01);
    expect(pipSize('US30')).toBe(1);
    expect(pipSize('AAPL')).toBe(0.01);
    expect(pips(1.25, 'AAPL')).toBe(125);
  });
  it('converts a price distance', () => {
    expect(pips(0.0035, 'EURUSD')).toBe(35);
    expect(pips(0.35, 'USDJPY')).toBe(35);
  });
});

describe('excursion', () => {
  it('M1: Buy EURUSD at 1.10000, low 1.09650, high 1.10420 → MAE 35, MFE 42 pips', () => {
    const { mae, mfe } = excursion('Buy', 1.1, 1.0965, 1.1042);
    expect(pips(mae, 'EURUSD')).toBe(35);
    expect(pips(mfe, 'EURUSD')).toBe(42);
  });
  it('mirrors for a Sell', () => {
    const { mae, mfe } = excursion('Sell', 1.1, 1.0965, 1.1042);
    expect(pips(mae, 'EURUSD')).toBe(42);
    expect(pips(mfe, 'EURUSD')).toBe(35);
  });
  it('never goes below 0', () => {
    expect(excursion('Buy', 1.1, 1.1005, 1.101)).toEqual({ mae: 0, mfe: expect.closeTo(0.001, 10) as number });
  });
});

describe('excursionStats', () => {
  it('M2: medians MAE 20, MFE 45; averages 22 and 45', () => {
    const mae = [10, 25, 15, 40, 20];
    const mfe = [30, 55, 45, 60, 35];
    const s = excursionStats(mae.map((m, i) => ({ mae: m, mfe: mfe[i] ?? 0 })));
    expect(s).toEqual({ avg_mae: 22, median_mae: 20, avg_mfe: 45, median_mfe: 45 });
  });
  it('even count: median is the mean of the two middle values', () => {
    const s = excursionStats([
      { mae: 10, mfe: 1 },
      { mae: 30, mfe: 4 },
      { mae: 20, mfe: 2 },
      { mae: 40, mfe: 3 },
    ]);
    expect(s.median_mae).toBe(25);
    expect(s.median_mfe).toBe(2.5);
  });
  it('is all null when empty', () => {
    expect(excursionStats([])).toEqual({ avg_mae: null, median_mae: null, avg_mfe: null, median_mfe: null });
  });
});

describe('suggestSlTp', () => {
  it('M2: Buy at 1.08500 with MAE 20 and MFE 45 pips → SL 1.08300, TP 1.08950', () => {
    expect(suggestSlTp('Buy', 1.085, 20 * 0.0001, 45 * 0.0001)).toEqual({ sl: 1.083, tp: 1.0895 });
  });
  it('mirrors for a Sell', () => {
    expect(suggestSlTp('Sell', 1.085, 20 * 0.0001, 45 * 0.0001)).toEqual({ sl: 1.087, tp: 1.0805 });
  });
});
