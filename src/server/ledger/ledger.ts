import type { BookEvent } from '#shared/domain/book-events.ts';
import type { Deal } from '#shared/domain/deal.ts';
import type { WriteContext } from '#server/broker/port.ts';
import { bookCashFlow, bookRebate, bookResult, bookTrade, closeDay, derivedNav, unbook } from './books.ts';
import { dayOf } from '#shared/domain/days.ts';
import { performanceAdjustment, periodOf, periodStart, termsOn, volumeFees } from './fees.ts';
import type { FeeEntry } from '#shared/domain/fees.ts';
import type { Book, BooksStore, NavEntry, NewAlert, ProfitSharingEntry, RebateEntry, TermsVersion } from './port.ts';
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
    /** epoch seconds: when a late change to a charged period is booked. */
    private readonly now: () => number = () => Math.floor(Date.now() / 1000),
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

  /**
   * Closed trades, cash flows, rebates credited and results of the accounts, in order, under each
   * account's fee terms of the event's day: a cash flow moves the high-water mark by the terms'
   * withdrawal rule, a copied trade's legs pay the volume fee, and a result dated in a period whose
   * performance fee is charged already is adjusted in the period under way. Returns the accounts'
   * balances after them.
   */
  async record(ctx: WriteContext, events: readonly BookEvent[]): Promise<Map<number, number>> {
    if (events.length === 0) return new Map();
    const ids = [...new Set(events.map((e) => e.accountId))];
    const books = new Map((await this.store.readBooks(ctx, ids)).map((b) => [b.accountId, b]));
    const terms = await this.store.feeTerms(ctx, ids);
    const deals: Deal[] = [];
    const rebates: RebateEntry[] = [];
    const fees: FeeEntry[] = [];
    const late: { accountId: number; at: number; delta: number; ticket: number | null }[] = [];
    for (const e of events) {
      const book = books.get(e.accountId);
      if (!book) throw new Error(`no account ${e.accountId}`);
      if ('closedAt' in e || ('kind' in e && e.kind === 'rebate')) {
        const step = 'closedAt' in e ? bookTrade(book, e) : bookRebate(book, e);
        books.set(e.accountId, step.book);
        deals.push(step.deal);
        rebates.push(step.rebate);
        if ('closedAt' in e) fees.push(...volumeFees(e, book.currency, termsOn(terms.get(e.accountId), dayOf(e.openedAt), book.category)));
        late.push({ accountId: e.accountId, at: step.deal.at, delta: step.deal.kind === 'trade' ? step.deal.net : step.deal.amount, ticket: step.deal.ticket });
      } else if ('kind' in e) {
        const step = bookResult(book, e);
        books.set(e.accountId, step.book);
        deals.push(step.deal);
        late.push({ accountId: e.accountId, at: step.deal.at, delta: step.deal.amount, ticket: step.deal.ticket });
      } else {
        const step = bookCashFlow(book, e, termsOn(terms.get(e.accountId), dayOf(e.at), book.category));
        books.set(e.accountId, step.book);
        deals.push(step.deal);
      }
    }
    fees.push(...(await this.adjustCharged(ctx, books, terms, late, 'booked')));
    await this.store.insertDeals(ctx, deals);
    await this.store.writeBooks(ctx, [...books.values()]);
    await this.store.addRebates(ctx, rebates);
    await this.store.insertFees(ctx, fees);
    return new Map([...books.values()].map((b) => [b.accountId, b.balance]));
  }

  /**
   * Results dated in the period of an account's last performance charge, booked after it (a deal the
   * broker added, changed or deleted late): the charge stays as it was; the difference they make to it is booked
   * as an adjustment in the period under way, and the mark moves by the difference they make to the
   * charge's mark (performanceAdjustment). `books` is updated in place.
   */
  private async adjustCharged(
    ctx: WriteContext,
    books: Map<number, Book>,
    terms: ReadonlyMap<number, TermsVersion[]>,
    changes: readonly { accountId: number; at: number; delta: number; ticket: number | null }[],
    op: 'booked' | 'taken back',
  ): Promise<FeeEntry[]> {
    const nowS = this.now();
    const entries: FeeEntry[] = [];
    for (const accountId of new Set(changes.map((c) => c.accountId))) {
      let book = books.get(accountId)!;
      const current = termsOn(terms.get(accountId), dayOf(nowS), book.category);
      // Only a change dated before the period under way can fall in a charged one.
      const older = changes.filter((c) => c.accountId === accountId && periodOf(c.at, current.period) !== periodOf(nowS, current.period));
      if (older.length === 0) continue;
      const charged = await this.store.lastPerformanceCharge(ctx, accountId);
      if (!charged) continue;
      let adjusted = charged.adjusted;
      const from = periodStart(charged.period);
      for (const [i, c] of older.entries()) {
        // Only a deal of the charged period itself: an older one (a history imported later) was in
        // the figures the period started from.
        if (c.at > charged.at || c.at < from) continue;
        const ref = `${charged.period}/${c.ticket ?? c.at}/${op}/${nowS}/${i}`;
        const step = performanceAdjustment(
          { ...charged, adjusted },
          c.delta,
          { accountId, currency: book.currency, mark: book.hwm, accrued: book.accrued },
          { period: periodOf(nowS, current.period), ref, at: nowS },
        );
        if (!step.entry) continue;
        adjusted += c.delta;
        book = { ...book, hwm: step.state.mark };
        entries.push(step.entry);
      }
      books.set(accountId, book);
    }
    return entries;
  }

  /**
   * Takes back deals already booked (the broker deleted or changed them), by ticket; a result of a
   * period already charged is adjusted as in `record`. Returns the number of deals taken back.
   */
  async unrecord(ctx: WriteContext, accountId: number, tickets: readonly number[]): Promise<number> {
    const rows = await this.store.dealsByTickets(ctx, accountId, tickets);
    if (rows.length === 0) return 0;
    let [book] = await this.store.readBooks(ctx, [accountId]);
    if (!book) throw new Error(`no account ${accountId}`);
    const rebates: RebateEntry[] = [];
    const late: { accountId: number; at: number; delta: number; ticket: number | null }[] = [];
    for (const row of rows) {
      const step = unbook(book, row);
      book = step.book;
      if (step.rebate) rebates.push(step.rebate);
      if (row.kind === 'trade') late.push({ accountId, at: row.at, delta: -row.net, ticket: row.ticket });
      else if (row.kind === 'result' || row.kind === 'rebate') late.push({ accountId, at: row.at, delta: -row.amount, ticket: row.ticket });
    }
    const books = new Map([[accountId, book]]);
    const fees = await this.adjustCharged(ctx, books, await this.store.feeTerms(ctx, [accountId]), late, 'taken back');
    await this.store.deleteDealsByTickets(ctx, accountId, rows.map((r) => r.ticket!));
    await this.store.writeBooks(ctx, [books.get(accountId)!]);
    await this.store.addRebates(ctx, rebates);
    await this.store.insertFees(ctx, fees);
    return rows.length;
  }

  /**
   * An account's deals changed from `fromS` on (a batch or a statement booked them): its end-of-day
   * NAV rows of the past days from then are derived again from its deals, in the same transaction,
   * at the balance the broker held at each day's end (the commission of positions still open then
   * included). Rows taken live stay as they are; deals of today change no past day.
   */
  async deriveNav(ctx: WriteContext, accountId: number, fromS: number, nowS: number): Promise<void> {
    const today = dayOf(nowS);
    if (dayOf(fromS) >= today) return;
    const moves = await this.store.balanceMoves(ctx, accountId);
    const charges = await this.store.entryChargeMoves(ctx, accountId);
    const first = moves[0];
    const all = [...moves, ...charges].sort((a, b) => a.at - b.at);
    await this.store.saveDerivedNav(ctx, accountId, derivedNav(accountId, all, dayOf(fromS), today), first ? dayOf(first.at) : null);
  }

  /**
   * A day ended with the accounts at these figures: NAV rows and drawdown alerts, the day's fees under
   * each account's terms (management accruals; at a period's end, its charges), and profit sharing
   * when it was the month's last day. Once per account and day: an account the day ended for already
   * is skipped.
   */
  async endDay(ctx: WriteContext, day: number, accounts: readonly AccountFigures[]): Promise<void> {
    // An account whose day has ended already (another instance, before a restart) is left as it is:
    // ending it again would accrue and charge twice on its books.
    const ended = await this.store.accountsEnded(ctx, day);
    const equity = new Map(accounts.filter((a) => !ended.has(a.id)).map((a) => [a.id, a.equity]));
    if (equity.size === 0) return;
    const books = (await this.store.readBooks(ctx)).filter((b) => equity.has(b.accountId));
    const terms = await this.store.feeTerms(ctx, books.map((b) => b.accountId));
    const navs: NavEntry[] = [];
    const alerts: NewAlert[] = [];
    const sharing: ProfitSharingEntry[] = [];
    const fees: FeeEntry[] = [];
    const after: Book[] = [];
    for (const b of books) {
      const closed = closeDay(b, day, equity.get(b.accountId)!, undefined, termsOn(terms.get(b.accountId), day, b.category));
      navs.push(closed.nav);
      if (closed.alert) alerts.push(closed.alert);
      if (closed.sharing) sharing.push(closed.sharing);
      fees.push(...closed.fees);
      after.push(closed.book);
    }
    await this.store.insertNav(ctx, navs);
    await this.store.insertAlerts(ctx, alerts);
    await this.store.setProfitSharing(ctx, sharing);
    await this.store.insertFees(ctx, fees);
    await this.store.writeBooks(ctx, after);
  }

  /** The last day ended with a NAV row taken live, for any account (null: none yet): where a catch-up starts. */
  lastDayEnded(): Promise<number | null> {
    return this.store.lastNavDay();
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
