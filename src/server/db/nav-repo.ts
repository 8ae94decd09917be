import type { ScopeFilter } from './scope-filter.ts';
import { insertMany } from './bulk.ts';
import type { Queryable } from './database.ts';
import type { NavEntry } from '#server/ledger/port.ts';
import { DAY_MS } from '#shared/domain/days.ts';


const navValues = (rows: readonly NavEntry[]) =>
  rows.map((n) => [n.accountId, new Date(n.day * DAY_MS), n.balance, n.equity, new Date(n.takenAt * 1000)]);

/**
 * Stores end-of-day NAV rows taken live (at a day end): a row derived from the deals for that day is
 * replaced; a live row already stored is kept as it was.
 */
export async function insertNav(q: Queryable, rows: readonly NavEntry[]): Promise<void> {
  await insertMany(
    q,
    'nav_snapshots',
    ['account_id', 'day', 'balance', 'equity', 'taken_at'],
    navValues(rows),
    `ON CONFLICT (account_id, day) DO UPDATE SET balance = EXCLUDED.balance, equity = EXCLUDED.equity,
       taken_at = EXCLUDED.taken_at, derived = false WHERE nav_snapshots.derived`,
  );
}

/**
 * Stores NAV rows derived from an account's deals: they replace derived rows of those days, never a
 * row taken live. Derived rows before `firstDay` (the account's first deal now), or all of them
 * when it has none, are removed.
 */
export async function saveDerivedNav(q: Queryable, accountId: number, rows: readonly NavEntry[], firstDay: number | null): Promise<void> {
  await q.query(
    firstDay === null
      ? 'DELETE FROM nav_snapshots WHERE account_id = $1 AND derived'
      : 'DELETE FROM nav_snapshots WHERE account_id = $1 AND derived AND day < $2',
    firstDay === null ? [accountId] : [accountId, new Date(firstDay * DAY_MS)],
  );
  await insertMany(
    q,
    'nav_snapshots',
    ['account_id', 'day', 'balance', 'equity', 'taken_at', 'derived'],
    navValues(rows).map((values) => [...values, true]),
    `ON CONFLICT (account_id, day) DO UPDATE SET balance = EXCLUDED.balance, equity = EXCLUDED.equity,
       taken_at = EXCLUDED.taken_at WHERE nav_snapshots.derived`,
  );
}

/** The last day with a NAV row taken live (epoch day), or null: the day ends a restart catches up from. */
export async function lastNavDay(q: Queryable): Promise<number | null> {
  const rows = await q.query<{ last: Date | null }>('SELECT max(day) AS last FROM nav_snapshots WHERE NOT derived');
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
  /** Derived from the deals (a past day before the account was watched), not taken live. */
  derived: boolean;
  /** The broker's own net asset value of the day, where a statement states it; null elsewhere. */
  broker_equity: number | null;
}

/** The NAV rows of a month in a scope, by day, broker and account. */
export async function navOfMonth(q: Queryable, scope: ScopeFilter, year: number, month: number): Promise<NavRow[]> {
  const rows = await q.query<Omit<NavRow, 'taken_at'> & { taken_at: Date }>(
    `SELECT a.account_id, extract(day FROM n.day)::int AS day, a.account_name, a.account, n.balance, n.equity,
            b.broker_name, n.taken_at, a.teiko_category, b.img_path, a.currency, n.derived, bn.total AS broker_equity
     FROM nav_snapshots n JOIN accounts a ON a.id = n.account_id JOIN brokers b ON b.id = a.broker_id
     LEFT JOIN broker_nav bn ON bn.account_id = n.account_id AND bn.day = n.day
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

/** An account's end-of-day rows in a range of days (both included), oldest first. */
export async function navRowsOf(q: Queryable, accountId: number, fromDay: number, toDay: number): Promise<{ day: number; balance: number; equity: number }[]> {
  return q.query(
    `SELECT (day - DATE '1970-01-01')::int AS day, balance, equity FROM nav_snapshots
      WHERE account_id = $1 AND day BETWEEN DATE '1970-01-01' + $2::int AND DATE '1970-01-01' + $3::int ORDER BY day`,
    [accountId, fromDay, toDay],
  );
}

/** The accounts whose `day` has ended already (a NAV row taken live for it). */
export async function accountsEnded(q: Queryable, day: number): Promise<Set<number>> {
  const rows = await q.query<{ account_id: number }>(
    `SELECT account_id FROM nav_snapshots WHERE day = DATE '1970-01-01' + $1::int AND NOT derived`,
    [day],
  );
  return new Set(rows.map((r) => r.account_id));
}

