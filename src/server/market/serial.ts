import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * A promise chain that runs a market's mutations one at a time. A mutation started from inside a
 * running one (a trade listener placing an order) runs at once, inside it: waiting for the queue
 * there would wait for itself.
 */
export class Serial {
  private tail: Promise<unknown> = Promise.resolve();
  private readonly inside = new AsyncLocalStorage<Serial>();

  run<T>(fn: () => Promise<T>): Promise<T> {
    if (this.inside.getStore() === this) return fn();
    const step = () => this.inside.run(this, fn);
    const next = this.tail.then(step, step);
    this.tail = next.catch(() => undefined);
    return next;
  }
}
