import { describe, expect, it } from 'vitest';
import { portfolioKeyFigures } from './key-figures.ts';

const acct = (account_id: string, equity_currency: number, pnl_currency: number) => ({ account_id, equity_currency, pnl_currency });
const loss = (account_id: string, pnl_24_hours_currency: number, pnl_7_days_currency: number) => ({
  account_id,
  pnl_24_hours_currency,
  pnl_7_days_currency,
});

describe('portfolio key figures', () => {
  it('adds the accounts’ EUR equity and floating P/L', () => {
    // 10 000.00 + 2 500.55 = 12 500.55; -120.10 + 20.05 = -100.05
    const f = portfolioKeyFigures([acct('a', 10_000, -120.1), acct('b', 2_500.55, 20.05)], []);
    expect(f.equity).toBe(12_500.55);
    expect(f.floatingPnl).toBe(-100.05);
  });

  it('counts the loss windows of the portfolio’s accounts only', () => {
    // 'z' belongs to another portfolio: -50 - 25 = -75 over 24 hours, -300 + 80 = -220 over 7 days
    const f = portfolioKeyFigures([acct('a', 1, 0), acct('b', 1, 0)], [loss('a', -50, -300), loss('b', -25, 80), loss('z', -999, -999)]);
    expect(f.pnl24Hours).toBe(-75);
    expect(f.pnl7Days).toBe(-220);
  });

  it('leaves the windows unknown until the losses arrive, and an empty portfolio at zero', () => {
    expect(portfolioKeyFigures([], undefined)).toEqual({ equity: 0, floatingPnl: 0, pnl24Hours: null, pnl7Days: null });
  });

  it('sums to the cent without floating-point drift', () => {
    // 0.1 + 0.2 = 0.30, not 0.30000000000000004
    expect(portfolioKeyFigures([acct('a', 0.1, 0.1), acct('b', 0.2, 0.2)], []).equity).toBe(0.3);
  });

  it('treats a non-finite figure as zero rather than poisoning the sum', () => {
    expect(portfolioKeyFigures([acct('a', Number.NaN, 5), acct('b', 7, Number.POSITIVE_INFINITY)], []).equity).toBe(7);
  });
});
