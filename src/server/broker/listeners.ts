import type { LiveAccount, LivePosition, TradeEvent } from './port.ts';

/** An adapter's listeners of one kind of event: add one (and get its removal), then tell them all. */
export class Listeners<T> {
  private readonly all = new Set<(value: T) => unknown>();

  add(listener: (value: T) => unknown): () => void {
    this.all.add(listener);
    return () => this.all.delete(listener);
  }

  /** Calls every listener now, without waiting for any. */
  notify(value: T): void {
    for (const l of this.all) l(value);
  }

  /** Calls them one after another, each awaited; a failure goes to `onError`, or stops the rest. */
  async emit(value: T, onError?: (err: unknown) => void): Promise<void> {
    for (const l of this.all) {
      try {
        await l(value);
      } catch (err) {
        if (!onError) throw err;
        onError(err);
      }
    }
  }
}

/**
 * What opened and closed between two reads of an adapter's positions, as trade events: a position of
 * `now` not in `before` opened (on its account), the ones of `before` not in `now` closed.
 */
export function tradeEventsBetween(before: readonly LivePosition[], now: readonly LivePosition[], accounts: ReadonlyMap<number, LiveAccount>): TradeEvent[] {
  const was = new Set(before.map((p) => p.id));
  const is = new Set(now.map((p) => p.id));
  const events: TradeEvent[] = [];
  for (const p of now) {
    const account = accounts.get(p.account_id);
    if (!was.has(p.id) && account) events.push({ kind: 'opened', position: p, account });
  }
  const closed = before.filter((p) => !is.has(p.id));
  if (closed.length) events.push({ kind: 'closed', positions: closed });
  return events;
}
