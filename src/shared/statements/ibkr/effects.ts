import type { BrokerEvent, FillEffect, TradeFill } from '#shared/domain/broker-events.ts';
import type { PendingEffect } from './book.ts';

/*
 * Fills whose row has no openCloseIndicator (older queries, futures, some executions): their effect is
 * told from the position held before them, replayed over the statement's fills and corporate actions in
 * time order. A statement that starts with a position open sees it as flat, so its first closing fill
 * opens instead, unless IB's realized result shows it closed.
 */

const EPSILON = 1e-9;

/** Sets the effect (and IB's realized result, for a fill that closes) of every pending fill; `events` in time order. */
export function inferEffects(events: readonly BrokerEvent[], pending: ReadonlyMap<BrokerEvent, PendingEffect>): void {
  const held = new Map<number, number>();
  const change = (position: number, quantity: number) => held.set(position, (held.get(position) ?? 0) + quantity);
  for (const e of events) {
    if (e.kind === 'corporate_action') {
      change(e.position, e.quantity);
      if (e.into) change(e.into.position, e.into.quantity);
      continue;
    }
    if (e.kind !== 'fill') continue;
    const before = held.get(e.position) ?? 0;
    const signed = e.side === 'Buy' ? e.quantity : -e.quantity;
    const waiting = pending.get(e);
    if (waiting) {
      e.effect = effectAfter(before, signed, waiting.realized);
      if (e.effect !== 'open') e.realizedNet = waiting.realized;
    }
    held.set(e.position, after(before, signed, e));
  }
}

function effectAfter(before: number, signed: number, realized: number | null): FillEffect {
  const against = before !== 0 && Math.sign(before) !== Math.sign(signed);
  if (!against) return realized !== null && realized !== 0 ? 'close' : 'open';
  return Math.abs(signed) <= Math.abs(before) + EPSILON ? 'close' : 'reverse';
}

/** The position after a fill, as the round-trip engine leaves it: a close never goes past flat. */
function after(before: number, signed: number, fill: TradeFill): number {
  if (fill.effect !== 'close') return before + signed;
  const left = Math.max(0, Math.abs(before) - Math.abs(signed));
  return Math.sign(before) * left;
}
