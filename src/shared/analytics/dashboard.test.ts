import { describe, expect, it } from 'vitest';
import { bestPrices, brokerVolumes, distribution, durationRanking, executionGrid, type ExecutionRowInput } from './dashboard.ts';
import type { Side } from '#shared/domain/side.ts';

const row = (account: string, broker: string, symbol: string, type: Side, price: number, ms: number | null = null): ExecutionRowInput => ({
  account_name: account,
  broker_name: broker,
  u_symbol: symbol,
  type,
  price_open: price,
  quantity: 1,
  profit: 10,
  currency: 'USD',
  exec_duration_ms: ms,
});

describe('executionGrid (docs/figures.md E1)', () => {
  it('marks B best and C worst for the Buy EURUSD fills A 1.08512, B 1.08508, C 1.08520', () => {
    const grid = executionGrid([row('A', 'X', 'EURUSD', 'Buy', 1.08512), row('B', 'X', 'EURUSD', 'Buy', 1.08508), row('C', 'X', 'EURUSD', 'Buy', 1.0852)], 'account');
    expect(grid.columns).toEqual(['A', 'B', 'C']);
    expect(grid.rows).toHaveLength(1);
    expect(grid.rows[0]?.best).toBe(1);
    expect(grid.rows[0]?.worst).toBe(2);
  });

  it('reverses the marks for a Sell: highest best, lowest worst', () => {
    const grid = executionGrid([row('A', 'X', 'EURUSD', 'Sell', 1.08512), row('B', 'X', 'EURUSD', 'Sell', 1.08508), row('C', 'X', 'EURUSD', 'Sell', 1.0852)], 'account');
    expect(grid.rows[0]?.best).toBe(2);
    expect(grid.rows[0]?.worst).toBe(1);
  });

  it('keeps one row per instrument and direction, empty cells where a column has no fill, and no marks for a lone fill', () => {
    const grid = executionGrid([row('A', 'X', 'EURUSD', 'Buy', 1.1), row('B', 'Y', 'EURUSD', 'Sell', 1.2), row('B', 'Y', 'USDJPY', 'Buy', 150)], 'broker');
    expect(grid.columns).toEqual(['X', 'Y']);
    expect(grid.rows.map((r) => `${r.symbol} ${r.type}`)).toEqual(['EURUSD Buy', 'EURUSD Sell', 'USDJPY Buy']);
    expect(grid.rows[0]?.cells[1]).toBeNull();
    expect(grid.rows[0]?.best).toBeNull();
    expect(grid.rows[0]?.worst).toBeNull();
  });

  it('gives a best but no worst when all fills are equal', () => {
    const grid = executionGrid([row('A', 'X', 'EURUSD', 'Buy', 1.1), row('B', 'X', 'EURUSD', 'Buy', 1.1)], 'account');
    expect(grid.rows[0]?.best).toBe(0);
    expect(grid.rows[0]?.worst).toBeNull();
  });

  it('names the best fill per instrument', () => {
    const grid = executionGrid([row('A', 'X', 'EURUSD', 'Buy', 1.08512), row('B', 'X', 'EURUSD', 'Buy', 1.08508), row('A', 'X', 'GBPUSD', 'Sell', 1.27)], 'account');
    expect(bestPrices(grid)).toEqual([
      { symbol: 'EURUSD', type: 'Buy', price: 1.08508, name: 'B' },
      { symbol: 'GBPUSD', type: 'Sell', price: 1.27, name: 'A' },
    ]);
  });
});

describe('durationRanking', () => {
  it('ranks owners by mean duration, fastest first, leaving out owners without durations', () => {
    const ranking = durationRanking(
      [row('A', 'X', 'EURUSD', 'Buy', 1, 100), row('A', 'X', 'GBPUSD', 'Buy', 1, 60), row('B', 'Y', 'EURUSD', 'Buy', 1, 50), row('C', 'Z', 'EURUSD', 'Buy', 1, null)],
      'account',
    );
    expect(ranking).toEqual([
      { name: 'B', exec_duration_ms: 50, trades: 1 },
      { name: 'A', exec_duration_ms: 80, trades: 2 },
    ]);
  });
});

describe('brokerVolumes', () => {
  it('sums EUR volume per broker, largest first, with shares and palette colours', () => {
    const segments = brokerVolumes(
      [
        { broker_name: 'IBKR', quantity_currency: 100_000 },
        { broker_name: 'Exante', quantity_currency: 300_000 },
        { broker_name: 'IBKR', quantity_currency: 100_000 },
      ],
      ['red', 'blue'],
    );
    expect(segments).toEqual([
      { broker: 'Exante', volume: 300_000, percentage: 60, color: 'red' },
      { broker: 'IBKR', volume: 200_000, percentage: 40, color: 'blue' },
    ]);
  });

  it('is empty without volume', () => {
    expect(brokerVolumes([], ['red'])).toEqual([]);
    expect(brokerVolumes([{ broker_name: 'IBKR', quantity_currency: Number.NaN }], ['red'])).toEqual([]);
  });
});

describe('distribution', () => {
  it('splits Forex and Equities (empty category counts as equities) and shares per instrument', () => {
    const d = distribution(
      [
        { u_symbol: 'EURUSD', category: 'Forex', quantity_currency: 150 },
        { u_symbol: 'AAPL', category: '', quantity_currency: 50 },
        { u_symbol: 'EURUSD', category: 'Forex', quantity_currency: 100 },
        { u_symbol: 'MSFT', category: 'Equities', quantity_currency: 200 },
      ],
      ['a', 'b', 'c'],
    );
    expect(d.forex).toBe(250);
    expect(d.equities).toBe(250);
    expect(d.total).toBe(500);
    expect(d.instruments).toEqual([
      { symbol: 'EURUSD', market: 'Forex', value: 250, percentage: 50, color: 'a' },
      { symbol: 'MSFT', market: 'Equities', value: 200, percentage: 40, color: 'b' },
      { symbol: 'AAPL', market: 'Equities', value: 50, percentage: 10, color: 'c' },
    ]);
  });
});
