import type { Database } from '#server/db/database.ts';

export interface LeadershipHooks {
  /** The lock is ours: run the market (`first`: for the first time in this process). A throw gives the lock back and tries again later. */
  lead(first: boolean): Promise<void>;
  /** The lock is lost (its connection died): stop acting as the leader at once. */
  lose(): void;
  log: { info(msg: string): void; warn(obj: object, msg: string): void; error(obj: object, msg: string): void };
}

/**
 * Who runs the market and the copy engine: the one process holding a PostgreSQL advisory lock (the
 * embedded database is one process's anyway). The others try again every `retryMs`, so when the
 * leader dies (its connection, and with it the lock, goes) another takes over within that time and
 * reloads the market from the database, where every committed write is.
 */
export class Leadership {
  private release: (() => Promise<void>) | null = null;
  private timer: NodeJS.Timeout | undefined;
  private attempting = false;
  private closing = false;
  private ledOnce = false;
  /** The lock's connection died while `lead` ran: the lead must not stand. */
  private lostWhileLeading = false;

  constructor(
    private readonly db: Database,
    private readonly name: string,
    private readonly retryMs: number,
    private readonly hooks: LeadershipHooks,
  ) {}

  get leading(): boolean {
    return this.release !== null;
  }

  /** One attempt now; true when this process leads. */
  async attempt(): Promise<boolean> {
    if (this.attempting || this.closing || this.release) return this.release !== null;
    this.attempting = true;
    let release: (() => Promise<void>) | null = null;
    this.lostWhileLeading = false;
    try {
      release = await this.db.holdLock(this.name, (err) => this.lost(err));
      if (!release) return false;
      await this.hooks.lead(!this.ledOnce);
      this.ledOnce = true;
      if (this.lostWhileLeading) throw new Error('the lock was lost while taking the market over');
      this.release = release;
      clearInterval(this.timer);
      this.timer = undefined;
      return true;
    } catch (err) {
      this.hooks.lose();
      await release?.().catch(() => undefined);
      this.hooks.log.warn({ err }, 'could not take the market over yet');
      return false;
    } finally {
      this.attempting = false;
    }
  }

  /** Tries every retryMs until this process leads (and again whenever it loses the lock). */
  campaign(): void {
    if (this.timer || this.closing) return;
    this.timer = setInterval(() => {
      void this.attempt().then((led) => {
        if (led) this.hooks.log.info('this instance took the market lock: it runs the market and the copy engine');
      });
    }, this.retryMs);
  }

  private lost(err: unknown): void {
    if (this.attempting) this.lostWhileLeading = true;
    if (this.closing || !this.release) return;
    this.hooks.log.error({ err }, 'lost the market lock with its database connection: the market pauses here');
    this.release = null;
    this.hooks.lose();
    this.campaign();
  }

  async close(): Promise<void> {
    this.closing = true;
    clearInterval(this.timer);
    const release = this.release;
    this.release = null;
    await release?.();
  }
}
