import type { BalanceAnchor } from '#shared/domain/opening-balance.ts';
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
     FROM balance_anchors a JOIN broker_deals d ON d.account_id = a.account_id AND d.ticket = a.ticket
     WHERE a.account_id = $1`,
    [accountId],
  );
}

/** An account's equity as an imported statement leaves it (its balance and the floating result of the positions it lists). */
export async function saveStatementEquity(q: Queryable, accountId: number, equity: number): Promise<void> {
  await q.query('UPDATE accounts SET equity = $2 WHERE id = $1', [accountId, equity]);
}
