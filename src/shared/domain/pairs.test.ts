import { describe, expect, it } from 'vitest';
import {
  allowedPairsOf,
  EQUITY_PAIRS,
  FOREX_PAIRS,
  pairsOfMarket,
  selectionFromAllowed,
  togglePair,
  type PairSelectionItem,
} from './pairs.ts';

describe('pair lists', () => {
  it('hold the 14 forex pairs of docs/product.md#fields in order, and no equity pair', () => {
    expect(FOREX_PAIRS).toEqual([
      'AUDCAD',
      'AUDJPY',
      'AUDUSD',
      'CADJPY',
      'EURCAD',
      'EURGBP',
      'EURJPY',
      'EURUSD',
      'GBPCAD',
      'GBPJPY',
      'GBPUSD',
      'USDCAD',
      'USDCHF',
      'USDJPY',
    ]);
    expect(EQUITY_PAIRS).toEqual([]);
    expect(pairsOfMarket('Forex')).toBe(FOREX_PAIRS);
    expect(pairsOfMarket('Equities')).toBe(EQUITY_PAIRS);
  });
});

describe('togglePair (docs/product.md#states)', () => {
  const selection: PairSelectionItem[] = [
    { name: 'EURUSD', enabled: true, position: 'long' },
    { name: 'GBPUSD', enabled: false, position: null },
  ];

  it('enabling a pair with no entry adds it enabled with position long', () => {
    expect(togglePair(selection, 'USDJPY', true)).toEqual([
      ...selection,
      { name: 'USDJPY', enabled: true, position: 'long' },
    ]);
  });
  it('enabling an existing disabled pair sets enabled true and position long', () => {
    expect(togglePair(selection, 'GBPUSD', true)).toEqual([
      { name: 'EURUSD', enabled: true, position: 'long' },
      { name: 'GBPUSD', enabled: true, position: 'long' },
    ]);
  });
  it('disabling sets enabled false and position null', () => {
    expect(togglePair(selection, 'EURUSD', false)).toEqual([
      { name: 'EURUSD', enabled: false, position: null },
      { name: 'GBPUSD', enabled: false, position: null },
    ]);
  });
  it('disabling a pair with no entry changes nothing', () => {
    expect(togglePair(selection, 'USDJPY', false)).toEqual(selection);
  });
  it('returns a new array and leaves the input alone', () => {
    const before = structuredClone(selection);
    const after = togglePair(selection, 'EURUSD', false);
    expect(after).not.toBe(selection);
    expect(selection).toEqual(before);
  });
});

describe('allowed pairs', () => {
  it('are the names of the enabled entries', () => {
    expect(
      allowedPairsOf([
        { name: 'EURUSD', enabled: true, position: 'long' },
        { name: 'GBPUSD', enabled: false, position: null },
        { name: 'USDJPY', enabled: true, position: 'long' },
      ]),
    ).toEqual(['EURUSD', 'USDJPY']);
  });
  it('round-trip through a selection built from allowed_pairs', () => {
    expect(selectionFromAllowed(['EURUSD'])).toEqual([{ name: 'EURUSD', enabled: true, position: 'long' }]);
    expect(allowedPairsOf(selectionFromAllowed(['AUDCAD', 'EURGBP']))).toEqual(['AUDCAD', 'EURGBP']);
  });
});
