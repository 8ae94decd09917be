import type { BrokerEvent } from './broker-events.ts';

/*
 * When a position a terminal stops reporting counts as closed. A terminal that restarts or reconnects
 * sends full snapshots before it has loaded its positions: a position missing from one is no evidence
 * that it closed, and closing it (and its copies) on that would move real money on a glitch. So a
 * missing position is unconfirmed, and its close needs evidence: its closing deals, or an absence long
 * enough while the terminal says it is connected and may trade.
 */

/** How long a position must be missing from every full snapshot of a connected terminal before its absence alone closes it [ours]. */
export const UNCONFIRMED_CLOSE_AFTER_S = 300;

/** How far before the last report of the position a closing deal may be dated (clocks of terminal and server differ) [ours]. */
const CLOCK_TOLERANCE_S = 60;
const EPSILON = 1e-9;

/** What the books know of a position its terminal left out: its quantity when last reported open, and when that was. */
export interface MissingPosition {
  identifier: number;
  quantity: number;
  /** epoch seconds of its last report open (null: not known). */
  seenAt: number | null;
  /** epoch seconds since it is missing. */
  since: number;
}

/**
 * Closed by its deals: the closing fills of its position dated from its last report on (less a clock
 * tolerance) cover the quantity it had then. An older partial close, or a deal of another position,
 * does not.
 */
export function closedByDeals(p: MissingPosition, events: readonly BrokerEvent[]): boolean {
  const from = (p.seenAt ?? p.since) - CLOCK_TOLERANCE_S;
  const closed = events.reduce(
    (sum, e) => (e.kind === 'fill' && e.position === p.identifier && e.effect !== 'open' && e.at >= from ? sum + e.quantity : sum),
    0,
  );
  return closed + EPSILON >= p.quantity;
}

/**
 * Closed by its absence: missing from every full snapshot for `afterS` seconds, and the terminal says now
 * that it is connected to its trade server and may trade (a terminal that does not say is taken at its
 * word that it is).
 */
export function closedByAbsence(p: MissingPosition, nowS: number, terminal: { connected?: boolean | null; tradeAllowed?: boolean | null }, afterS = UNCONFIRMED_CLOSE_AFTER_S): boolean {
  if (terminal.connected === false || terminal.tradeAllowed === false) return false;
  return nowS - p.since >= afterS;
}
