import { cents, roundTo } from '#shared/domain/money.ts';
import type { BookEvent, ClosedTrade } from '#shared/domain/book-events.ts';
import type { BrokerEvent } from '#shared/domain/broker-events.ts';
import type { Deal } from '#shared/domain/deal.ts';
import { balanceOperations, marketOf, roundTrips } from '#shared/domain/round-trips.ts';
import type { Queryable } from '#server/db/database.ts';
import { deleteEvents, eventsByRefs, eventsOfPositions, upsertEvents, type StoredEvent } from '#server/db/broker-events-repo.ts';
import { copyOfPositions } from '#server/db/copy-links-repo.ts';
import { dealsByTickets } from '#server/db/deals-repo.ts';
import { writeContextOf } from '#server/db/write-context.ts';
import type { Ledger } from '#server/ledger/ledger.ts';
import { entryOf } from '#server/ledger/rules.ts';

/**
 * The books of real accounts, whatever their broker: the neutral events a broker reported (a
 * terminal's batch, an imported statement of any format) are stored by ref, and what they change is
 * booked through the ledger — a round trip, a cash flow, a rebate or a result of the account that is
 * new is recorded, one that changed is taken back and recorded again, one that is gone is taken back,
 * and the end-of-day NAV derived from the deals is made again from the earliest day touched. All in
 * the caller's transaction.
 */

/** What applying events did: events added, changed, unchanged and deleted, and ledger rows booked. */
export interface EventsApplied {
  added: number;
  updated: number;
  unchanged: number;
  deleted: number;
  booked: number;
}

const positionOf = (e: BrokerEvent): number | null => (e.kind === 'fill' || e.kind === 'corporate_action' ? e.position : null);

/** Two events alike, whatever order their fields were stored in. */
function same(a: BrokerEvent, b: BrokerEvent): boolean {
  return canonical(a) === canonical(b);
}
const canonical = (value: unknown): string =>
  JSON.stringify(value, (_key, v: unknown) =>
    v && typeof v === 'object' && !Array.isArray(v) ? Object.fromEntries(Object.entries(v as Record<string, unknown>).sort(([x], [y]) => (x < y ? -1 : 1))) : v,
  );

/**
 * Stores an account's events by ref (replacing what the broker changed, removing what it deleted) and
 * books what that changes.
 */
export async function applyEvents(
  tx: Queryable,
  ledger: Ledger,
  accountId: number,
  incoming: readonly StoredEvent[],
  deletedRefs: readonly number[],
  nowS: number,
): Promise<EventsApplied> {
  const refs = [...incoming.map((e) => e.event.ref), ...deletedRefs];
  const before = await eventsByRefs(tx, accountId, refs);
  const stored = new Map(before.map((e) => [e.event.ref, e]));
  const added = incoming.filter((e) => !stored.has(e.event.ref)).length;
  const unchanged = incoming.filter((e) => {
    const was = stored.get(e.event.ref);
    return was !== undefined && was.brokerTime === e.brokerTime && same(was.event, e.event);
  }).length;
  const positions = [...new Set([...before, ...incoming].flatMap((e) => positionOf(e.event) ?? []))];
  const previous = await eventsOfPositions(tx, accountId, positions);
  const deleted = new Set(deletedRefs);
  await deleteEvents(tx, accountId, [...deleted]);
  await upsertEvents(tx, accountId, incoming);
  const current = await eventsOfPositions(tx, accountId, positions);
  const booked = await rebook(tx, ledger, accountId, nowS, {
    before: [...trades(accountId, previous.map((e) => e.event)), ...balanceOperations(accountId, before.map((e) => e.event))],
    after: [...(await linkedTrades(tx, accountId, current.map((e) => e.event))), ...balanceOperations(accountId, incoming.map((e) => e.event))],
  });
  return {
    added,
    updated: incoming.length - added - unchanged,
    unchanged,
    deleted: before.filter((e) => deleted.has(e.event.ref)).length,
    booked,
  };
}

const trades = (accountId: number, events: readonly BrokerEvent[]): ClosedTrade[] => roundTrips(accountId, events, marketOf).map((t) => t.trade);

/**
 * The round trips of an account's events, each with the master position it copies (the `copy_of` its
 * position was reported with): the copy report links a copy to its master's trade by them.
 */
async function linkedTrades(tx: Queryable, accountId: number, events: readonly BrokerEvent[]): Promise<ClosedTrade[]> {
  const list = trades(accountId, events);
  const copyOf = await copyOfPositions(tx, accountId, [...new Set(list.flatMap((t) => (t.positionId == null ? [] : [t.positionId])))]);
  return list.map((t) => (t.positionId == null ? t : { ...t, copyOf: copyOf.get(t.positionId) ?? null }));
}

const price = (x: number | null) => (x === null ? null : roundTo(x, 6));
/** What a deal row is judged by, as stored (prices to 6 places, money to the cent): a change in any rebooks it. */
const fingerprint = (d: Deal) =>
  JSON.stringify([
    d.kind, roundTo(d.quantity, 4), cents(d.amount), cents(d.net), d.at, d.openedAt, price(d.openPrice), price(d.closePrice), d.symbol, d.type,
    d.reason ?? null,
  ]);

/**
 * Books what changed between the round trips and balance operations that the events made before and
 * make now: a row that is new is recorded, one that changed is taken back and recorded again, one that
 * is gone is taken back. Returns the rows booked.
 */
async function rebook(tx: Queryable, ledger: Ledger, accountId: number, nowS: number, change: { before: BookEvent[]; after: BookEvent[] }): Promise<number> {
  const after = new Map(change.after.map((e) => [e.ticket!, e]));
  const tickets = [...new Set([...change.before.map((e) => e.ticket!), ...after.keys()])];
  const stored = new Map((await dealsByTickets(tx, accountId, tickets)).map((d) => [d.ticket!, d]));
  const takeBack: number[] = [];
  const record: BookEvent[] = [];
  for (const ticket of tickets) {
    const next = after.get(ticket);
    const row = stored.get(ticket);
    if (next && row && fingerprint(entryOf(next)) === fingerprint(row)) continue;
    if (row) takeBack.push(ticket);
    if (next) record.push(next);
  }
  const ctx = writeContextOf(tx);
  if (takeBack.length) await ledger.unrecord(ctx, accountId, takeBack);
  if (record.length) await ledger.record(ctx, record);
  // The earliest day the change touched: the derived NAV from there is made again.
  const changedFrom = [...takeBack.map((t) => stored.get(t)!.at), ...record.map((e) => entryOf(e).at)].reduce((a, b) => Math.min(a, b), Infinity);
  if (Number.isFinite(changedFrom)) await ledger.deriveNav(ctx, accountId, changedFrom, nowS);
  return record.length;
}
