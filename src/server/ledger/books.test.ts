import { describe, expect, it } from 'vitest';
import { bookCashFlow, bookRebate, bookTrade, closeDay, derivedNav, endDay, openBook, unbook } from './books.ts';
import type { Book } from '#server/ledger/port.ts';
import { DAY_S } from '#shared/domain/days.ts';
import type { ClosedTrade } from '#shared/domain/book-events.ts';

// 2026-09-30 (a Wednesday), 00:00 UTC, as an epoch day and seconds.
const SEP30 = Date.UTC(2026, 8, 30) / 1000;
const DAY = SEP30 / DAY_S;

const book = (over: Partial<Book> = {}): Book => ({ ...openBook(7, 'SMA Follower 01', 'SMA', 'USD'), ...over });

const trade = (over: Partial<ClosedTrade> = {}): ClosedTrade => ({
  accountId: 7,
  symbol: 'EURUSD',
  type: 'Buy',
  category: 'Forex',
  quantity: 1.5,
  openPrice: 1.1,
  closePrice: 1.105,
  openedAt: SEP30 + 9 * 3600,
  closedAt: SEP30 + 15 * 3600,
  profit: 125.4,
  swap: -3.2,
  commission: -7,
  fee: 0,
  rebate: 9,
  low: 1.098,
  high: 1.107,
  execMs: 80,
  ...over,
});

describe('a trade closes', () => {
  it('adds its net result (profit + swap + commission + fee) to the balance', () => {
    // 125.40 − 3.20 − 7.00 + 0 = 115.20
    const step = bookTrade(book({ balance: 10_000 }), trade());
    expect(step.deal.net).toBe(115.2);
    expect(step.book.balance).toBe(10_115.2);
  });

  it("adds its lots and rebate to its month's rebate row, with the balance after it", () => {
    const step = bookTrade(book({ balance: 10_000 }), trade());
    expect(step.rebate).toEqual({ accountId: 7, month: '2026-09-01', lots: 1.5, rebate: 9, balance: 10_115.2 });
  });

  it('keeps the worst and best price distance seen while open (MAE/MFE of a buy)', () => {
    // low 1.0980 is 20 pips under the 1.1000 entry; high 1.1070 is 70 pips over it.
    const { deal } = bookTrade(book(), trade());
    expect(deal.mae).toBeCloseTo(0.002, 10);
    expect(deal.mfe).toBeCloseTo(0.007, 10);
  });

  it('mirrors the excursions of a sell', () => {
    const { deal } = bookTrade(book(), trade({ type: 'Sell', openPrice: 1.1, closePrice: 1.095, low: 1.094, high: 1.103 }));
    expect(deal.mae).toBeCloseTo(0.003, 10);
    expect(deal.mfe).toBeCloseTo(0.006, 10);
  });

  it('stores no excursions when the broker does not report the extremes', () => {
    const { deal } = bookTrade(book(), trade({ low: null, high: null }));
    expect(deal.mae).toBeNull();
    expect(deal.mfe).toBeNull();
  });

  it('dates the rebate by the close, not the open', () => {
    const overMonthEnd = trade({ openedAt: SEP30 + 20 * 3600, closedAt: SEP30 + DAY_S + 3600 });
    expect(bookTrade(book(), overMonthEnd).rebate.month).toBe('2026-10-01');
  });

  it('keeps the balance to the cent over many trades', () => {
    let b = book({ balance: 0 });
    for (let i = 0; i < 10; i++) b = bookTrade(b, trade({ profit: 0.1, swap: 0, commission: 0, fee: 0 })).book;
    expect(b.balance).toBe(1);
  });
});

describe('a cash flow', () => {
  it('is a deposit that raises the balance and the high-water mark', () => {
    const step = bookCashFlow(book({ balance: 10_000, hwm: 10_000 }), { accountId: 7, at: SEP30, amount: 5_000, rebalancing: false });
    expect(step.deal.kind).toBe('deposit');
    expect(step.deal.amount).toBe(5_000);
    expect(step.deal.net).toBe(0);
    expect(step.book.balance).toBe(15_000);
    expect(step.book.hwm).toBe(15_000);
  });

  it('is a withdrawal that lowers them, the high-water mark never under 0', () => {
    const some = bookCashFlow(book({ balance: 10_000, hwm: 10_000 }), { accountId: 7, at: SEP30, amount: -2_000, rebalancing: true });
    expect(some.deal.kind).toBe('withdrawal');
    expect(some.deal.rebalancing).toBe(true);
    expect(some.book.balance).toBe(8_000);
    expect(some.book.hwm).toBe(8_000);
    const all = bookCashFlow(book({ balance: 3_000, hwm: 1_000 }), { accountId: 7, at: SEP30, amount: -3_000, rebalancing: false });
    expect(all.book.hwm).toBe(0);
  });

  it('moves the drawdown peak, so a withdrawal is not a drawdown', () => {
    const b = book({ balance: 10_000, peak: 10_000 });
    const after = bookCashFlow(b, { accountId: 7, at: SEP30, amount: -1_000, rebalancing: false }).book;
    expect(after.peak).toBe(9_000);
    expect(endDay(after, DAY, 9_000).alert).toBeNull();
  });
});

describe('a rebate credited (MT5 agent commission)', () => {
  const credit = { kind: 'rebate' as const, accountId: 7, at: SEP30 + 3600, amount: 12.3, ticket: 99 };

  it('is a deal row of its own that moves the balance and carries the rebate', () => {
    const step = bookRebate(book({ balance: 10_146.5 }), credit);
    expect(step.deal).toMatchObject({ kind: 'rebate', amount: 12.3, rebate: 12.3, net: 0, ticket: 99, symbol: null });
    expect(step.book.balance).toBe(10_158.8);
  });

  it("goes on its month's rebate row with no lots, with the balance after it", () => {
    expect(bookRebate(book({ balance: 10_146.5 }), credit).rebate).toEqual({ accountId: 7, month: '2026-09-01', lots: 0, rebate: 12.3, balance: 10_158.8 });
  });

  it('is income: the high-water mark and the drawdown peak stay where they were', () => {
    const after = bookRebate(book({ balance: 10_000, hwm: 10_000, peak: 10_000 }), credit).book;
    expect(after.hwm).toBe(10_000);
    expect(after.peak).toBe(10_000);
  });

  it('is taken back whole when the broker deletes it', () => {
    const booked = bookRebate(book({ balance: 10_146.5 }), credit);
    const back = unbook(booked.book, booked.deal);
    expect(back.book.balance).toBe(10_146.5);
    expect(back.rebate).toEqual({ accountId: 7, month: '2026-09-01', lots: 0, rebate: -12.3, balance: 10_146.5 });
  });
});

describe('NAV derived from the deals', () => {
  // Deposit 10 000 on Sep 28 at 09:00, +146.50 on Sep 29 at 12:00, nothing on Sep 30, +12.30 on Oct 1 at 08:00; today is Oct 2.
  const moves = [
    { at: SEP30 - 2 * DAY_S + 9 * 3600, money: 10_000 },
    { at: SEP30 - DAY_S + 12 * 3600, money: 146.5 },
    { at: SEP30 + DAY_S + 8 * 3600, money: 12.3 },
  ];

  it('writes every past day from the first deal at its end balance, equity = balance, taken at midnight', () => {
    expect(derivedNav(7, moves, 0, DAY + 2)).toEqual([
      { accountId: 7, day: DAY - 2, balance: 10_000, equity: 10_000, takenAt: SEP30 - DAY_S },
      { accountId: 7, day: DAY - 1, balance: 10_146.5, equity: 10_146.5, takenAt: SEP30 },
      { accountId: 7, day: DAY, balance: 10_146.5, equity: 10_146.5, takenAt: SEP30 + DAY_S },
      { accountId: 7, day: DAY + 1, balance: 10_158.8, equity: 10_158.8, takenAt: SEP30 + 2 * DAY_S },
    ]);
  });

  it('writes nothing for today, which has not ended', () => {
    expect(derivedNav(7, moves, 0, DAY - 2)).toEqual([]);
    expect(derivedNav(7, moves, 0, DAY - 1).map((n) => n.day)).toEqual([DAY - 2]);
  });

  it('starts at the day a late deal changed, counting the deals before it', () => {
    expect(derivedNav(7, moves, DAY + 1, DAY + 2)).toEqual([{ accountId: 7, day: DAY + 1, balance: 10_158.8, equity: 10_158.8, takenAt: SEP30 + 2 * DAY_S }]);
  });

  it('writes nothing for an account without deals', () => {
    expect(derivedNav(7, [], 0, DAY)).toEqual([]);
  });
});

describe('a day ends', () => {
  it('writes the NAV row at the balance and the equity to the cent, taken at midnight', () => {
    const { nav } = endDay(book({ balance: 10_115.2 }), DAY, 10_200.456);
    expect(nav).toEqual({ accountId: 7, day: DAY, balance: 10_115.2, equity: 10_200.46, takenAt: SEP30 + DAY_S });
  });

  it('raises a drawdown alert once equity is 6 % under its peak, an hour before the snapshot', () => {
    const { alert, book: after } = endDay(book({ peak: 10_000 }), DAY, 9_400);
    expect(alert).toEqual({
      type: 'drawdown',
      message: 'Drawdown breach on SMA Follower 01: equity 6.0 % below its peak.',
      at: SEP30 + DAY_S - 3600,
      accountId: 7,
    });
    expect(after.inBreach).toBe(true);
  });

  it('stays quiet at 5.9 %', () => {
    expect(endDay(book({ peak: 10_000 }), DAY, 9_410).alert).toBeNull();
  });

  it('raises it once per breach, and again only after equity came back within 3 %', () => {
    let b = endDay(book({ peak: 10_000 }), DAY, 9_400).book;
    const deeper = endDay(b, DAY + 1, 9_000);
    expect(deeper.alert).toBeNull();
    b = endDay(deeper.book, DAY + 2, 9_800).book; // 2 % under the peak: re-armed
    expect(b.inBreach).toBe(false);
    expect(endDay(b, DAY + 3, 9_350).alert?.message).toBe('Drawdown breach on SMA Follower 01: equity 6.5 % below its peak.');
  });

  it('starts the peak at the first day end when none is known', () => {
    const first = endDay(book({ peak: null }), DAY, 12_000);
    expect(first.book.peak).toBe(12_000);
    expect(first.alert).toBeNull();
  });

  it('raises the peak with equity', () => {
    expect(endDay(book({ peak: 10_000 }), DAY, 10_500).book.peak).toBe(10_500);
  });
});

describe('a month ends: profit sharing on the high-water mark (docs/figures.md H1, 25 %)', () => {
  // consolidate accounts pay 25 %. Their last days: 30 September, 31 October, 30 November 2026.
  const h1 = (over: Partial<Book>) => book({ category: 'consolidate', balance: 100_000, ...over });
  const OCT31 = DAY + 31;
  const NOV30 = DAY + 61;

  it('108,000 over a 100,000 mark: fee 2,000, mark 106,000', () => {
    const { book: b, sharing, fees } = closeDay(h1({ hwm: 100_000 }), DAY, 108_000);
    expect(sharing).toEqual({ accountId: 7, month: '2026-09-01', fee: 2_000, balance: 100_000 });
    expect(b.hwm).toBe(106_000);
    expect(fees).toMatchObject([{ kind: 'performance', entry: 'charge', period: '2026-09', basis: 108_000, markBefore: 100_000, markAfter: 106_000, rate: 0.25, amount: 2_000 }]);
  });

  it('111,000 over 106,000: fee 1,250, mark 109,750', () => {
    const { book: b, sharing } = closeDay(h1({ hwm: 106_000 }), OCT31, 111_000);
    expect(sharing).toMatchObject({ month: '2026-10-01', fee: 1_250 });
    expect(b.hwm).toBe(109_750);
  });

  it('109,000 under 109,750: no fee, the mark stays', () => {
    const { book: b, sharing } = closeDay(h1({ hwm: 109_750 }), NOV30, 109_000);
    expect(sharing).toMatchObject({ month: '2026-11-01', fee: 0 });
    expect(b.hwm).toBe(109_750);
  });

  it('charges SMA accounts 20 %', () => {
    expect(closeDay(book({ category: 'SMA', hwm: 100_000 }), DAY, 110_000).sharing?.fee).toBe(2_000);
  });

  it('settles nothing on a day that ends no month', () => {
    const { sharing, fees, book: b } = closeDay(h1({ hwm: 100_000 }), DAY - 1, 108_000);
    expect(sharing).toBeNull();
    expect(fees).toEqual([]);
    expect(b.hwm).toBe(100_000);
  });
});
