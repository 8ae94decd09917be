import type { BrokerEvent } from '#shared/domain/broker-events.ts';
import { insertMany } from './bulk.ts';
import type { Queryable } from './database.ts';

/**
 * What brokers reported of real accounts, as neutral events (src/shared/domain/broker-events.ts), one
 * row per (account, ref): the books of those accounts are made from them, whatever the broker.
 */

/** An event as stored, with the broker's own clock reading where a terminal gave one (MetaTrader's server time). */
export interface StoredEvent {
  event: BrokerEvent;
  brokerTime: number | null;
}

type Row = { event: BrokerEvent; broker_time: number | string | null };
const toStored = (r: Row): StoredEvent => ({ event: r.event, brokerTime: r.broker_time === null ? null : Number(r.broker_time) });

const positionOf = (e: BrokerEvent): number | null => (e.kind === 'fill' || e.kind === 'corporate_action' ? e.position : null);
const linkedOf = (e: BrokerEvent): number | null => (e.kind === 'corporate_action' ? (e.into?.position ?? null) : null);

export async function eventsByRefs(q: Queryable, accountId: number, refs: readonly number[]): Promise<StoredEvent[]> {
  if (refs.length === 0) return [];
  const rows = await q.query<Row>('SELECT event, broker_time FROM broker_events WHERE account_id = $1 AND ref = ANY($2::bigint[])', [accountId, [...refs]]);
  return rows.map(toStored);
}

/**
 * The fills and corporate actions of these positions, and of every position a corporate action links
 * to them (a tender or split moves a position's cost into another's): what their round trips are made of.
 */
export async function eventsOfPositions(q: Queryable, accountId: number, positions: readonly number[]): Promise<StoredEvent[]> {
  const wanted = new Set(positions);
  const found = new Map<number, StoredEvent>();
  let next = [...wanted];
  while (next.length > 0) {
    const rows = await q.query<Row>(
      `SELECT event, broker_time FROM broker_events
        WHERE account_id = $1 AND (position = ANY($2::bigint[]) OR linked = ANY($2::bigint[]))`,
      [accountId, next],
    );
    next = [];
    for (const row of rows.map(toStored)) {
      found.set(row.event.ref, row);
      for (const p of [positionOf(row.event), linkedOf(row.event)]) {
        if (p !== null && !wanted.has(p)) {
          wanted.add(p);
          next.push(p);
        }
      }
    }
  }
  return [...found.values()];
}

/** Stores events by (account, ref): a ref seen before is replaced by what the broker says now. */
export async function upsertEvents(q: Queryable, accountId: number, events: readonly StoredEvent[]): Promise<void> {
  await insertMany(
    q,
    'broker_events',
    ['account_id', 'ref', 'kind', 'position', 'linked', 'time_utc', 'broker_time', 'event'],
    events.map(({ event, brokerTime }) => [
      accountId, event.ref, event.kind, positionOf(event), linkedOf(event), new Date(event.at * 1000), brokerTime, JSON.stringify(event),
    ]),
    `ON CONFLICT (account_id, ref) DO UPDATE SET kind = EXCLUDED.kind, position = EXCLUDED.position, linked = EXCLUDED.linked,
       time_utc = EXCLUDED.time_utc, broker_time = EXCLUDED.broker_time, event = EXCLUDED.event`,
  );
}

export async function deleteEvents(q: Queryable, accountId: number, refs: readonly number[]): Promise<void> {
  if (refs.length) await q.query('DELETE FROM broker_events WHERE account_id = $1 AND ref = ANY($2::bigint[])', [accountId, [...refs]]);
}

/** Per account, the time of its last stored event (UTC epoch seconds): where an agent resumes its history. */
export async function lastEventTimes(q: Queryable, accountIds: readonly number[]): Promise<Map<number, number>> {
  if (accountIds.length === 0) return new Map();
  const rows = await q.query<{ account_id: number; last: Date }>(
    'SELECT account_id, max(time_utc) AS last FROM broker_events WHERE account_id = ANY($1::int[]) GROUP BY account_id',
    [[...accountIds]],
  );
  return new Map(rows.map((r) => [r.account_id, Math.floor(r.last.getTime() / 1000)]));
}
