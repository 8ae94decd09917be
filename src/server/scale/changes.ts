import { Listeners } from '#server/broker/listeners.ts';

/**
 * Counts the changes of what cached answers read (a ledger commit, a market tick, an agent's
 * report), made on this instance or, with Redis, on any instance. A cached answer is good for as
 * long as the generation it was computed at is the current one: invalidated by writes, never by a
 * timer alone.
 */
export class Changes {
  private n = 0;
  private readonly listeners = new Listeners<number>();
  private publish: (() => void) | undefined;

  get generation(): number {
    return this.n;
  }

  /** A change committed here: counted, and told to the other instances. */
  bump(): void {
    this.n++;
    this.listeners.notify(this.n);
    this.publish?.();
  }

  /** A change seen here that the other instances learn of by themselves (a market snapshot they all receive), or one another instance made. */
  seen(): void {
    this.n++;
    this.listeners.notify(this.n);
  }

  onChange(listener: (generation: number) => void): () => void {
    return this.listeners.add(listener);
  }

  /** Tells the other instances of every local change from now on (the Redis bus). */
  connect(publish: () => void): void {
    this.publish = publish;
  }
}
