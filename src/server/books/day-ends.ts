import { dayOf } from '#shared/domain/days.ts';
import type { AccountFigures, Ledger } from '#server/ledger/ledger.ts';
import type { LiveAccount, MarketSnapshot } from '#server/broker/port.ts';

/** At most this many days that ended while no process led are ended at a start (each at the last figures known). */
export const MAX_CATCH_UP_DAYS = 400;
/** How often the leader looks for a day that ended. */
const LOOK_MS = 5_000;

/** What the ledger needs of accounts at a day end or a threshold check, from what an adapter reports of them. */
export function figuresOf(accounts: Iterable<LiveAccount>): AccountFigures[] {
  return [...accounts].map((a) => ({
    id: a.id,
    name: a.account_name,
    brokerName: a.broker.broker_name,
    equity: a.equity,
    margin: a.margin,
    lastUpdate: a.last_update,
  }));
}

/**
 * The core's clock of the books: on the process that leads, every day that ends (00:00 UTC on the
 * market's clock) is ended once for every account, whatever adapter feeds it — end-of-day NAV at the
 * figures the adapters last reported, the day's fees, a month's profit sharing (Ledger.endDay). One
 * policy for all: at the lead's start, the days that ended while no process led are ended in turn from
 * the day after the last one ended live, at most MAX_CATCH_UP_DAYS back; then a day ends at the first
 * look after midnight (every 5 s), at the figures the adapters reported last (an account never reported
 * is left without a row). A day ends once per
 * account (the ledger skips an account whose day has a live NAV row), so two leaders or a restart never
 * end one twice. No adapter ends a day itself.
 */
export class DayEnds {
  /** The first day not yet ended (null until the lead starts). */
  private next: number | null = null;
  private running: Promise<void> = Promise.resolve();
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly ledger: Ledger,
    private readonly snapshot: () => MarketSnapshot,
    /** epoch milliseconds: the market's clock. */
    private readonly now: () => number,
    private readonly onError: (err: unknown) => void,
  ) {}

  /** This process leads: the days slept through end now, then the clock runs. */
  async start(): Promise<void> {
    const today = dayOf(this.now() / 1000);
    const last = await this.ledger.lastDayEnded();
    this.next = last === null ? today : Math.max(Math.min(today, last + 1), today - MAX_CATCH_UP_DAYS);
    await this.check();
    this.timer ??= setInterval(() => void this.check().catch((err: unknown) => this.onError(err)), LOOK_MS);
    this.timer.unref();
  }

  /** Another process leads now (or this one closes): no day ends here. */
  stop(): void {
    clearInterval(this.timer);
    this.timer = undefined;
    this.next = null;
  }

  /** Ends every day from the first not ended to yesterday, one at a time, at the latest figures the adapters reported. */
  check(): Promise<void> {
    const next = this.running.then(async () => {
      if (this.next === null) return;
      const today = dayOf(this.now() / 1000);
      if (this.next >= today) return;
      // An account whose adapter has not reported it yet has no figures: its day is not ended at an
      // equity of 0 (a NAV row, a drawdown, a fee on nothing), it simply has no row for that day.
      const figures = figuresOf(this.snapshot().accounts.values()).filter((a) => a.lastUpdate > 0);
      for (; this.next !== null && this.next < today; this.next++) {
        const day = this.next;
        if (figures.length) await this.ledger.write((ctx) => this.ledger.endDay(ctx, day, figures));
      }
    });
    this.running = next.catch(() => undefined);
    return next;
  }
}
