import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * A promise chain that runs a market's mutations one at a time. A mutation started from inside a
 * running one (a trade listener placing an order) runs at once, inside it: waiting for the queue
 * there would wait for itself.
 */
export class Serial {
  private tail: Promise<unknown> = Promise.resolve();
  private readonly inside = new AsyncLocalStorage<Serial>();

  /** Is the caller running inside one of this queue's steps? */
  get running(): boolean {
    return this.inside.getStore() === this;
  }

  /**
   * Runs fn as if outside every step: callbacks it starts (timers, listeners that place orders) queue
   * behind the step under way instead of running inside it.
   */
  outside<T>(fn: () => T): T {
    return this.inside.exit(fn);
  }

  run<T>(fn: () => Promise<T>): Promise<T> {
    if (this.running) return fn();
    const step = () => this.inside.run(this, fn);
    const next = this.tail.then(step, step);
    this.tail = next.catch(() => undefined);
    return next;
  }
}
