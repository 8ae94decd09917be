import type { BalanceAnchor } from '#shared/domain/opening-balance.ts';
import { insertMany } from './bulk.ts';
import type { Queryable } from './database.ts';

/**
 * What imported statements leave beside their deals: each report's opening anchor (the balance just
 * before its first deal), and the figures the account is shown with until a terminal reports it.
 */

/** A report's anchor: the balance just before deal `ticket`. Imported again, the latest report's word stands. */
export async function saveBalanceAnchor(q: Queryable, accountId: number, ticket: number, balance: number): Promise<void> {
  await q.query(
    `INSERT INTO balance_anchors (account_id, ticket, balance) VALUES ($1, $2, $3)
     ON CONFLICT (account_id, ticket) DO UPDATE SET balance = EXCLUDED.balance`,
    [accountId, ticket, balance],
  );
}

/** An account's anchors whose deal is stored, with that deal's time (UTC epoch seconds). */
export async function balanceAnchors(q: Queryable, accountId: number): Promise<BalanceAnchor[]> {
  return q.query<BalanceAnchor>(
    `SELECT a.ticket, extract(epoch FROM d.time_utc)::bigint AS time, a.balance
     FROM balance_anchors a JOIN broker_events d ON d.account_id = a.account_id AND d.ref = a.ticket
     WHERE a.account_id = $1`,
    [accountId],
  );
}

/** An account's equity as an imported statement leaves it (its balance and the floating result of the positions it lists). */
export async function saveStatementEquity(q: Queryable, accountId: number, equity: number): Promise<void> {
  await q.query('UPDATE accounts SET equity = $2 WHERE id = $1', [accountId, equity]);
}

/** The broker's own net asset value of an account by day (an Interactive Brokers statement's EquitySummary); a day stated again is replaced. */
export async function saveBrokerNav(q: Queryable, accountId: number, rows: readonly { day: string; total: number }[]): Promise<void> {
  if (rows.length === 0) return;
  await insertMany(q, 'broker_nav', ['account_id', 'day', 'total'], rows.map((r) => [accountId, r.day, r.total]), 'ON CONFLICT (account_id, day) DO UPDATE SET total = EXCLUDED.total');
}

/** An account's broker-stated NAV by day (ISO day → total), oldest first. */
export async function brokerNav(q: Queryable, accountId: number): Promise<{ day: string; total: number }[]> {
  return q.query(`SELECT to_char(day, 'YYYY-MM-DD') AS day, total FROM broker_nav WHERE account_id = $1 ORDER BY day`, [accountId]);
}

/**
 * What a statement states of an account at its end: its cash balance and equity (net asset value) are
 * the account's figures, as a terminal's report would be, and the statement's time its last contact.
 */
export async function saveStatedFigures(q: Queryable, accountId: number, figures: { balance: number; equity: number }, at: Date): Promise<void> {
  await q.query('UPDATE accounts SET balance = $2, equity = $3, margin = 0, last_update = $4, statement_at = $4 WHERE id = $1', [
    accountId, figures.balance, figures.equity, at,
  ]);
}

/** An account's statement was booked (with or without figures stated): when, for bridge health. */
export async function touchStatement(q: Queryable, accountId: number, at: Date): Promise<void> {
  await q.query('UPDATE accounts SET last_update = $2, statement_at = $2 WHERE id = $1', [accountId, at]);
}

/** Per account, when its last statement was booked (epoch seconds), null when none. */
export async function lastStatementAt(q: Queryable, accountIds: readonly number[]): Promise<Map<number, number | null>> {
  if (accountIds.length === 0) return new Map();
  const rows = await q.query<{ id: number; at: number | null }>(
    'SELECT id, extract(epoch FROM statement_at)::bigint AS at FROM accounts WHERE id = ANY($1::int[])',
    [[...accountIds]],
  );
  return new Map(rows.map((r) => [r.id, r.at === null ? null : Number(r.at)]));
}
