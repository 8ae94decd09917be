import type { LivePosition } from '#server/broker/port.ts';
import { insertMany } from './bulk.ts';
import type { Queryable } from './database.ts';
import type { Market } from '#shared/domain/market.ts';
import type { Side } from '#shared/domain/side.ts';

/** A row of the positions table: an open position's stored figures (the port's LivePosition, less what a read adds). */
export type PositionRow = Omit<LivePosition, 'as_of' | 'unconfirmed_since'>;

const COLUMNS = `p.id, p.account_id, p.master_position_id, p.symbol, p.type, p.category, p.quantity, p.price_open, p.price_current,
  p.price_low, p.price_high, p.sl, p.tp, p.profit, p.swap, p.commission, p.fee, p.exec_duration_ms, p.opened_at, p.as_of, p.unconfirmed_since`;

/** The open positions of the accounts of one source (an adapter's: the simulated market's, the agents'), as the broker port sees them. */
export async function listPositions(q: Queryable, source: string): Promise<LivePosition[]> {
  const rows = await q.query<Omit<PositionRow, 'opened_at'> & { opened_at: Date; as_of: Date | null; unconfirmed_since: Date | null }>(
    `SELECT ${COLUMNS} FROM positions p JOIN accounts a ON a.id = p.account_id WHERE a.source = $1 ORDER BY p.id`,
    [source],
  );
  const epoch = (d: Date) => Math.floor(d.getTime() / 1000);
  return rows.map(({ as_of, unconfirmed_since, ...p }) => ({
    ...p,
    opened_at: epoch(p.opened_at),
    ...(as_of ? { as_of: epoch(as_of) } : {}),
    ...(unconfirmed_since ? { unconfirmed_since: epoch(unconfirmed_since) } : {}),
  }));
}

/** An open position a statement lists at its end, marked at the broker's price of that day. */
export interface StatementPosition {
  identifier: number;
  symbol: string;
  type: Side;
  category: Market;
  quantity: number;
  multiplier: number;
  /** The currency its price is quoted in. */
  quote: string;
  priceOpen: number;
  priceCurrent: number;
  /** account currency */
  profit: number;
  /** epoch seconds: the day the statement marks it (its end). */
  asOf: number;
}

/**
 * What an account's latest statement lists as open replaces what it held: a position listed is
 * upserted by its identifier, marked as of the statement's day; one no longer listed is gone (the
 * statement, of a later day, is the broker's own word that it closed).
 */
export async function replaceStatementPositions(q: Queryable, accountId: number, positions: readonly StatementPosition[]): Promise<void> {
  await q.query('DELETE FROM positions WHERE account_id = $1 AND NOT (identifier = ANY($2::bigint[]))', [accountId, positions.map((p) => p.identifier)]);
  await insertMany(
    q,
    'positions',
    ['account_id', 'identifier', 'symbol', 'type', 'category', 'quantity', 'multiplier', 'quote', 'price_open', 'price_current', 'price_low', 'price_high',
      'profit', 'swap', 'commission', 'fee', 'exec_duration_ms', 'opened_at', 'as_of'],
    positions.map((p) => [
      accountId, p.identifier, p.symbol, p.type, p.category, p.quantity, p.multiplier, p.quote, p.priceOpen, p.priceCurrent,
      Math.min(p.priceOpen, p.priceCurrent), Math.max(p.priceOpen, p.priceCurrent), p.profit, 0, 0, 0, 0, new Date(p.asOf * 1000), new Date(p.asOf * 1000),
    ]),
    `ON CONFLICT (account_id, identifier) WHERE identifier IS NOT NULL DO UPDATE SET symbol = EXCLUDED.symbol, type = EXCLUDED.type,
       category = EXCLUDED.category, quantity = EXCLUDED.quantity, multiplier = EXCLUDED.multiplier, quote = EXCLUDED.quote, price_open = EXCLUDED.price_open,
       price_current = EXCLUDED.price_current, price_low = least(positions.price_low, EXCLUDED.price_low),
       price_high = greatest(positions.price_high, EXCLUDED.price_high), profit = EXCLUDED.profit, as_of = EXCLUDED.as_of`,
  );
}

/** What statements say of the instruments they list for accounts of one source: contract multiplier and quote currency, by symbol. */
export async function statementInstruments(q: Queryable, source: string): Promise<Map<string, { multiplier: number; quote: string }>> {
  const rows = await q.query<{ symbol: string; multiplier: number; quote: string }>(
    `SELECT DISTINCT ON (p.symbol) p.symbol, p.multiplier, p.quote FROM positions p JOIN accounts a ON a.id = p.account_id
      WHERE a.source = $1 AND p.multiplier IS NOT NULL AND p.quote IS NOT NULL ORDER BY p.symbol, p.as_of DESC`,
    [source],
  );
  return new Map(rows.map((r) => [r.symbol, { multiplier: Number(r.multiplier), quote: r.quote }]));
}

/** Stores a new position; returns its id. */
export async function insertPosition(q: Queryable, p: Omit<PositionRow, 'id'>): Promise<number> {
  const rows = await q.query<{ id: number }>(
    `INSERT INTO positions (account_id, master_position_id, symbol, type, category, quantity, price_open, price_current,
       price_low, price_high, sl, tp, profit, swap, commission, fee, exec_duration_ms, opened_at)
     VALUES ($1,$2,$3,$4,$5,$6,$7,$8,$9,$10,$11,$12,$13,$14,$15,$16,$17,$18) RETURNING id`,
    [
      p.account_id, p.master_position_id, p.symbol, p.type, p.category, p.quantity, p.price_open, p.price_current,
      p.price_low, p.price_high, p.sl, p.tp, p.profit, p.swap, p.commission, p.fee, p.exec_duration_ms,
      new Date(p.opened_at * 1000),
    ],
  );
  return rows[0]!.id;
}

export async function deletePositions(q: Queryable, ids: readonly number[]): Promise<void> {
  if (ids.length) await q.query('DELETE FROM positions WHERE id = ANY($1::bigint[])', [[...ids]]);
}

export async function setStops(q: Queryable, ids: readonly number[], takeProfit: number | null, stopLoss: number | null): Promise<void> {
  if (ids.length) await q.query('UPDATE positions SET tp = $2, sl = $3 WHERE id = ANY($1::bigint[])', [[...ids], takeProfit, stopLoss]);
}

/** Stores the positions' marks (current price, extremes, floating profit, swap). */
export async function saveMarks(q: Queryable, ps: readonly PositionRow[]): Promise<void> {
  if (ps.length === 0) return;
  await q.query(
    `UPDATE positions p SET price_current = u.cur, price_low = u.low, price_high = u.high, profit = u.profit, swap = u.swap
     FROM unnest($1::bigint[], $2::numeric[], $3::numeric[], $4::numeric[], $5::numeric[], $6::numeric[])
       AS u(id, cur, low, high, profit, swap) WHERE p.id = u.id`,
    [
      ps.map((p) => p.id),
      ps.map((p) => p.price_current),
      ps.map((p) => p.price_low),
      ps.map((p) => p.price_high),
      ps.map((p) => p.profit),
      ps.map((p) => p.swap),
    ],
  );
}

/** A position an agent reports, by its broker identifier. */
export type ReportedPosition = Omit<PositionRow, 'id' | 'exec_duration_ms'> & { identifier: number };

/**
 * Upserts an account's reported positions by (account, identifier); the lowest and highest marks
 * seen are kept across reports (for MAE/MFE).
 */
export async function upsertReportedPositions(q: Queryable, rows: readonly ReportedPosition[], seenAt: Date = new Date()): Promise<void> {
  await insertMany(
    q,
    'positions',
    ['account_id', 'identifier', 'master_position_id', 'symbol', 'type', 'category', 'quantity', 'price_open', 'price_current', 'price_low', 'price_high',
      'sl', 'tp', 'profit', 'swap', 'commission', 'fee', 'exec_duration_ms', 'opened_at', 'seen_at'],
    rows.map((p) => [
      p.account_id, p.identifier, p.master_position_id, p.symbol, p.type, p.category, p.quantity, p.price_open, p.price_current, p.price_low, p.price_high,
      p.sl, p.tp, p.profit, p.swap, p.commission, p.fee, 0, new Date(p.opened_at * 1000), seenAt,
    ]),
    `ON CONFLICT (account_id, identifier) WHERE identifier IS NOT NULL DO UPDATE SET symbol = EXCLUDED.symbol, type = EXCLUDED.type,
       category = EXCLUDED.category, quantity = EXCLUDED.quantity, price_open = EXCLUDED.price_open, price_current = EXCLUDED.price_current,
       price_low = least(positions.price_low, EXCLUDED.price_low), price_high = greatest(positions.price_high, EXCLUDED.price_high),
       sl = EXCLUDED.sl, tp = EXCLUDED.tp, profit = EXCLUDED.profit, swap = EXCLUDED.swap, commission = EXCLUDED.commission,
       opened_at = EXCLUDED.opened_at, master_position_id = coalesce(EXCLUDED.master_position_id, positions.master_position_id),
       seen_at = EXCLUDED.seen_at, unconfirmed_since = NULL`,
  );
}

/**
 * A full snapshot left these of the account's positions out (every one not in `keep`): they are
 * unconfirmed from `at` (kept with their last figures), not closed. Returns how many the account held
 * confirmed before it, and how many it left out for the first time.
 */
export async function markUnconfirmed(q: Queryable, accountId: number, keep: readonly number[], at: Date): Promise<{ held: number; marked: number }> {
  const rows = await q.query<{ held: number; marked: number }>(
    `WITH before AS (SELECT count(*)::int AS held FROM positions WHERE account_id = $1 AND identifier IS NOT NULL AND unconfirmed_since IS NULL
                       AND NOT (identifier = ANY($2::bigint[]))),
          marked AS (UPDATE positions SET unconfirmed_since = $3
                      WHERE account_id = $1 AND identifier IS NOT NULL AND unconfirmed_since IS NULL AND NOT (identifier = ANY($2::bigint[]))
                      RETURNING 1)
     SELECT (SELECT count(*)::int FROM positions WHERE account_id = $1 AND identifier IS NOT NULL AND unconfirmed_since IS NULL
               AND identifier = ANY($2::bigint[])) + (SELECT held FROM before) AS held,
            (SELECT count(*)::int FROM marked) AS marked`,
    [accountId, [...keep], at],
  );
  return rows[0] ?? { held: 0, marked: 0 };
}

/** An account's unconfirmed positions: each with the quantity and time it was last reported open. */
export async function unconfirmedPositions(q: Queryable, accountId: number): Promise<{ identifier: number; quantity: number; seenAt: number | null; since: number }[]> {
  const rows = await q.query<{ identifier: number; quantity: number; seen_at: Date | null; since: Date }>(
    `SELECT identifier, quantity, seen_at, unconfirmed_since AS since FROM positions
      WHERE account_id = $1 AND identifier IS NOT NULL AND unconfirmed_since IS NOT NULL`,
    [accountId],
  );
  return rows.map((r) => ({
    identifier: Number(r.identifier),
    quantity: Number(r.quantity),
    seenAt: r.seen_at ? Math.floor(r.seen_at.getTime() / 1000) : null,
    since: Math.floor(r.since.getTime() / 1000),
  }));
}

/** The broker identifiers of positions (real accounts), by position id. */
export async function identifiersOf(q: Queryable, ids: readonly number[]): Promise<Map<number, number>> {
  if (ids.length === 0) return new Map();
  const rows = await q.query<{ id: number; identifier: number }>(
    'SELECT id, identifier FROM positions WHERE id = ANY($1::bigint[]) AND identifier IS NOT NULL',
    [[...ids]],
  );
  return new Map(rows.map((r) => [r.id, r.identifier]));
}
