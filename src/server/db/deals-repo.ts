import type { ScopeFilter } from './scope-filter.ts';
import { insertMany } from './bulk.ts';
import type { Queryable } from './database.ts';
import type { Deal } from '#shared/domain/deal.ts';
import type { BalanceMove } from '#server/ledger/port.ts';
import type { Market } from '#shared/domain/market.ts';

/** Stores deal rows (trades, cash flows, rebates credited, results of the account) in the order given. */
export async function insertDeals(q: Queryable, deals: readonly Deal[]): Promise<void> {
  await insertMany(
    q,
    'deals',
    [
      'account_id', 'kind', 'symbol', 'type', 'category', 'quantity', 'open_price', 'close_price', 'opened_at',
      'datetime', 'amount', 'profit', 'swap', 'commission', 'fee', 'rebate', 'net', 'mae', 'mfe', 'exec_duration_ms',
      'is_rebalancing', 'ticket', 'position_id', 'copy_of', 'is_opening', 'reason',
    ],
    deals.map((d) => [
      d.accountId, d.kind, d.symbol, d.type, d.category, d.quantity, d.openPrice, d.closePrice,
      d.openedAt === null ? null : new Date(d.openedAt * 1000), new Date(d.at * 1000), d.amount, d.profit, d.swap,
      d.commission, d.fee, d.rebate, d.net, d.mae, d.mfe, d.execMs, d.rebalancing, d.ticket, d.positionId, d.copyOf,
      d.opening ?? false, d.reason ?? null,
    ]),
  );
}

export interface DealTotals {
  gross_profit: number;
  net_profit: number;
  /** Σ fee (the broker's fees beside its commission). */
  total_fees: number;
  total_commission: number;
  total_swap: number;
  /** Σ rebates: earned by the trades, and credited by the broker as deals of their own. */
  total_rebate: number;
}

/** Per account, the sums over all its closed trades, and its rebates. */
export async function dealTotals(q: Queryable): Promise<Map<number, DealTotals>> {
  const rows = await q.query<DealTotals & { account_id: number }>(
    `SELECT account_id, sum(profit) AS gross_profit, sum(net) AS net_profit, sum(fee) AS total_fees,
            sum(commission) AS total_commission, sum(swap) AS total_swap, sum(rebate) AS total_rebate
     FROM deals WHERE kind IN ('trade', 'rebate') GROUP BY account_id`,
  );
  return new Map(rows.map(({ account_id, ...t }) => [account_id, t]));
}

export interface RecentResults {
  account_id: string;
  account_name: string;
  currency: string;
  pnl_24_hours: number;
  pnl_2_days: number;
  pnl_7_days: number;
}

/** Per account of a scope, the net result of the trades closed in the last 24 hours, 2 and 7 days before `now`. */
export async function recentResults(q: Queryable, scope: ScopeFilter, now: Date): Promise<RecentResults[]> {
  return q.query<RecentResults>(
    `SELECT a.account_id, a.account_name, a.currency,
       coalesce(sum(d.net) FILTER (WHERE d.datetime > $2::timestamptz - interval '24 hours'), 0) AS pnl_24_hours,
       coalesce(sum(d.net) FILTER (WHERE d.datetime > $2::timestamptz - interval '2 days'), 0) AS pnl_2_days,
       coalesce(sum(d.net) FILTER (WHERE d.datetime > $2::timestamptz - interval '7 days'), 0) AS pnl_7_days
     FROM accounts a LEFT JOIN deals d ON d.account_id = a.id AND d.kind = 'trade' AND d.datetime > $2::timestamptz - interval '7 days'
     WHERE a.teiko_category = ANY($1) GROUP BY a.id ORDER BY a.account_name`,
    [scope.categories, now],
  );
}

/** Every closed trade's excursions, with its account's category (for MAE/MFE per scope). */
export async function excursionRows(q: Queryable): Promise<{ symbol: string; teiko_category: string; mae: number; mfe: number }[]> {
  return q.query(
    `SELECT d.symbol, a.teiko_category, d.mae, d.mfe FROM deals d JOIN accounts a ON a.id = d.account_id
     WHERE d.kind = 'trade' AND d.mae IS NOT NULL AND d.mfe IS NOT NULL`,
  );
}

/** Symbols of a category the stored deals traded (the instruments known without a broker connected). */
export async function tradedSymbols(q: Queryable, category: Market): Promise<string[]> {
  const rows = await q.query<{ symbol: string }>(
    "SELECT DISTINCT symbol FROM deals WHERE kind = 'trade' AND category = $1 ORDER BY symbol",
    [category],
  );
  return rows.map((r) => r.symbol);
}

/** An account's money movements, oldest first: each deal's time (epoch seconds), what it did to the balance, its broker ticket, and whether it is a statement's opening balance. */
export async function balanceMoves(q: Queryable, accountId: number): Promise<BalanceMove[]> {
  return q.query(
    `SELECT extract(epoch FROM datetime)::bigint AS at, money, ticket,
       is_opening AS opening
     FROM deals WHERE account_id = $1 ORDER BY datetime, id`,
    [accountId],
  );
}

/** Deal rows as the domain's Deal, times as epoch seconds. */
const ENTRY_COLUMNS = `account_id AS "accountId", kind, symbol, type, category, quantity, open_price AS "openPrice",
  close_price AS "closePrice", extract(epoch FROM opened_at)::bigint AS "openedAt", extract(epoch FROM datetime)::bigint AS at,
  amount, profit, swap, commission, fee, rebate, net, mae, mfe, exec_duration_ms AS "execMs", is_rebalancing AS rebalancing, ticket,
  position_id AS "positionId", copy_of AS "copyOf", is_opening AS opening, reason`;

/** An account's deals as the domain's Deal, in the books' order (by time, then as stored). */
export async function dealEntriesOf(q: Queryable, accountId: number): Promise<Deal[]> {
  return q.query<Deal>(`SELECT ${ENTRY_COLUMNS} FROM deals WHERE account_id = $1 ORDER BY datetime, id`, [accountId]);
}

/** An account's deal rows of these broker tickets, locked until the transaction ends. */
export async function dealsByTickets(q: Queryable, accountId: number, tickets: readonly number[]): Promise<Deal[]> {
  if (tickets.length === 0) return [];
  return q.query<Deal>(
    `SELECT ${ENTRY_COLUMNS} FROM deals WHERE account_id = $1 AND ticket = ANY($2::bigint[]) ORDER BY ticket FOR UPDATE`,
    [accountId, [...tickets]],
  );
}

/** Every deal row after this id, in order, with its id (a feed of what the books recorded). */
export async function dealsAfter(q: Queryable, afterId: number): Promise<(Deal & { id: number })[]> {
  return q.query<Deal & { id: number }>(`SELECT id, ${ENTRY_COLUMNS} FROM deals WHERE id > $1 ORDER BY id`, [afterId]);
}

export async function deleteDealsByTickets(q: Queryable, accountId: number, tickets: readonly number[]): Promise<void> {
  if (tickets.length) await q.query('DELETE FROM deals WHERE account_id = $1 AND ticket = ANY($2::bigint[])', [accountId, [...tickets]]);
}

/*
 * What an investor statement reads (docs/statements.md, "Statements within a budget"): the deals of
 * its range only, a page at a time, and the sums the opening figures need, made by the database.
 */


/** How many deals an account has in [fromS, toS). */
export async function statementDealCount(q: Queryable, accountId: number, fromS: number, toS: number): Promise<number> {
  const [row] = await q.query<{ n: number }>(
    'SELECT count(*)::int AS n FROM deals WHERE account_id = $1 AND datetime >= to_timestamp($2) AND datetime < to_timestamp($3)',
    [accountId, fromS, toS],
  );
  return row?.n ?? 0;
}

/**
 * One page of an account's deals in [fromS, toS) as a statement reads them, oldest first, after the
 * deal `afterId` (null: from the first): its deals as one JSON text, an array of arrays (kind, at, amount,
 * profit, swap, commission, fee, net, symbol, type, quantity, open price, close price, opened at), made by the database, so that the server's thread neither parses nor holds
 * them as objects (the statement's worker does: decodeDealPages). A page is one short query, so that a
 * statement of tens of thousands of deals never holds the database (or, embedded, the event loop) long.
 */
export async function statementDealsPage(
  q: Queryable,
  accountId: number,
  fromS: number,
  toS: number,
  afterId: number | null,
  limit: number,
): Promise<{ json: string; count: number; lastId: number | null }> {
  const [row] = await q.query<{ json: string | null; count: number; last_id: number | null }>(
    `SELECT json_agg(json_build_array(kind, extract(epoch FROM datetime)::bigint, amount, profit, swap, commission, fee, net, symbol, type, quantity,
                                      open_price, close_price, extract(epoch FROM opened_at)::bigint) ORDER BY datetime, id)::text AS json,
            count(*)::int AS count, (array_agg(id ORDER BY datetime DESC, id DESC))[1] AS last_id
       FROM (SELECT * FROM deals
              WHERE account_id = $1 AND datetime >= to_timestamp($2) AND datetime < to_timestamp($3)
                AND ($4::bigint IS NULL OR (datetime, id) > (SELECT datetime, id FROM deals WHERE id = $4::bigint))
              ORDER BY datetime, id LIMIT $5) page`,
    [accountId, fromS, toS, afterId, limit],
  );
  return { json: row?.json ?? '[]', count: row?.count ?? 0, lastId: row?.last_id === null || row?.last_id === undefined ? null : Number(row.last_id) };
}

/**
 * The balance an account's deals add up to before an instant, and in all: sums in the database (one
 * row back, NUMERIC to the cent), not deal by deal in the program.
 */
export async function balanceSums(q: Queryable, accountId: number, beforeS: number): Promise<{ before: number; total: number }> {
  const [row] = await q.query<{ before: number; total: number }>(
    `SELECT coalesce(sum(money) FILTER (WHERE datetime < to_timestamp($2)), 0) AS before, coalesce(sum(money), 0) AS total
       FROM deals WHERE account_id = $1`,
    [accountId, beforeS],
  );
  return row ?? { before: 0, total: 0 };
}

/**
 * An account's deposits and withdrawals in [fromS, toS) (fromS null: since the first), oldest first,
 * each with the balance its deals add up to just before it when `withBalance` (a proportional
 * withdrawal's share is taken of it: summed by the database in one pass), else 0.
 */
export async function cashFlowsOf(
  q: Queryable,
  accountId: number,
  fromS: number | null,
  toS: number,
  withBalance: boolean,
): Promise<{ at: number; money: number; before: number }[]> {
  if (!withBalance) {
    return q.query(
      `SELECT extract(epoch FROM datetime)::bigint AS at, amount AS money, 0 AS before FROM deals
        WHERE account_id = $1 AND kind IN ('deposit', 'withdrawal') AND datetime < to_timestamp($3)
          AND ($2::float8 IS NULL OR datetime >= to_timestamp($2::float8))
        ORDER BY datetime, id`,
      [accountId, fromS, toS],
    );
  }
  return q.query(
    `SELECT at, money, before FROM (
       SELECT datetime, id, kind, extract(epoch FROM datetime)::bigint AS at, money,
              coalesce(sum(money) OVER (ORDER BY datetime, id ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING), 0) AS before
         FROM deals WHERE account_id = $1 AND datetime < to_timestamp($3)) w
      WHERE kind IN ('deposit', 'withdrawal') AND ($2::float8 IS NULL OR at >= $2::float8)
      ORDER BY datetime, id`,
    [accountId, fromS, toS],
  );
}
