import type { ScopeFilter } from './scope-filter.ts';
import { insertMany } from './bulk.ts';
import type { Queryable } from './database.ts';

const DAY_MS = 86_400_000;

/** An end-of-day NAV row (day: days since 1970-01-01, UTC). */
export interface NavEntry {
  accountId: number;
  day: number;
  balance: number;
  equity: number;
  /** epoch seconds the snapshot was taken */
  takenAt: number;
}

/** Stores end-of-day NAV rows; a day already stored for an account is kept as it was. */
export async function insertNav(q: Queryable, rows: readonly NavEntry[]): Promise<void> {
  await insertMany(
    q,
    'nav_snapshots',
    ['account_id', 'day', 'balance', 'equity', 'taken_at'],
    rows.map((n) => [n.accountId, new Date(n.day * DAY_MS), n.balance, n.equity, new Date(n.takenAt * 1000)]),
    'ON CONFLICT (account_id, day) DO NOTHING',
  );
}

/** The last day with a NAV row (epoch day), or null. */
export async function lastNavDay(q: Queryable): Promise<number | null> {
  const rows = await q.query<{ last: Date | null }>('SELECT max(day) AS last FROM nav_snapshots');
  const last = rows[0]?.last;
  return last ? Math.floor(last.getTime() / DAY_MS) : null;
}

/** Months with NAV rows in a scope, newest first, with their days. */
export async function navMonths(q: Queryable, scope: ScopeFilter): Promise<{ m: number; y: number; days: number[] }[]> {
  return q.query(
    `SELECT extract(month FROM n.day)::int AS m, extract(year FROM n.day)::int AS y,
            array_agg(DISTINCT extract(day FROM n.day)::int ORDER BY extract(day FROM n.day)::int) AS days
     FROM nav_snapshots n JOIN accounts a ON a.id = n.account_id WHERE a.teiko_category = ANY($1)
     GROUP BY 1, 2 ORDER BY 2 DESC, 1 DESC`,
    [scope.categories],
  );
}

export interface NavRow {
  account_id: string;
  day: number;
  account_name: string;
  account: string;
  balance: number;
  equity: number;
  broker_name: string;
  /** epoch seconds */
  taken_at: number;
  teiko_category: string;
  img_path: string;
  currency: string;
}

/** The NAV rows of a month in a scope, by day, broker and account. */
export async function navOfMonth(q: Queryable, scope: ScopeFilter, year: number, month: number): Promise<NavRow[]> {
  const rows = await q.query<Omit<NavRow, 'taken_at'> & { taken_at: Date }>(
    `SELECT a.account_id, extract(day FROM n.day)::int AS day, a.account_name, a.account, n.balance, n.equity,
            b.broker_name, n.taken_at, a.teiko_category, b.img_path, a.currency
     FROM nav_snapshots n JOIN accounts a ON a.id = n.account_id JOIN brokers b ON b.id = a.broker_id
     WHERE a.teiko_category = ANY($1) AND n.day >= make_date($2, $3, 1) AND n.day < make_date($2, $3, 1) + interval '1 month'
     ORDER BY n.day, b.broker_name, a.account_name`,
    [scope.categories, year, month],
  );
  return rows.map((r) => ({ ...r, taken_at: Math.floor(r.taken_at.getTime() / 1000) }));
}

/** An account's end-of-day equity (NAV) by day (days since 1970-01-01, UTC), oldest first. */
export async function navSeriesOf(q: Queryable, accountId: number): Promise<{ day: number; equity: number }[]> {
  return q.query(
    `SELECT (day - DATE '1970-01-01')::int AS day, equity FROM nav_snapshots WHERE account_id = $1 ORDER BY day`,
    [accountId],
  );
}
