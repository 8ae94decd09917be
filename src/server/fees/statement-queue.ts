/*
 * One queue for every investor statement an instance makes, whatever its format (docs/statements.md,
 * "Statements within a budget"). A statement takes its turn before any work (before the account is
 * looked up, before a deal is read): a few are made at once, a few more wait, and one user holds at
 * most a couple of places; past that the request is refused at once with 429 and Retry-After, so
 * that a burst of statements never holds the database's connections, the event loop or the memory
 * that other users' requests need. Each instance has its own queue: it protects its own resources.
 */

/** The queue's bounds (docs/statements.md lists them and why). */
export const STATEMENT_QUEUE = {
  /** Statements made at once (their reads, then their worker thread): the machine's two cores. */
  running: 2,
  /** Statements waiting their turn, all users together. */
  waiting: 8,
  /** One user's statements in the queue, made or waiting. */
  perUser: 2,
  /** Retry-After bounds, seconds: an estimate from the statements' recent durations, within these. */
  retryAfterS: { min: 1, max: 60 },
} as const;

/** The queue is full, in total or for this user: try again after `retryAfterS`. */
export class StatementsBusyError extends Error {
  override readonly name = 'StatementsBusyError';
  constructor(
    message: string,
    readonly retryAfterS: number,
  ) {
    super(message);
  }
}

/** The request went away while its statement waited: nothing was done for it. */
export class StatementAbandonedError extends Error {
  override readonly name = 'StatementAbandonedError';
  constructor() {
    super('The request was closed while its statement waited.');
  }
}

interface Waiter {
  start: () => void;
}

export class StatementQueue {
  private running = 0;
  private readonly line: Waiter[] = [];
  private readonly perUser = new Map<number, number>();
  /** A moving average of how long a statement takes, ms (its reads and its worker). */
  private averageMs = 2_000;

  constructor(private readonly limits: { running: number; waiting: number; perUser: number } = STATEMENT_QUEUE) {}

  /** How long a caller turned away now should wait before trying again, in whole seconds. */
  retryAfterS(): number {
    const turnsAhead = (this.line.length + 1) / this.limits.running;
    const s = Math.ceil((this.averageMs * turnsAhead) / 1000);
    return Math.min(STATEMENT_QUEUE.retryAfterS.max, Math.max(STATEMENT_QUEUE.retryAfterS.min, s));
  }

  /** Statements being made, and waiting, now (for tests and /metrics). */
  stats(): { running: number; waiting: number } {
    return { running: this.running, waiting: this.line.length };
  }

  /**
   * Takes `user`'s turn: resolves with the function that gives it back once the statement is made
   * (or failed). Throws StatementsBusyError at once, before any work, when the user already has
   * `perUser` statements in the queue or when `waiting` already wait; rejects with
   * StatementAbandonedError when `signal` aborts while waiting.
   */
  async take(user: number, signal?: AbortSignal): Promise<() => void> {
    const mine = this.perUser.get(user) ?? 0;
    if (mine >= this.limits.perUser) {
      throw new StatementsBusyError(
        `You have ${mine} statements being made already: wait for them, then ask again.`,
        this.retryAfterS(),
      );
    }
    if (this.running >= this.limits.running && this.line.length >= this.limits.waiting) {
      throw new StatementsBusyError('The server is making other statements: try again in a moment.', this.retryAfterS());
    }
    if (signal?.aborted) throw new StatementAbandonedError();
    this.perUser.set(user, mine + 1);
    const leave = () => {
      const n = (this.perUser.get(user) ?? 1) - 1;
      if (n > 0) this.perUser.set(user, n);
      else this.perUser.delete(user);
    };
    if (this.running >= this.limits.running) {
      try {
        await new Promise<void>((resolve, reject) => {
          const waiter: Waiter = {
            start: () => {
              signal?.removeEventListener('abort', abandon);
              resolve();
            },
          };
          const abandon = () => {
            const at = this.line.indexOf(waiter);
            if (at >= 0) this.line.splice(at, 1);
            reject(new StatementAbandonedError());
          };
          signal?.addEventListener('abort', abandon, { once: true });
          this.line.push(waiter);
        });
      } catch (err) {
        leave();
        throw err;
      }
    } else {
      this.running++;
    }
    const started = performance.now();
    let given = false;
    return () => {
      if (given) return;
      given = true;
      this.averageMs = this.averageMs * 0.8 + (performance.now() - started) * 0.2;
      leave();
      const next = this.line.shift();
      // The turn passes straight to the next in line (running stays as it is), or is given back.
      if (next) next.start();
      else this.running--;
    };
  }
}

/** The instance's queue. */
export const statementQueue = new StatementQueue();
