import type { Database } from '#server/db/database.ts';

export interface LeadershipHooks {
  /** The lock is ours: run the market (`first`: for the first time in this process). A throw gives the lock back and tries again later. */
  lead(first: boolean): Promise<void>;
  /** The lock is lost (its connection died), or this process closes: stop acting as the leader at once. */
  lose(): void;
  /** This process closes while leading: stop acting as the leader, still holding the lock (lose() when not given). */
  stepDown?(): void;
  /**
   * This process closes: resolves once the work the lead started has finished and what it holds is
   * stored (before the lock goes, and the pool after it).
   */
  settle?(): Promise<void>;
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
  private attempting: Promise<boolean> | null = null;
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

  /** One attempt now; true when this process leads. Never once closing has begun. */
  async attempt(): Promise<boolean> {
    if (this.attempting || this.closing || this.release) return this.release !== null;
    const attempt = this.tryLead();
    this.attempting = attempt;
    try {
      return await attempt;
    } finally {
      this.attempting = null;
    }
  }

  private async tryLead(): Promise<boolean> {
    let release: (() => Promise<void>) | null = null;
    this.lostWhileLeading = false;
    try {
      release = await this.db.holdLock(this.name, (err) => this.lost(err));
      if (!release) return false;
      // Closing began while the lock was asked for: it is given back untouched.
      if (this.closing) throw new Error('this instance is shutting down');
      await this.hooks.lead(!this.ledOnce);
      this.ledOnce = true;
      if (this.lostWhileLeading) throw new Error('the lock was lost while taking the market over');
      if (this.closing) throw new Error('this instance is shutting down');
      this.release = release;
      clearInterval(this.timer);
      this.timer = undefined;
      return true;
    } catch (err) {
      this.hooks.lose();
      await this.hooks.settle?.().catch(() => undefined);
      await release?.().catch(() => undefined);
      if (!this.closing) this.hooks.log.warn({ err }, 'could not take the market over yet');
      return false;
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
    if (this.attempting !== null) this.lostWhileLeading = true;
    if (this.closing || !this.release) return;
    this.hooks.log.error({ err }, 'lost the market lock with its database connection: the market pauses here');
    this.release = null;
    this.hooks.lose();
    this.campaign();
  }

  /**
   * This process closes: no attempt starts from now on and one under way gives the lock back; while
   * leading, the lead stops (no tick, no copy, no day end), the work it started finishes, then the
   * lock goes, so another instance takes over before this one's pool closes.
   */
  async close(): Promise<void> {
    this.closing = true;
    clearInterval(this.timer);
    this.timer = undefined;
    await this.attempting?.catch(() => undefined);
    const release = this.release;
    this.release = null;
    if (!release) return;
    (this.hooks.stepDown ?? this.hooks.lose)();
    await this.hooks.settle?.().catch((err: unknown) => this.hooks.log.warn({ err }, 'work under way at shutdown failed'));
    await release();
    this.hooks.log.info('gave the market lock up: another instance may take over');
  }
}
