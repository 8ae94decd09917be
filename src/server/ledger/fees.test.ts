import { describe, expect, it } from 'vitest';
import type { ClosedTrade } from '#shared/domain/book-events.ts';
import type { FeeTerms } from '#shared/domain/fees.ts';
import { bookCashFlow, closeDay, openBook } from './books.ts';
import { DAY_S } from '#shared/domain/days.ts';
import { closeFeeDay, defaultTerms, endsPeriod, managementAccrual, markAfterCashFlow, performanceAdjustment, periodOf, periodStart, termsOn, volumeFees } from './fees.ts';
import type { Book } from './port.ts';

/* The hand-worked examples F1–F7 of docs/figures.md, one test each; the figures are worked there by hand. */

const day = (y: number, m: number, d: number): number => Date.UTC(y, m - 1, d) / 1000 / DAY_S;
const perf = (rate: number, over: Partial<NonNullable<FeeTerms['performance']>> = {}): FeeTerms => ({
  period: 'monthly',
  performance: { rate, basis: 'equity', withdrawals: 'amount', ...over },
  management: null,
  volume: null,
});
const start = (over: Partial<Book> = {}): Book => ({ ...openBook(9, 'Follower', 'SMA', 'USD'), balance: 100_000, equity: 100_000, hwm: 100_000, ...over });
const flow = (b: Book, amount: number, terms: FeeTerms) => bookCashFlow(b, { accountId: 9, at: day(2026, 3, 10) * DAY_S, amount, rebalancing: false }, terms).book;

describe('F1: a deposit and a withdrawal inside a month (25 %, withdrawals lower the mark by their amount)', () => {
  it('mark 100,000 → +20,000 → 120,000 → −10,000 → 110,000; month-end equity 115,000: fee 1,250, mark 113,750', () => {
    const terms = perf(0.25);
    let b = flow(start(), 20_000, terms);
    expect(b.hwm).toBe(120_000);
    b = flow(b, -10_000, terms);
    expect(b.hwm).toBe(110_000);
    const end = closeDay(b, day(2026, 3, 31), 115_000, undefined, terms);
    expect(end.sharing?.fee).toBe(1_250);
    expect(end.book.hwm).toBe(113_750);
  });
});

describe('F2: a losing period is carried forward (20 %)', () => {
  it('92,000 then 98,000: no fee, the mark stays 100,000; 104,000: fee 800, mark 103,200', () => {
    const terms = perf(0.2);
    const jan = closeDay(start(), day(2026, 1, 31), 92_000, undefined, terms);
    expect([jan.sharing?.fee, jan.book.hwm]).toEqual([0, 100_000]);
    const feb = closeDay(jan.book, day(2026, 2, 28), 98_000, undefined, terms);
    expect([feb.sharing?.fee, feb.book.hwm]).toEqual([0, 100_000]);
    const mar = closeDay(feb.book, day(2026, 3, 31), 104_000, undefined, terms);
    expect([mar.sharing?.fee, mar.book.hwm]).toEqual([800, 103_200]);
  });
});

describe('F3: quarterly against monthly (20 %; month ends 106,000, 101,000, 107,000)', () => {
  const months: [number, number][] = [
    [day(2026, 1, 31), 106_000],
    [day(2026, 2, 28), 101_000],
    [day(2026, 3, 31), 107_000],
  ];
  const run = (terms: FeeTerms) => {
    let b = start();
    const fees: number[] = [];
    for (const [d, equity] of months) {
      const end = closeDay(b, d, equity, undefined, terms);
      fees.push(end.sharing?.fee ?? 0);
      b = end.book;
    }
    return { fees, mark: b.hwm };
  };

  it('monthly: 1,200, 0, 440 (1,640 in all), mark 106,560', () => {
    expect(run(perf(0.2))).toEqual({ fees: [1_200, 0, 440], mark: 106_560 });
  });

  it('quarterly: 0, 0, 1,400 (charged at the end of March only), mark 105,600', () => {
    expect(run({ ...perf(0.2), period: 'quarterly' })).toEqual({ fees: [0, 0, 1_400], mark: 105_600 });
  });

  it('a quarter ends with March, June, September and December', () => {
    expect([1, 2, 3, 6, 9, 11, 12].map((m) => endsPeriod(day(2026, m + 1, 1) - 1, 'quarterly'))).toEqual([false, false, true, true, true, false, true]);
    expect(periodOf(day(2026, 5, 14) * DAY_S, 'quarterly')).toBe('2026-Q2');
    expect(periodOf(day(2026, 5, 14) * DAY_S, 'monthly')).toBe('2026-05');
  });
});

describe('F4: the two withdrawal rules (25 %; mark 120,000, equity 150,000, 30,000 withdrawn, month-end equity 125,000)', () => {
  const b = start({ balance: 150_000, equity: 150_000, hwm: 120_000 });

  it('by the amount withdrawn: mark 90,000, fee 8,750', () => {
    const terms = perf(0.25);
    const after = flow(b, -30_000, terms);
    expect(after.hwm).toBe(90_000);
    expect(closeDay(after, day(2026, 3, 31), 125_000, undefined, terms).sharing?.fee).toBe(8_750);
  });

  it('in proportion to the equity withdrawn (20 %): mark 96,000, fee 7,250', () => {
    const terms = perf(0.25, { withdrawals: 'proportional' });
    const after = flow(b, -30_000, terms);
    expect(after.hwm).toBe(96_000);
    expect(closeDay(after, day(2026, 3, 31), 125_000, undefined, terms).sharing?.fee).toBe(7_250);
  });

  it("cTrader's own example: mark 120, 40 withdrawn → mark 80", () => {
    expect(markAfterCashFlow(120, -40, 'amount', 200)).toBe(80);
  });
});

describe('F5: a management fee of 2 % a year on 100,000 of equity', () => {
  const terms: FeeTerms = { period: 'monthly', performance: null, management: { annual_rate: 0.02 }, volume: null };
  const month = (first: number, days: number) => {
    let state = { accountId: 9, currency: 'USD', mark: 0, accrued: 0 };
    const entries = [];
    for (let d = first; d < first + days; d++) {
      const step = closeFeeDay(state, terms, d, 100_000, 100_000, (d + 1) * DAY_S);
      state = step.state;
      entries.push(...step.entries);
    }
    return entries;
  };

  it('accrues 5.479452 a day (100,000 × 2 % / 365)', () => {
    expect(managementAccrual(0.02, 100_000)).toBe(5.479452);
  });

  it('June (30 days): 30 accruals, charged 164.38 on 30 June', () => {
    const entries = month(day(2026, 6, 1), 30);
    expect(entries.filter((e) => e.entry === 'accrual')).toHaveLength(30);
    expect(entries.filter((e) => e.entry === 'charge')).toMatchObject([{ kind: 'management', period: '2026-06', amount: 164.38 }]);
  });

  it('July (31 days): charged 169.86 on 31 July', () => {
    expect(month(day(2026, 7, 1), 31).filter((e) => e.entry === 'charge')).toMatchObject([{ period: '2026-07', amount: 169.86 }]);
  });
});

describe('F6: a volume fee of 30 USD per million on a copied round trip, EURUSD on a EUR account', () => {
  const trade: ClosedTrade = {
    accountId: 9, symbol: 'EURUSD', type: 'Buy', category: 'Forex', quantity: 2, openPrice: 1.08, closePrice: 1.085,
    openedAt: day(2026, 3, 10) * DAY_S, closedAt: day(2026, 3, 11) * DAY_S, profit: 1_000, swap: 0, commission: 0, fee: 0, rebate: 0,
    low: null, high: null, execMs: null, ticket: 501, copyOf: 77,
  };
  const terms: FeeTerms = { period: 'monthly', performance: null, management: null, volume: { usd_per_million: 30 } };

  it('open: 216,000 USD → 6.48 USD → 6.00 EUR at 1.08; close: 217,000 USD → 6.51 USD → 6.00 EUR at 1.085', () => {
    const legs = volumeFees(trade, 'EUR', terms);
    expect(legs.map((l) => [l.ref, l.basis, l.amount, l.currency])).toEqual([
      ['501:open', 216_000, 6, 'EUR'],
      ['501:close', 217_000, 6, 'EUR'],
    ]);
  });

  it('a USD account pays the USD amounts; a trade of its own pays none', () => {
    expect(volumeFees(trade, 'USD', terms).map((l) => l.amount)).toEqual([6.48, 6.51]);
    expect(volumeFees({ ...trade, copyOf: null }, 'EUR', terms)).toEqual([]);
  });
});

describe('terms in force', () => {
  it('the category default before any terms, then the latest version not after the day', () => {
    const v = [{ fromDay: 100, terms: perf(0.3) }, { fromDay: 200, terms: perf(0.1) }];
    expect(termsOn(v, 99, 'SMA')).toEqual(defaultTerms('SMA'));
    expect(termsOn(v, 150, 'SMA').performance?.rate).toBe(0.3);
    expect(termsOn(v, 200, 'SMA').performance?.rate).toBe(0.1);
  });
});

describe('F7: a deal of a charged month changed late is adjusted in the next one', () => {
  it('March charged 25 % × (108,000 − 100,000) = 2,000; a March trade cut by 400 in April: −100, the mark −300', () => {
    const charged = { period: '2026-03', at: day(2026, 4, 1) * DAY_S, basis: 108_000, markBefore: 100_000, rate: 0.25, adjusted: 0 };
    const state = { accountId: 9, currency: 'USD', mark: 106_000, accrued: 0 };
    const step = performanceAdjustment(charged, -400, state, { period: '2026-04', ref: 'x', at: day(2026, 4, 5) * DAY_S });
    expect(step.entry).toMatchObject({ entry: 'adjustment', period: '2026-04', basis: -400, amount: -100, markBefore: 106_000, markAfter: 105_700 });
  });
});

describe('periods by name', () => {
  it('a period starts on its first day: 2026-03 on 1 March, 2026-Q4 on 1 October', () => {
    expect(periodStart('2026-03')).toBe(day(2026, 3, 1) * DAY_S);
    expect(periodStart('2026-Q4')).toBe(day(2026, 10, 1) * DAY_S);
    expect(periodStart(periodOf(day(2026, 8, 17) * DAY_S, 'quarterly'))).toBe(day(2026, 7, 1) * DAY_S);
  });
});
