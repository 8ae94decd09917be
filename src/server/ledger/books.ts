import { drawdownPct } from '#shared/analytics/drawdown.ts';
import { adjustHwmForCashFlow } from '#shared/analytics/rebates.ts';
import { cents } from '#shared/domain/money.ts';
import { DAY_S, dayOf, endsMonth, monthOf } from '#shared/domain/days.ts';
import { closeFeeDay, defaultTerms, markAfterCashFlow } from './fees.ts';
import {
  cashFlowEntry,
  DRAWDOWN_BREACH_PCT,
  DRAWDOWN_REARM_PCT,
  drawdownAlertMessage,
  rebateEntry,
  resultEntry,
  tradeEntry,
} from './rules.ts';
import type { AccountResult, CashFlow, ClosedTrade, RebateCredit } from '#shared/domain/book-events.ts';
import type { Deal } from '#shared/domain/deal.ts';
import type { FeeEntry, FeeTerms } from '#shared/domain/fees.ts';
import type { Book, NavEntry, NewAlert, ProfitSharingEntry, RebateEntry } from './port.ts';

/*
 * One account's books between events: what every bookkeeping step reads and moves on. The simulated
 * history replays an account's events through these functions in memory; the live ledger applies
 * the same functions to the state stored on the account row. Each function is pure.
 */

export const openBook = (accountId: number, accountName: string, category: string, currency: string): Book => ({
  accountId,
  accountName,
  category,
  currency,
  balance: 0,
  equity: 0,
  hwm: 0,
  accrued: 0,
  peak: null,
  inBreach: false,
});

/** A trade closes: its deal row, its net on the balance, its lots and rebate on the month's row. */
export function bookTrade(book: Book, trade: ClosedTrade): { book: Book; deal: Deal; rebate: RebateEntry } {
  const deal = tradeEntry(trade);
  const balance = cents(book.balance + deal.net);
  return {
    book: { ...book, balance },
    deal,
    rebate: { accountId: book.accountId, month: monthOf(trade.closedAt), lots: trade.quantity, rebate: trade.rebate, balance },
  };
}

/**
 * A deposit or withdrawal: the balance, the high-water mark and the drawdown peak move with it. A
 * deposit raises the mark by its amount; a withdrawal lowers it by its amount, or, where the terms
 * say so, in proportion to the basis withdrawn (the balance, or the equity last reported).
 */
export function bookCashFlow(book: Book, flow: CashFlow, terms: FeeTerms = defaultTerms(book.category)): { book: Book; deal: Deal } {
  const deal = cashFlowEntry(flow);
  const perf = terms.performance;
  const before = perf?.basis === 'balance' || !(book.equity > 0) ? book.balance : book.equity;
  return {
    book: {
      ...book,
      balance: cents(book.balance + deal.amount),
      equity: cents(book.equity + deal.amount),
      hwm: markAfterCashFlow(book.hwm, deal.amount, perf?.withdrawals ?? 'amount', before),
      peak: (book.peak ?? 0) + deal.amount,
    },
    deal,
  };
}

/**
 * A rebate credited (MT5 agent commission): on the balance as income (the high-water mark and the
 * drawdown peak stay, as for a trade's result) and on its month's rebate row.
 */
export function bookRebate(book: Book, credit: RebateCredit): { book: Book; deal: Deal; rebate: RebateEntry } {
  const deal = rebateEntry(credit);
  const balance = cents(book.balance + deal.amount);
  return {
    book: { ...book, balance },
    deal,
    rebate: { accountId: book.accountId, month: monthOf(credit.at), lots: 0, rebate: deal.amount, balance },
  };
}

/**
 * A result of the account booked as a deal of its own (a charge, commission, interest, dividend, tax or
 * correction): on the balance as a trade's result is (the high-water mark and the drawdown peak stay);
 * it is on no rebate row.
 */
export function bookResult(book: Book, result: AccountResult): { book: Book; deal: Deal } {
  const deal = resultEntry(result);
  return { book: { ...book, balance: cents(book.balance + deal.amount) }, deal };
}

/**
 * The broker deleted or changed a deal already booked: its effect is taken back (balance, high-water
 * mark and drawdown peak for a cash flow; the balance for a result of the account; lots and rebate off
 * its month's row for a trade or a rebate).
 */
export function unbook(book: Book, deal: Deal): { book: Book; rebate: RebateEntry | null } {
  if (deal.kind === 'result') return { book: { ...book, balance: cents(book.balance - deal.amount) }, rebate: null };
  if (deal.kind === 'rebate') {
    const balance = cents(book.balance - deal.amount);
    return { book: { ...book, balance }, rebate: { accountId: book.accountId, month: monthOf(deal.at), lots: 0, rebate: -deal.amount, balance } };
  }
  if (deal.kind === 'trade') {
    const balance = cents(book.balance - deal.net);
    return {
      book: { ...book, balance },
      rebate: { accountId: book.accountId, month: monthOf(deal.at), lots: -deal.quantity, rebate: -deal.rebate, balance },
    };
  }
  return {
    book: {
      ...book,
      balance: cents(book.balance - deal.amount),
      hwm: adjustHwmForCashFlow(book.hwm, -deal.amount),
      peak: book.peak === null ? null : book.peak - deal.amount,
    },
    rebate: null,
  };
}

/**
 * A day ends at this equity: the end-of-day NAV row, and a drawdown alert when equity falls
 * DRAWDOWN_BREACH_PCT under its peak (re-armed once back within DRAWDOWN_REARM_PCT).
 */
export function endDay(
  book: Book,
  day: number,
  equity: number,
  takenAt = (day + 1) * DAY_S,
): { book: Book; nav: NavEntry; alert: NewAlert | null } {
  const eq = cents(equity);
  const peak = Math.max(book.peak ?? eq, eq);
  const drawdown = drawdownPct(peak, eq);
  let inBreach = book.inBreach;
  let alert: NewAlert | null = null;
  if (!inBreach && drawdown >= DRAWDOWN_BREACH_PCT) {
    inBreach = true;
    alert = { type: 'drawdown', message: drawdownAlertMessage(book.accountName, drawdown), at: takenAt - 3600, accountId: book.accountId };
  } else if (inBreach && drawdown < DRAWDOWN_REARM_PCT) inBreach = false;
  return {
    book: { ...book, peak, inBreach },
    nav: { accountId: book.accountId, day, balance: cents(book.balance), equity: eq, takenAt },
    alert,
  };
}

/**
 * A whole day's close under the account's fee terms (the category's default without any): endDay,
 * the day's fees (closeFeeDay: the management accrual, and at a period's end its charges), and on a
 * month's last day the month's profit sharing row, the performance fee charged in the month.
 */
export function closeDay(
  book: Book,
  day: number,
  equity: number,
  takenAt: number = (day + 1) * DAY_S,
  terms: FeeTerms = defaultTerms(book.category),
): { book: Book; nav: NavEntry; alert: NewAlert | null; sharing: ProfitSharingEntry | null; fees: FeeEntry[] } {
  const closed = endDay(book, day, equity, takenAt);
  const fees = closeFeeDay(
    { accountId: book.accountId, currency: book.currency, mark: closed.book.hwm, accrued: closed.book.accrued },
    terms,
    day,
    equity,
    closed.book.balance,
    // The day's last second: a month's charge is dated in its month.
    takenAt - 1,
  );
  const next = { ...closed.book, equity: cents(equity), hwm: fees.state.mark, accrued: fees.state.accrued };
  const sharing = endsMonth(day)
    ? { accountId: book.accountId, month: monthOf(day * DAY_S), fee: fees.performance ?? 0, balance: cents(book.balance) }
    : null;
  return { ...closed, book: next, sharing, fees: fees.entries };
}

/**
 * End-of-day NAV derived from an account's deals (docs/architecture.md, "NAV from the first deal"):
 * for each day from `fromDay` (not before the first deal's) to the day before `today`, the balance at
 * the day's end, which is also its equity (what was open at a past day's end is not known), taken at
 * the day's end. `moves` are the deals' effects on the balance, oldest first.
 */
export function derivedNav(
  accountId: number,
  moves: readonly { at: number; money: number }[],
  fromDay: number,
  today: number,
): NavEntry[] {
  const first = moves[0];
  if (!first) return [];
  const start = Math.max(fromDay, dayOf(first.at));
  const rows: NavEntry[] = [];
  let balance = 0;
  let i = 0;
  for (let day = start; day < today; day++) {
    const end = (day + 1) * DAY_S;
    for (; i < moves.length && moves[i]!.at < end; i++) balance += moves[i]!.money;
    const b = cents(balance);
    rows.push({ accountId, day, balance: b, equity: b, takenAt: end });
  }
  return rows;
}
