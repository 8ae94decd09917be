import type { Database, Queryable } from '#server/db/database.ts';
import { readBooks, writeBooks } from '#server/db/accounts-repo.ts';
import { insertAlerts, type NewAlert } from '#server/db/alerts-repo.ts';
import { insertDeals } from '#server/db/deals-repo.ts';
import { insertNav, lastNavDay } from '#server/db/nav-repo.ts';
import { addRebates, setProfitSharing } from '#server/db/rebates-repo.ts';
import { bookCashFlow, bookTrade, endDay, endMonth, type Book, type NavEntry, type ProfitSharingEntry } from './books.ts';
import { DAY_S, endsMonth, monthOf } from './calendar.ts';
import {
  MARGIN_ALERT_LEVEL,
  MARGIN_ALERT_REPEAT_S,
  marginAlertMessage,
  marginLevel,
  SILENCE_ALERT_S,
  SILENCE_REARM_S,
  silenceAlertMessage,
  type CashFlow,
  type ClosedTrade,
  type DealEntry,
} from './rules.ts';

/** What the ledger needs to know of an account at a day end or a threshold check. */
export interface AccountFigures {
  id: number;
  name: string;
  brokerName: string;
  equity: number;
  margin: number;
  /** epoch seconds of its last report */
  lastUpdate: number;
}

/**
 * Turns broker events into the books, whichever adapter reports them: a trade closes → its deal row,
 * the balance and the month's rebate row; a day ends → end-of-day NAV and drawdown alerts; a month
 * ends → profit sharing on the high-water mark; thresholds crossed → alerts. Each step runs in the
 * caller's transaction on the books stored with the accounts; the rules themselves are the pure
 * functions of books.ts and rules.ts, which the simulated history replays too.
 */
export class Ledger {
  private readonly listeners = new Set<() => void>();
  private changes = 0;
  private readonly marginAlerted = new Map<number, number>();
  private readonly silenceAlerted = new Set<number>();

  constructor(private readonly db: Database) {}

  /** Bumped after every committed write of deals: readers cache per-account sums against it. */
  get version(): number {
    return this.changes;
  }

  onChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Runs `fn` in one transaction; the books count as changed once it has committed. */
  async write<T>(fn: (tx: Queryable) => Promise<T>): Promise<T> {
    const result = await this.db.transaction(fn);
    this.changes++;
    for (const l of this.listeners) l();
    return result;
  }

  /** Closed trades and cash flows, in order; returns the accounts' balances after them. */
  async record(tx: Queryable, events: readonly (ClosedTrade | CashFlow)[]): Promise<Map<number, number>> {
    if (events.length === 0) return new Map();
    const books = new Map((await readBooks(tx, [...new Set(events.map((e) => e.accountId))])).map((b) => [b.accountId, b]));
    const deals: DealEntry[] = [];
    const rebates = [];
    for (const e of events) {
      const book = books.get(e.accountId);
      if (!book) throw new Error(`no account ${e.accountId}`);
      if ('closedAt' in e) {
        const step = bookTrade(book, e);
        books.set(e.accountId, step.book);
        deals.push(step.deal);
        rebates.push(step.rebate);
      } else {
        const step = bookCashFlow(book, e);
        books.set(e.accountId, step.book);
        deals.push(step.deal);
      }
    }
    await insertDeals(tx, deals);
    await writeBooks(tx, [...books.values()]);
    await addRebates(tx, rebates);
    return new Map([...books.values()].map((b) => [b.accountId, b.balance]));
  }

  /**
   * A day ended with the accounts at these figures: NAV rows and drawdown alerts, and profit sharing
   * when it was the month's last day.
   */
  async endDay(tx: Queryable, day: number, accounts: readonly AccountFigures[]): Promise<void> {
    const equity = new Map(accounts.map((a) => [a.id, a.equity]));
    const books = (await readBooks(tx)).filter((b) => equity.has(b.accountId));
    const navs: NavEntry[] = [];
    const alerts: NewAlert[] = [];
    const sharing: ProfitSharingEntry[] = [];
    const after: Book[] = [];
    for (const b of books) {
      const eq = equity.get(b.accountId)!;
      const closed = endDay(b, day, eq);
      navs.push(closed.nav);
      if (closed.alert) alerts.push(closed.alert);
      let book = closed.book;
      if (endsMonth(day)) {
        const settled = endMonth(book, monthOf(day * DAY_S), eq);
        book = settled.book;
        sharing.push(settled.sharing);
      }
      after.push(book);
    }
    await insertNav(tx, navs);
    await insertAlerts(tx, alerts);
    await setProfitSharing(tx, sharing);
    await writeBooks(tx, after);
  }

  /** Days the server was down: end-of-day NAV at the stored figures (nothing traded meanwhile). */
  async catchUp(today: number, accounts: readonly AccountFigures[]): Promise<void> {
    const last = await lastNavDay(this.db);
    if (last === null) return;
    for (let day = last + 1; day < today; day++) await this.write((tx) => this.endDay(tx, day, accounts));
  }

  /**
   * Margin level under MARGIN_ALERT_LEVEL (at most once an hour per account) and accounts silent for
   * SILENCE_ALERT_S (once per silence): alerts recorded now.
   */
  async watch(accounts: readonly AccountFigures[], nowS: number): Promise<void> {
    const alerts: NewAlert[] = [];
    for (const a of accounts) {
      const level = marginLevel(a.equity, a.margin);
      if (level !== null && level < MARGIN_ALERT_LEVEL && nowS - (this.marginAlerted.get(a.id) ?? 0) > MARGIN_ALERT_REPEAT_S) {
        this.marginAlerted.set(a.id, nowS);
        alerts.push({ type: 'margin', message: marginAlertMessage(a.name, level), at: nowS, accountId: a.id });
      }
    }
    for (const a of accounts) {
      const silent = nowS - a.lastUpdate;
      if (silent > SILENCE_ALERT_S && !this.silenceAlerted.has(a.id)) {
        this.silenceAlerted.add(a.id);
        alerts.push({ type: 'ping', message: silenceAlertMessage(a.name, Math.round(silent / 60), a.brokerName), at: nowS, accountId: a.id });
      } else if (silent < SILENCE_REARM_S) this.silenceAlerted.delete(a.id);
    }
    if (alerts.length) await insertAlerts(this.db, alerts);
  }
}
