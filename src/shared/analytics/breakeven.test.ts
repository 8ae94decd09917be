import { describe, expect, it } from 'vitest';
import { aggregateBreakeven } from './breakeven.ts';

describe('aggregateBreakeven', () => {
  it('B1: A 1.0 lot at 1.08000 (−10 USD), B 0.5 lot at 1.09000 (−5.50 USD) → BE 1.08344', () => {
    const be = aggregateBreakeven('Buy', [
      { lots: 1, openPrice: 1.08, costsQuote: -7 - 3 },
      { lots: 0.5, openPrice: 1.09, costsQuote: -5 * 1.1 },
    ]);
    expect(be).not.toBeNull();
    expect(be?.vwap).toBeCloseTo(1.0833333, 7);
    expect(be?.breakeven).toBe(1.08344);
    expect(be?.breakevenMin).toBe(1.0801);
    expect(be?.breakevenMax).toBe(1.09011);
  });
  it('a Sell breakeven moves down by the costs', () => {
    const be = aggregateBreakeven('Sell', [{ lots: 1, openPrice: 1.08, costsQuote: -10 }]);
    expect(be).toEqual({ vwap: 1.08, breakeven: 1.0799, breakevenMax: 1.0799, breakevenMin: 1.0799 });
  });
  it('honours the contract size', () => {
    expect(aggregateBreakeven('Buy', [{ lots: 1, openPrice: 150, costsQuote: -1_000 }], 1_000)?.breakeven).toBe(151);
  });
  it('is null for no legs or zero lots', () => {
    expect(aggregateBreakeven('Buy', [])).toBeNull();
    expect(aggregateBreakeven('Buy', [{ lots: 0, openPrice: 1.08, costsQuote: -7 }])).toBeNull();
  });
});
