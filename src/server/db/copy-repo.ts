import type { CopyTrade } from '#shared/analytics/copy-quality.ts';
import type { LedgerEntry } from '#shared/analytics/series.ts';
import type { Queryable } from './database.ts';
import type { ScopeFilter } from './scope-filter.ts';
import type { Market } from '#shared/domain/market.ts';
import type { Side } from '#shared/domain/side.ts';

export type MissReason =
  | 'pair_not_allowed' | 'bridge_off' | 'agent_offline' | 'server_down' | 'rejected' | 'expired' | 'unanswered' | 'no_margin' | 'equity_stop' | 'guard_close_only' | 'guard_closed' | 'no_size';

/** Something the copy engine saw go wrong with one master trade on one follower. */
export interface CopyEvent {
  /** epoch seconds */
  at: number;
  kind: 'missed' | 'duplicate';
  reason: MissReason | 'duplicate';
  message: string | null;
  masterAccountId: number;
  followerAccountId: number;
  masterPositionId: number;
  symbol: string;
  type: Side;
}

/**
 * Records events; one per follower, master position and kind (a retried copy does not count twice).
 * Returns, for each event, whether it was new.
 */
export async function insertCopyEvents(q: Queryable, events: readonly CopyEvent[]): Promise<boolean[]> {
  const added: boolean[] = [];
  for (const e of events) {
    const rows = await q.query(
      `INSERT INTO copy_events (at, kind, reason, message, master_account_id, follower_account_id, master_position_id, symbol, type)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)
       ON CONFLICT (follower_account_id, master_position_id, kind) DO NOTHING RETURNING id`,
      [new Date(e.at * 1000), e.kind, e.reason, e.message, e.masterAccountId, e.followerAccountId, e.masterPositionId, e.symbol, e.type],
    );
    added.push(rows.length > 0);
  }
  return added;
}

/** A copy order the copy engine sends to a follower's broker, recorded before it is sent. */
export interface CopyOrder {
  followerAccountId: number;
  masterAccountId: number;
  masterPositionId: number;
  symbol: string;
  type: Side;
  quantity: number;
  /** epoch seconds */
  at: number;
}

/**
 * Records a copy order, once per follower and master position; false when one was recorded already
 * (it is not sent again). What the follower's broker is told the master position is (`master_ref`) is
 * the master's own identifier where its broker gave one, else its row.
 */
export async function recordCopyOrder(q: Queryable, o: CopyOrder): Promise<boolean> {
  const rows = await q.query(
    `INSERT INTO copy_orders (follower_account_id, master_position_id, master_account_id, master_ref, symbol, type, quantity, sent_at)
     VALUES ($1, $2, $3, coalesce((SELECT coalesce(identifier, id) FROM positions WHERE id = $2), $2), $4, $5, $6, $7)
     ON CONFLICT (follower_account_id, master_position_id) DO NOTHING RETURNING master_ref`,
    [o.followerAccountId, o.masterPositionId, o.masterAccountId, o.symbol, o.type, o.quantity, new Date(o.at * 1000)],
  );
  return rows.length > 0;
}

/**
 * Of these master positions, each follower that was dealt with already (`<follower id>|<master
 * position id>`): a copy order sent, or a copy event recorded. What is open now the caller sees in its
 * snapshot.
 */
export async function handledCopies(q: Queryable, masterPositionIds: readonly number[]): Promise<Set<string>> {
  if (masterPositionIds.length === 0) return new Set();
  const rows = await q.query<{ follower: number; master: number }>(
    `SELECT follower_account_id AS follower, master_position_id AS master FROM copy_events WHERE master_position_id = ANY($1::bigint[])
     UNION
     SELECT follower_account_id, master_position_id FROM copy_orders WHERE master_position_id = ANY($1::bigint[])`,
    [[...masterPositionIds]],
  );
  return new Set(rows.map((r) => `${r.follower}|${r.master}`));
}

/**
 * The events of the followers in scope since `fromS`, with the misses terminals reported later: a
 * copy order ('open' command) a terminal rejected, that expired (before any terminal took it:
 * 'agent_offline'; answered 'expired' by the terminal: 'expired'), or that a terminal took and never
 * answered (told as such a minute past its expiry: 'unanswered').
 */
export async function copyEventsSince(q: Queryable, scope: ScopeFilter, fromS: number): Promise<CopyEvent[]> {
  return q.query<CopyEvent>(
    `SELECT extract(epoch FROM e.at)::bigint AS at, e.kind, e.reason, e.message, e.master_account_id AS "masterAccountId",
            e.follower_account_id AS "followerAccountId", e.master_position_id AS "masterPositionId", e.symbol, e.type
       FROM copy_events e JOIN accounts f ON f.id = e.follower_account_id
      WHERE e.at >= $2 AND f.teiko_category = ANY($1::text[])
     UNION ALL
     SELECT extract(epoch FROM c.created_at)::bigint, 'missed',
            CASE WHEN c.state = 'rejected' THEN 'rejected' WHEN c.state = 'sent' THEN 'unanswered'
                 WHEN c.sent_at IS NOT NULL THEN 'expired' ELSE 'agent_offline' END,
            COALESCE(c.message, CASE WHEN c.state = 'expired' AND c.sent_at IS NULL THEN 'No terminal took the copy order in time.'
                                     WHEN c.state = 'sent' THEN 'The terminal took the copy order and has not answered.' END),
            r.master_id, c.account_id, (c.payload->>'master_position_id')::bigint, c.payload->>'symbol',
            CASE WHEN c.payload->>'type' = 'sell' THEN 'Sell' ELSE 'Buy' END
       FROM commands c JOIN accounts f ON f.id = c.account_id
       -- The relation the follower copied by when the order was made.
       JOIN copy_relations r ON r.follower_id = c.account_id AND r.started_at <= c.created_at
        AND (r.ended_at IS NULL OR r.ended_at >= c.created_at)
      WHERE c.kind = 'open' AND (c.state IN ('rejected', 'expired') OR (c.state = 'sent' AND c.told_at IS NOT NULL)) AND c.created_at >= $2
        AND c.payload ? 'master_position_id'
        AND f.teiko_category = ANY($1::text[])
      ORDER BY 1`,
    [scope.categories, new Date(fromS * 1000)],
  );
}

/** The closed trades of these accounts opened since `fromS` (a copy is judged with its master's). */
export async function tradesOpenedSince(q: Queryable, accountIds: readonly number[], fromS: number): Promise<CopyTrade[]> {
  if (accountIds.length === 0) return [];
  // Thousands of rows for a year: one JSON array of arrays crosses from the database far faster than
  // as many rows of fifteen columns (about 4 times with the embedded database).
  const [row] = await q.query<{ rows: unknown }>(
    `SELECT coalesce(json_agg(json_build_array(id, account_id, symbol, type, category, quantity, open_price, close_price,
              extract(epoch FROM opened_at)::bigint, exec_duration_ms, swap, commission, fee, position_id, copy_of)), '[]'::json) AS rows
       FROM deals
      WHERE kind = 'trade' AND account_id = ANY($1::int[]) AND opened_at >= $2`,
    [[...accountIds], new Date(fromS * 1000)],
  );
  const rows = (typeof row?.rows === 'string' ? JSON.parse(row.rows) : (row?.rows ?? [])) as unknown[][];
  return rows.map((r) => ({
    id: Number(r[0]),
    accountId: r[1] as number,
    symbol: r[2] as string,
    type: r[3] as Side,
    category: r[4] as Market,
    quantity: Number(r[5]),
    openPrice: Number(r[6]),
    closePrice: Number(r[7]),
    openedAt: r[8] as number,
    execMs: r[9] as number | null,
    swap: Number(r[10]),
    commission: Number(r[11]),
    fee: Number(r[12]),
    positionId: r[13] === null ? null : Number(r[13]),
    copyOf: r[14] === null ? null : Number(r[14]),
  }));
}

/** Per account: the commands its terminal answered (done / not) since `fromS`. */
export async function commandOutcomes(q: Queryable, accountIds: readonly number[], fromS: number): Promise<Map<number, { done: number; failed: number }>> {
  if (accountIds.length === 0) return new Map();
  const rows = await q.query<{ account_id: number; done: number; failed: number }>(
    `SELECT account_id, count(*) FILTER (WHERE state = 'done')::int AS done,
            count(*) FILTER (WHERE state IN ('rejected', 'expired', 'not_found'))::int AS failed
       FROM commands WHERE account_id = ANY($1::int[]) AND created_at >= $2
      GROUP BY account_id`,
    [[...accountIds], new Date(fromS * 1000)],
  );
  return new Map(rows.map((r) => [r.account_id, { done: r.done, failed: r.failed }]));
}

/**
 * Per account, when an agent of it last reported (epoch seconds), or null when none ever did
 * (registered and never reported, or only imported from a report).
 */
export async function agentLastSeen(q: Queryable, accountIds: readonly number[]): Promise<Map<number, number | null>> {
  if (accountIds.length === 0) return new Map();
  const rows = await q.query<{ account_id: number; seen: number | null }>(
    `SELECT a.id AS account_id, extract(epoch FROM max(s.seen_at))::bigint AS seen
       FROM accounts a
       LEFT JOIN agent_accounts aa ON aa.account_id = a.id
       LEFT JOIN agent_sessions s ON s.agent_id = aa.agent_id
      WHERE a.id = ANY($1::int[])
      GROUP BY a.id`,
    [[...accountIds]],
  );
  return new Map(rows.map((r) => [r.account_id, r.seen === null ? null : Number(r.seen)]));
}

/** A portfolio's risk thresholds (null: not set). */
export interface RiskLimits {
  portfolio: string;
  max_drawdown_pct: number | null;
  min_margin_level_pct: number | null;
}

export async function riskLimits(q: Queryable, portfolios: readonly string[]): Promise<RiskLimits[]> {
  return q.query<RiskLimits>(
    'SELECT portfolio, max_drawdown_pct, min_margin_level_pct FROM risk_limits WHERE portfolio = ANY($1::text[]) ORDER BY portfolio',
    [[...portfolios]],
  );
}

export async function setRiskLimits(q: Queryable, limits: RiskLimits): Promise<void> {
  await q.query(
    `INSERT INTO risk_limits (portfolio, max_drawdown_pct, min_margin_level_pct, updated_at) VALUES ($1, $2, $3, now())
     ON CONFLICT (portfolio) DO UPDATE SET max_drawdown_pct = $2, min_margin_level_pct = $3, updated_at = now()`,
    [limits.portfolio, limits.max_drawdown_pct, limits.min_margin_level_pct],
  );
}

/** The ledger entries of these accounts since `fromS` (every deal row: trades, cash flows, rebates, results), and each account's balance before it. */
export async function ledgerSince(
  q: Queryable,
  accountIds: readonly number[],
  fromS: number,
): Promise<{ entries: Map<number, { time: number; kind: LedgerEntry['kind']; net: number }[]>; opening: Map<number, number> }> {
  const entries = new Map<number, { time: number; kind: LedgerEntry['kind']; net: number }[]>();
  const opening = new Map<number, number>();
  if (accountIds.length === 0) return { entries, opening };
  // One JSON array, as for the trades above.
  const [row] = await q.query<{ rows: unknown }>(
    `SELECT coalesce(json_agg(json_build_array(account_id, extract(epoch FROM datetime)::bigint, kind, money)
              ORDER BY datetime, id), '[]'::json) AS rows
       FROM deals WHERE account_id = ANY($1::int[]) AND datetime >= $2`,
    [[...accountIds], new Date(fromS * 1000)],
  );
  const rows = (typeof row?.rows === 'string' ? JSON.parse(row.rows) : (row?.rows ?? [])) as [number, number, LedgerEntry['kind'], number | string][];
  for (const [accountId, time, kind, net] of rows) {
    const list = entries.get(accountId) ?? [];
    list.push({ time, kind, net: Number(net) });
    entries.set(accountId, list);
  }
  const before = await q.query<{ account_id: number; balance: number }>(
    `SELECT account_id, sum(money) AS balance
       FROM deals WHERE account_id = ANY($1::int[]) AND datetime < $2 GROUP BY account_id`,
    [[...accountIds], new Date(fromS * 1000)],
  );
  for (const r of before) opening.set(r.account_id, r.balance);
  return { entries, opening };
}

/** When each account's books start (its first deal), epoch seconds. */
export async function firstDealAt(q: Queryable, accountIds: readonly number[]): Promise<Map<number, number>> {
  if (accountIds.length === 0) return new Map();
  const rows = await q.query<{ account_id: number; first: number }>(
    'SELECT account_id, extract(epoch FROM min(datetime))::bigint AS first FROM deals WHERE account_id = ANY($1::int[]) GROUP BY account_id',
    [[...accountIds]],
  );
  return new Map(rows.map((r) => [r.account_id, r.first]));
}
