import { describe, expect, it } from 'vitest';
import { formatExcursion } from './live-positions.tsx';

// DOMAIN.md: MAE/MFE in pips of 0.01 for JPY pairs, else 0.0001; a share has no pip, so the
// feed's pip count is shown as the price distance it stands for.
describe('formatExcursion', () => {
  it('shows forex excursions in pips with one decimal (DOMAIN.md example M1: 35 pips)', () => {
    expect(formatExcursion(35, { category: 'Forex', u_symbol: 'EURUSD' })).toBe('35,0 pips');
    expect(formatExcursion(12.25, { category: 'Forex', u_symbol: 'USDJPY' })).toBe('12,3 pips');
  });

  it('shows a share excursion as a price distance: 8 585,6 feed pips of 0.0001 are 0,86', () => {
    expect(formatExcursion(8585.6, { category: 'Equities', u_symbol: 'V' })).toBe('0,86');
    expect(formatExcursion(21963.3, { category: 'Equities', u_symbol: 'TSLA' })).toBe('2,20');
  });

  it('shows a dash when the median is missing', () => {
    expect(formatExcursion(null, { category: 'Equities', u_symbol: 'AAPL' })).toBe(formatExcursion(undefined, { category: 'Forex', u_symbol: 'EURUSD' }));
    expect(formatExcursion(null, { category: 'Forex', u_symbol: 'EURUSD' })).not.toMatch(/\d/);
  });
});
