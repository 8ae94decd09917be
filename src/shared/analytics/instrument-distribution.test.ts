import { describe, expect, it } from 'vitest';
import { distributionByInstrument, marketSplit } from './instrument-distribution.ts';

const palette = ['#a', '#b', '#c'] as const;

describe('distributionByInstrument', () => {
  it('sums each instrument over accounts and gives its share of its market quantity', () => {
    const { forex, equities } = distributionByInstrument(
      [
        { u_symbol: 'EURUSD', category: 'Forex', quantity: 1 },
        { u_symbol: 'GBPUSD', category: 'Forex', quantity: 0.5 },
        { u_symbol: 'EURUSD', category: 'Forex', quantity: 2 },
        { u_symbol: 'AAPL', category: 'Equities', quantity: 30 },
        { u_symbol: 'MSFT', category: '', quantity: 10 },
      ],
      palette,
    );
    // Forex: EURUSD 3 of 3.5 lots = 85.714 %, GBPUSD 0.5 of 3.5 = 14.286 %.
    expect(forex.total).toBe(3.5);
    expect(forex.segments.map((s) => [s.symbol, s.value, s.color])).toEqual([
      ['EURUSD', 3, '#a'],
      ['GBPUSD', 0.5, '#b'],
    ]);
    expect(forex.segments[0]?.percentage).toBeCloseTo(85.7142857, 6);
    expect(forex.segments[1]?.percentage).toBeCloseTo(14.2857143, 6);
    // Equities ('Equities' and the empty category): AAPL 75 %, MSFT 25 %.
    expect(equities.total).toBe(40);
    expect(equities.segments.map((s) => [s.symbol, s.percentage])).toEqual([
      ['AAPL', 75],
      ['MSFT', 25],
    ]);
  });

  it('cycles the palette past its end and leaves out empty instruments', () => {
    const rows = ['A', 'B', 'C', 'D'].map((s, i) => ({ u_symbol: s, category: 'Forex', quantity: 4 - i }));
    rows.push({ u_symbol: 'Z', category: 'Forex', quantity: 0 });
    const { forex } = distributionByInstrument(rows, palette);
    expect(forex.segments.map((s) => s.color)).toEqual(['#a', '#b', '#c', '#a']);
    expect(forex.segments.map((s) => s.symbol)).not.toContain('Z');
  });

  it('is empty without positions', () => {
    const { forex, equities } = distributionByInstrument([], palette);
    expect(forex).toEqual({ total: 0, segments: [] });
    expect(equities).toEqual({ total: 0, segments: [] });
  });
});

describe('marketSplit', () => {
  it('splits amounts between forex and equities', () => {
    const split = marketSplit(
      [
        { category: 'Forex', v: 300 },
        { category: 'Equity', v: -100 },
        { category: 'Forex', v: 100 },
      ],
      (r) => r.v,
    );
    expect(split).toEqual({ forex: 400, equities: 100, forexPercentage: 80, equitiesPercentage: 20 });
  });
  it('is 0 % on both sides when there is nothing', () => {
    expect(marketSplit([], () => 0)).toEqual({ forex: 0, equities: 0, forexPercentage: 0, equitiesPercentage: 0 });
  });
});
