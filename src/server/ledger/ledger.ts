import type { BookEvent } from '#shared/domain/book-events.ts';
import type { Deal } from '#shared/domain/deal.ts';
import type { WriteContext } from '#server/broker/port.ts';
import { bookCashFlow, bookRebate, bookResult, bookTrade, closeDay, derivedNav, unbook } from './books.ts';
import { dayOf } from './calendar.ts';
import type { Book, BooksStore, NavEntry, NewAlert, ProfitSharingEntry, RebateEntry } from './port.ts';
import { marginAlert, silenceAlert, type WatchedAccount } from './rules.ts';

/** What the ledger needs to know of an account at a day end or a threshold check. */
export type AccountFigures = WatchedAccount;

/**
 * Turns broker events into the books, whichever adapter reports them: a trade closes → its deal row,
 * the balance and the month's rebate row; a day ends → end-of-day NAV and drawdown alerts; a month
 * ends → profit sharing on the high-water mark; thresholds crossed → alerts. Each step runs in the
 * caller's transaction on the books stored with the accounts; the rules themselves are the pure
 * functions of books.ts and rules.ts, which the simulated history replays too.
 */
export class Ledger {
  private changes = 0;
  private readonly marginAlerted = new Map<number, number>();
  private readonly silenceAlerted = new Set<number>();

  constructor(
    /** Where the books are kept (src/server/db/books-store.ts). */
    private readonly store: BooksStore,
    /** Told after every commit (the cached answers' generation). */
    private readonly onCommit: () => void = () => {},
  ) {}

  /** Bumped after every committed write of deals: readers cache per-account sums against it. */
  get version(): number {
    return this.changes;
  }

  /** Runs `fn` in one transaction; the books count as changed once it has committed. */
  async write<T>(fn: (ctx: WriteContext) => Promise<T>): Promise<T> {
    const result = await this.store.transaction(fn);
    this.changes++;
    this.onCommit();
    return result;
  }

  /** Closed trades, cash flows, rebates credited and results of the accounts, in order; returns the accounts' balances after them. */
  async record(ctx: WriteContext, events: readonly BookEvent[]): Promise<Map<number, number>> {
    if (events.length === 0) return new Map();
    const books = new Map((await this.store.readBooks(ctx, [...new Set(events.map((e) => e.accountId))])).map((b) => [b.accountId, b]));
    const deals: Deal[] = [];
    const rebates: RebateEntry[] = [];
    for (const e of events) {
      const book = books.get(e.accountId);
      if (!book) throw new Error(`no account ${e.accountId}`);
      if ('closedAt' in e || ('kind' in e && e.kind === 'rebate')) {
        const step = 'closedAt' in e ? bookTrade(book, e) : bookRebate(book, e);
        books.set(e.accountId, step.book);
        deals.push(step.deal);
        rebates.push(step.rebate);
      } else if ('kind' in e) {
        const step = bookResult(book, e);
        books.set(e.accountId, step.book);
        deals.push(step.deal);
      } else {
        const step = bookCashFlow(book, e);
        books.set(e.accountId, step.book);
        deals.push(step.deal);
      }
    }
    await this.store.insertDeals(ctx, deals);
    await this.store.writeBooks(ctx, [...books.values()]);
    await this.store.addRebates(ctx, rebates);
    return new Map([...books.values()].map((b) => [b.accountId, b.balance]));
  }

  /**
   * Takes back deals already booked (the broker deleted or changed them), by ticket; returns the
   * accounts' balances after.
   */
  async unrecord(ctx: WriteContext, accountId: number, tickets: readonly number[]): Promise<number> {
    const rows = await this.store.dealsByTickets(ctx, accountId, tickets);
    if (rows.length === 0) return 0;
    let [book] = await this.store.readBooks(ctx, [accountId]);
    if (!book) throw new Error(`no account ${accountId}`);
    const rebates: RebateEntry[] = [];
    for (const row of rows) {
      const step = unbook(book, row);
      book = step.book;
      if (step.rebate) rebates.push(step.rebate);
    }
    await this.store.deleteDealsByTickets(ctx, accountId, rows.map((r) => r.ticket!));
    await this.store.writeBooks(ctx, [book]);
    await this.store.addRebates(ctx, rebates);
    return rows.length;
  }

  /**
   * An account's deals changed from `fromS` on (a batch or a statement booked them): its end-of-day
   * NAV rows of the past days from then are derived again from its deals, in the same transaction.
   * Rows taken live stay as they are; deals of today change no past day.
   */
  async deriveNav(ctx: WriteContext, accountId: number, fromS: number, nowS: number): Promise<void> {
    const today = dayOf(nowS);
    if (dayOf(fromS) >= today) return;
    const moves = await this.store.balanceMoves(ctx, accountId);
    const first = moves[0];
    await this.store.saveDerivedNav(ctx, accountId, derivedNav(accountId, moves, dayOf(fromS), today), first ? dayOf(first.at) : null);
  }

  /**
   * A day ended with the accounts at these figures: NAV rows and drawdown alerts, and profit sharing
   * when it was the month's last day.
   */
  async endDay(ctx: WriteContext, day: number, accounts: readonly AccountFigures[]): Promise<void> {
    const equity = new Map(accounts.map((a) => [a.id, a.equity]));
    const books = (await this.store.readBooks(ctx)).filter((b) => equity.has(b.accountId));
    const navs: NavEntry[] = [];
    const alerts: NewAlert[] = [];
    const sharing: ProfitSharingEntry[] = [];
    const after: Book[] = [];
    for (const b of books) {
      const closed = closeDay(b, day, equity.get(b.accountId)!);
      navs.push(closed.nav);
      if (closed.alert) alerts.push(closed.alert);
      if (closed.sharing) sharing.push(closed.sharing);
      after.push(closed.book);
    }
    await this.store.insertNav(ctx, navs);
    await this.store.insertAlerts(ctx, alerts);
    await this.store.setProfitSharing(ctx, sharing);
    await this.store.writeBooks(ctx, after);
  }

  /** Days the server was down: end-of-day NAV at the stored figures (nothing traded meanwhile). */
  async catchUp(today: number, accounts: readonly AccountFigures[]): Promise<void> {
    const last = await this.store.lastNavDay();
    if (last === null) return;
    for (let day = last + 1; day < today; day++) await this.write((ctx) => this.endDay(ctx, day, accounts));
  }

  /**
   * Margin level under MARGIN_ALERT_LEVEL (at most once an hour per account) and accounts silent for
   * SILENCE_ALERT_S (once per silence): alerts recorded now.
   */
  async watch(accounts: readonly AccountFigures[], nowS: number, silenceAfterS?: number): Promise<void> {
    const alerts: NewAlert[] = [];
    const alertedMargin: number[] = [];
    const silent = new Set<number>();
    for (const a of accounts) {
      const alert = marginAlert(a, nowS, this.marginAlerted.get(a.id));
      if (alert) {
        alerts.push(alert);
        alertedMargin.push(a.id);
      }
    }
    for (const a of accounts) {
      const step = silenceAlert(a, nowS, this.silenceAlerted.has(a.id), silenceAfterS);
      if (step.alert) alerts.push(step.alert);
      if (step.alerted) silent.add(a.id);
    }
    // Remembered once recorded: an alert whose insert failed is raised again at the next check.
    if (alerts.length) {
      await this.store.insertAlerts(null, alerts);
      this.onCommit();
    }
    for (const id of alertedMargin) this.marginAlerted.set(id, nowS);
    for (const a of accounts) {
      if (silent.has(a.id)) this.silenceAlerted.add(a.id);
      else this.silenceAlerted.delete(a.id);
    }
  }
}
