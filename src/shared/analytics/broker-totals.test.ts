import { describe, expect, it } from 'vitest';
import { brokerTotalsByCurrency } from './broker-totals.ts';

describe('brokerTotalsByCurrency', () => {
  it('adds balance, P/L and rebate per currency without converting', () => {
    expect(
      brokerTotalsByCurrency([
        { currency: 'USD', balance: 10_000, pnl: -250.5, total_rebate: 87.5 },
        { currency: 'EUR', balance: 25_000, pnl: 100, total_rebate: 12 },
        { currency: 'USD', balance: 5_000, pnl: 50.5, total_rebate: 12.5 },
      ]),
    ).toEqual([
      { currency: 'EUR', balance: 25_000, pnl: 100, rebate: 12, accounts: 1 },
      { currency: 'USD', balance: 15_000, pnl: -200, rebate: 100, accounts: 2 },
    ]);
  });

  it('keeps the rebate null for a caller without read_rebate, and treats non-finite figures as 0', () => {
    expect(
      brokerTotalsByCurrency([
        { currency: 'gbp', balance: Number.NaN, pnl: 5, total_rebate: null },
        { currency: '', balance: 100, pnl: Infinity, total_rebate: null },
      ]),
    ).toEqual([
      { currency: 'EUR', balance: 100, pnl: 0, rebate: null, accounts: 1 },
      { currency: 'GBP', balance: 0, pnl: 5, rebate: null, accounts: 1 },
    ]);
  });
});
