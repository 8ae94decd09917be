import { describe, expect, it } from 'vitest';
import { bestWorst, rankByDuration, spreadPips } from './execution.ts';

// docs/figures.md example E1: Buy EURUSD fills A 1.08512, B 1.08508, C 1.08520.
const E1 = [1.08512, 1.08508, 1.0852];

describe('bestWorst', () => {
  it('E1: Buy best B (lowest), worst C (highest)', () => expect(bestWorst('Buy', E1)).toEqual({ best: 1, worst: 2 }));
  it('Sell best is the highest, worst the lowest', () => expect(bestWorst('Sell', E1)).toEqual({ best: 2, worst: 1 }));
  it('ignores nulls and keeps indexes into the input', () => {
    expect(bestWorst('Buy', [null, 1.1, null, 1.2])).toEqual({ best: 1, worst: 3 });
  });
  it('one price or all equal: best is that index, worst null', () => {
    expect(bestWorst('Buy', [null, 1.1])).toEqual({ best: 1, worst: null });
    expect(bestWorst('Sell', [1.1, 1.1, 1.1])).toEqual({ best: 0, worst: null });
  });
  it('no prices: both null', () => {
    expect(bestWorst('Buy', [])).toEqual({ best: null, worst: null });
    expect(bestWorst('Buy', [null])).toEqual({ best: null, worst: null });
  });
});

describe('spreadPips', () => {
  it('E1: 1.2 pips', () => expect(spreadPips(E1, 'EURUSD')).toBeCloseTo(1.2, 6));
  it('uses the JPY pip size', () => expect(spreadPips([150.1, null, 150.13], 'USDJPY')).toBeCloseTo(3, 6));
  it('is 0 for no or one price', () => {
    expect(spreadPips([], 'EURUSD')).toBe(0);
    expect(spreadPips([1.1], 'EURUSD')).toBe(0);
  });
});

describe('rankByDuration', () => {
  it('sorts fastest first, nulls last, stable, without mutating', () => {
    const items = [
      { id: 'a', exec_duration_ms: 120 },
      { id: 'b', exec_duration_ms: null },
      { id: 'c', exec_duration_ms: 45 },
      { id: 'd', exec_duration_ms: 120 },
      { id: 'e', exec_duration_ms: null },
    ];
    expect(rankByDuration(items).map((i) => i.id)).toEqual(['c', 'a', 'd', 'b', 'e']);
    expect(items.map((i) => i.id)).toEqual(['a', 'b', 'c', 'd', 'e']);
  });
  it('handles empty input', () => expect(rankByDuration([])).toEqual([]));
});
