import type { BrokerDeal } from '#server/ingest/mt5-books.ts';
import { insertMany } from './bulk.ts';
import type { Queryable } from './database.ts';

/** A broker deal as stored: canonical symbol, UTC time, and the broker's own clock reading. */
export interface StoredBrokerDeal extends BrokerDeal {
  broker_time: number;
}

const COLUMNS = 'ticket, position_id, type, entry, symbol, volume, price, commission, fee, swap, profit, time_utc, broker_time';

type Row = Omit<StoredBrokerDeal, 'time'> & { time_utc: Date };
const toDeal = ({ time_utc, ...r }: Row): StoredBrokerDeal => ({ ...r, time: Math.floor(time_utc.getTime() / 1000) });

export async function brokerDealsByTickets(q: Queryable, accountId: number, tickets: readonly number[]): Promise<StoredBrokerDeal[]> {
  if (tickets.length === 0) return [];
  const rows = await q.query<Row>(`SELECT ${COLUMNS} FROM broker_deals WHERE account_id = $1 AND ticket = ANY($2::bigint[])`, [
    accountId,
    [...tickets],
  ]);
  return rows.map(toDeal);
}

export async function brokerDealsOfPositions(q: Queryable, accountId: number, positionIds: readonly number[]): Promise<StoredBrokerDeal[]> {
  if (positionIds.length === 0) return [];
  const rows = await q.query<Row>(
    `SELECT ${COLUMNS} FROM broker_deals WHERE account_id = $1 AND position_id = ANY($2::bigint[]) AND type IN (0, 1)`,
    [accountId, [...positionIds]],
  );
  return rows.map(toDeal);
}

/** Stores deals by (account, ticket): a ticket seen before is replaced by what the broker says now. */
export async function upsertBrokerDeals(q: Queryable, accountId: number, deals: readonly StoredBrokerDeal[]): Promise<void> {
  await insertMany(
    q,
    'broker_deals',
    ['account_id', 'ticket', 'position_id', 'type', 'entry', 'symbol', 'volume', 'price', 'commission', 'fee', 'swap', 'profit', 'time_utc', 'broker_time'],
    deals.map((d) => [
      accountId, d.ticket, d.position_id, d.type, d.entry, d.symbol, d.volume, d.price, d.commission, d.fee, d.swap, d.profit,
      new Date(d.time * 1000), d.broker_time,
    ]),
    `ON CONFLICT (account_id, ticket) DO UPDATE SET position_id = EXCLUDED.position_id, type = EXCLUDED.type, entry = EXCLUDED.entry,
       symbol = EXCLUDED.symbol, volume = EXCLUDED.volume, price = EXCLUDED.price, commission = EXCLUDED.commission, fee = EXCLUDED.fee,
       swap = EXCLUDED.swap, profit = EXCLUDED.profit, time_utc = EXCLUDED.time_utc, broker_time = EXCLUDED.broker_time`,
  );
}

export async function deleteBrokerDeals(q: Queryable, accountId: number, tickets: readonly number[]): Promise<void> {
  if (tickets.length) await q.query('DELETE FROM broker_deals WHERE account_id = $1 AND ticket = ANY($2::bigint[])', [accountId, [...tickets]]);
}

/** Per account, the time of its last stored deal (UTC epoch seconds): where an agent resumes its history. */
export async function lastDealTimes(q: Queryable, accountIds: readonly number[]): Promise<Map<number, number>> {
  if (accountIds.length === 0) return new Map();
  const rows = await q.query<{ account_id: number; last: Date }>(
    'SELECT account_id, max(time_utc) AS last FROM broker_deals WHERE account_id = ANY($1::int[]) GROUP BY account_id',
    [[...accountIds]],
  );
  return new Map(rows.map((r) => [r.account_id, Math.floor(r.last.getTime() / 1000)]));
}
