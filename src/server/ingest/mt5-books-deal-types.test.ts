import { describe, expect, it } from 'vitest';
import { bookCashFlow, bookRebate, bookResult, derivedNav, openBook, unbook } from '#server/ledger/books.ts';
import type { Book } from '#server/ledger/port.ts';
import { entryOf } from '#server/ledger/rules.ts';
import type { BookEvent } from '#shared/domain/book-events.ts';
import type { Deal } from '#shared/domain/deal.ts';
import { accountResults, balanceOperations, cashFlows, type BrokerDeal } from './mt5-books.ts';

/**
 * Every MT5 deal type that moves the balance, booked by the books as MT5 books it (docs/architecture.md,
 * "Deal types on the books"). Each scenario starts from a deposit of 1 000.00 and is worked by hand in
 * its comments.
 */

const DAY = 20_000; // an epoch day in 2024
const at = (hour: number) => DAY * 86_400 + hour * 3600;

/** A balance-side deal as a terminal reports it: no position, no symbol, its money in `profit`. */
const op = (ticket: number, type: number, profit: number, hour = ticket, over: Partial<BrokerDeal> = {}): BrokerDeal => ({
  ticket, position_id: 0, type, entry: 'in', symbol: '', volume: 0, price: 0, commission: 0, fee: 0, swap: 0, profit, time: at(hour), ...over,
});

/** What Ledger.record does with the events, in memory: the book after them and the deal rows written. */
function book(deals: readonly BrokerDeal[], start: Book = openBook(7, 'Real 7', 'SMA', 'USD')): { book: Book; rows: Deal[] } {
  const events: BookEvent[] = balanceOperations(7, deals).sort((a, b) => entryOf(a).at - entryOf(b).at);
  let b = start;
  const rows: Deal[] = [];
  for (const e of events) {
    const step = 'closedAt' in e ? null : 'kind' in e ? (e.kind === 'rebate' ? bookRebate(b, e) : bookResult(b, e)) : bookCashFlow(b, e);
    if (!step) throw new Error('no trades here');
    b = step.book;
    rows.push(step.deal);
  }
  return { book: b, rows };
}

const DEPOSIT = op(1, 2, 1_000, 1);

describe('a charge (type 4)', () => {
  it('of −5.00 takes the balance from 1 000.00 to 995.00, as a result of the account: the high-water mark stays', () => {
    // 1 000.00 − 5.00 = 995.00; the deposit raised the mark to 1 000.00, the charge leaves it there.
    const { book: b, rows } = book([DEPOSIT, op(2, 4, -5)]);
    expect(b.balance).toBe(995);
    expect(b.hwm).toBe(1_000);
    expect(rows.map((r) => [r.kind, r.amount, r.net, r.reason ?? null, r.ticket])).toEqual([
      ['deposit', 1_000, 0, null, 1],
      ['result', -5, 0, 'charge', 2],
    ]);
  });

  it('taken back when the broker deletes it: 995.00 + 5.00 = 1 000.00', () => {
    const { book: b, rows } = book([DEPOSIT, op(2, 4, -5)]);
    const back = unbook(b, rows[1]!);
    expect(back.book.balance).toBe(1_000);
    expect(back.rebate).toBeNull();
  });
});

describe('interest (type 12)', () => {
  it('of +1.23 takes the balance from 1 000.00 to 1 001.23', () => {
    expect(book([DEPOSIT, op(2, 12, 1.23)]).book.balance).toBe(1_001.23);
  });
});

describe('a dividend (type 15) and the tax withheld on it (type 17)', () => {
  it('+4.50 then −0.68: 1 000.00 → 1 004.50 → 1 003.82', () => {
    const { book: b, rows } = book([DEPOSIT, op(2, 15, 4.5), op(3, 17, -0.68)]);
    expect(rows.map((r) => [r.kind, r.amount, r.reason])).toEqual([
      ['deposit', 1_000, undefined],
      ['result', 4.5, 'dividend'],
      ['result', -0.68, 'tax'],
    ]);
    expect(b.balance).toBe(1_003.82);
  });

  it('a franked dividend (type 16) of +2.10 counts the same: 1 002.10', () => {
    expect(book([DEPOSIT, op(2, 16, 2.1)]).book.balance).toBe(1_002.1);
  });
});

describe('commission booked as a deal of its own (types 7, 8, 9)', () => {
  it('a commission deal of −7.00: 1 000.00 → 993.00', () => {
    expect(book([DEPOSIT, op(2, 7, -7)]).book.balance).toBe(993);
  });

  it('daily −1.40 and monthly −12.00, their money in the commission column: 1 000.00 − 1.40 − 12.00 = 986.60', () => {
    const deals = [DEPOSIT, op(2, 8, 0, 2, { commission: -1.4 }), op(3, 9, 0, 3, { commission: -12 })];
    expect(accountResults(7, deals).map((r) => [r.reason, r.amount])).toEqual([['commission_daily', -1.4], ['commission_monthly', -12]]);
    expect(book(deals).book.balance).toBe(986.6);
  });
});

describe('a correction (type 5)', () => {
  it('of −0.35 after a deposit of 1 000.00: 999.65', () => {
    expect(book([DEPOSIT, op(2, 5, -0.35)]).book.balance).toBe(999.65);
  });
});

describe('a bonus (type 6)', () => {
  it('of +100.00 is money brought in, a cash flow like a deposit: 1 100.00, the high-water mark 1 000.00 → 1 100.00', () => {
    const { book: b, rows } = book([DEPOSIT, op(2, 6, 100)]);
    expect(b.balance).toBe(1_100);
    expect(b.hwm).toBe(1_100);
    expect(rows.map((r) => [r.kind, r.amount, r.reason ?? null])).toEqual([
      ['deposit', 1_000, null],
      ['deposit', 100, 'bonus'],
    ]);
    expect(cashFlows(7, [op(2, 6, 100)])).toEqual([{ accountId: 7, ticket: 2, at: at(2), amount: 100, rebalancing: false, reason: 'bonus' }]);
  });

  it('taken back by the broker (a bonus of −100.00) is a withdrawal of it: 1 000.00, the mark back to 1 000.00', () => {
    const { book: b, rows } = book([DEPOSIT, op(2, 6, 100), op(3, 6, -100)]);
    expect(rows.at(-1)).toMatchObject({ kind: 'withdrawal', amount: -100, reason: 'bonus' });
    expect([b.balance, b.hwm]).toEqual([1_000, 1_000]);
  });
});

describe('deals that move no balance', () => {
  it('a credit (type 3) of 500.00 and canceled orders (types 13, 14) book nothing: 1 000.00', () => {
    const deals = [DEPOSIT, op(2, 3, 500), op(3, 13, 0), op(4, 14, 0)];
    expect(balanceOperations(7, deals).map((e) => e.ticket)).toEqual([1]);
    expect(book(deals).book.balance).toBe(1_000);
  });
});

describe('all of them on one account', () => {
  it('deposit 1 000.00, charge −5.00, interest +1.23, dividend +4.50, tax −0.68, commission −7.00, bonus +100.00: 1 093.05', () => {
    // 1 000.00 − 5.00 = 995.00; + 1.23 = 996.23; + 4.50 = 1 000.73; − 0.68 = 1 000.05; − 7.00 = 993.05; + 100.00 = 1 093.05.
    const deals = [DEPOSIT, op(2, 4, -5), op(3, 12, 1.23), op(4, 15, 4.5), op(5, 17, -0.68), op(6, 7, -7), op(7, 6, 100)];
    const { book: b, rows } = book(deals);
    expect(b.balance).toBe(1_093.05);
    // Only the deposit and the bonus are money brought in: the mark is 1 000.00 + 100.00.
    expect(b.hwm).toBe(1_100);
    // The day's end, derived from the rows as Ledger.deriveNav does: the same 1 093.05.
    const moves = rows.map((r) => ({ at: r.at, money: r.kind === 'trade' ? r.net : r.amount }));
    expect(derivedNav(7, moves, DAY, DAY + 1)).toEqual([{ accountId: 7, day: DAY, balance: 1_093.05, equity: 1_093.05, takenAt: (DAY + 1) * 86_400 }]);
  });
});
