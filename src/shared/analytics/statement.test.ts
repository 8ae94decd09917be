import { describe, expect, it } from 'vitest';
import type { FeeEntry } from '#shared/domain/fees.ts';
import { modifiedDietz, timeWeightedReturn } from './performance.ts';
import { dayRange, feeTotals, rangeIso, statementFigures, type StatementDeal } from './statement.ts';

const DAY = 86_400;
const day = (iso: string) => Date.parse(`${iso}T00:00:00Z`) / 1000 / DAY;
const at = (iso: string) => Date.parse(iso) / 1000;

describe('the range a statement covers', () => {
  const today = day('2026-11-27');
  it('a month, a quarter (February of a leap year included), or days', () => {
    expect(rangeIso(dayRange({ period: '2026-10' }, today)!)).toEqual({ from: '2026-10-01', to: '2026-10-31' });
    expect(rangeIso(dayRange({ period: '2028-02' }, today)!)).toEqual({ from: '2028-02-01', to: '2028-02-29' });
    expect(rangeIso(dayRange({ period: '2026-Q4' }, today)!)).toEqual({ from: '2026-10-01', to: '2026-12-31' });
    expect(rangeIso(dayRange({ period: '2026-Q1' }, today)!)).toEqual({ from: '2026-01-01', to: '2026-03-31' });
    expect(rangeIso(dayRange({ from: '2026-11-03' }, today)!)).toEqual({ from: '2026-11-03', to: '2026-11-27' });
  });
  it('none when to comes before from', () => {
    expect(dayRange({ from: '2026-11-05', to: '2026-11-04' }, today)).toBeNull();
  });
});

describe('returns', () => {
  it('time-weighted: a deposit does not count as return; 100 → 110 (+10 %), deposit 100 → 210, → 231 (+10 %) = +21 %', () => {
    expect(timeWeightedReturn(100, [{ equity: 110, flows: 0 }, { equity: 210, flows: 100 }, { equity: 231, flows: 0 }])).toBe(21);
  });
  it('time-weighted: null when nothing was ever invested at a day start', () => {
    expect(timeWeightedReturn(0, [{ equity: 0, flows: 0 }])).toBeNull();
    // The first deposit starts the chain: only the days after it count.
    expect(timeWeightedReturn(0, [{ equity: 1_000, flows: 1_000 }, { equity: 1_050, flows: 0 }])).toBe(5);
  });
  it('money-weighted (Modified Dietz): 100,000 → 118,990 with +20,000 at 21.5/31 and −10,000 at 11.5/31 of the range left', () => {
    const start = at('2026-10-01T00:00:00Z');
    const end = at('2026-11-01T00:00:00Z');
    const flows = [
      { at: at('2026-10-10T12:00:00Z'), amount: 20_000 },
      { at: at('2026-10-20T12:00:00Z'), amount: -10_000 },
    ];
    // 8,990 / (100,000 + 20,000 × 21.5/31 − 10,000 × 11.5/31) = 8,990 / 110,161.2903 = 8.16077 %
    expect(modifiedDietz(100_000, 118_990, flows, start, end)).toBe(8.1608);
    expect(modifiedDietz(0, 0, [], start, end)).toBeNull();
  });
});

describe('fee totals', () => {
  const e = (over: Partial<FeeEntry>): FeeEntry => ({
    accountId: 1, kind: 'management', entry: 'accrual', period: '2026-10', ref: '', at: 0, basis: 0, markBefore: null, markAfter: null,
    rate: 0.02, amount: 0, currency: 'USD', note: '', ...over,
  });
  it('sums charges and adjustments per kind and currency; management accrued after its last charge stays accrued', () => {
    expect(
      feeTotals([
        e({ at: 1, amount: 5.479452 }),
        e({ at: 2, amount: 5.479452 }),
        e({ at: 3, entry: 'charge', amount: 10.96 }),
        e({ at: 4, amount: 5.479452 }),
        e({ at: 5, kind: 'performance', entry: 'charge', amount: 2_000 }),
        e({ at: 6, kind: 'performance', entry: 'adjustment', amount: -100 }),
        e({ at: 7, kind: 'volume', entry: 'charge', amount: 6, currency: 'EUR' }),
        e({ at: 8, kind: 'volume', entry: 'charge', amount: 3.3, currency: 'USD' }),
      ]),
    ).toEqual([
      { kind: 'performance', currency: 'USD', charged: 1_900, accrued: 0 },
      { kind: 'management', currency: 'USD', charged: 10.96, accrued: 5.48 },
      { kind: 'volume', currency: 'EUR', charged: 6, accrued: 0 },
      { kind: 'volume', currency: 'USD', charged: 3.3, accrued: 0 },
    ]);
  });
});

describe('the statement figures', () => {
  const deal = (over: Partial<StatementDeal> & Pick<StatementDeal, 'kind' | 'at'>): StatementDeal => ({
    amount: 0, profit: 0, swap: 0, commission: 0, fee: 0, net: 0, symbol: null, type: null, quantity: 0, openPrice: null, closePrice: null, openedAt: null, ...over,
  });
  const deals = [
    deal({ kind: 'deposit', at: at('2026-09-30T12:00:00Z'), amount: 1_000 }),
    deal({ kind: 'trade', at: at('2026-10-02T12:00:00Z'), profit: 10.1, swap: -0.2, commission: -0.3, fee: -0.05, net: 9.55, symbol: 'EURUSD', type: 'Buy', quantity: 0.1 }),
    deal({ kind: 'rebate', at: at('2026-10-03T12:00:00Z'), amount: 0.7 }),
    deal({ kind: 'result', at: at('2026-10-04T12:00:00Z'), amount: -0.1 }),
    deal({ kind: 'withdrawal', at: at('2026-10-05T12:00:00Z'), amount: -100 }),
    deal({ kind: 'deposit', at: at('2026-11-02T12:00:00Z'), amount: 500 }),
  ];
  const range = dayRange({ period: '2026-10' }, day('2026-11-27'))!;
  const input = { range, today: day('2026-11-27'), deals, nav: [{ day: day('2026-10-31'), balance: 910.15, equity: 912 }], live: { balance: 0, equity: 0 } };

  it('adds its lines up to the closing balance, to the cent (1,000 + 9.55 + 0.70 − 0.10 − 100 = 910.15)', () => {
    const f = statementFigures({ ...input, showRebates: true });
    expect(f).toMatchObject({
      opening_balance: 1_000, deposits: 0, withdrawals: -100, closed_pl: 10.1, swap: -0.2, commissions: -0.3, broker_fees: -0.05,
      rebates: 0.7, other_results: -0.1, closing_balance: 910.15, closing_equity: 912, opening_equity: 1_000,
    });
    expect(f.trades).toHaveLength(1);
  });

  it('counts a rebate among the other results for a user without read_rebate', () => {
    expect(statementFigures({ ...input, showRebates: false })).toMatchObject({ rebates: null, other_results: 0.6, closing_balance: 910.15 });
  });
});
