/**
 * The rows and per-currency summary of the NAV page (docs/product.md#screens, §5), built from the real-time
 * accounts or the historical end-of-day rows. Real-time rows carry a live P/L (equity − balance)
 * and a last_update for the freshness dot; historical rows carry neither.
 */
import { compareValues } from './sorting.ts';
import {
  defaultNavSort,
  filterHistoricalNav,
  filterRealtimeNav,
  navRowId,
  navRowInPortfolio,
} from './nav-rules.ts';
import type { Portfolio } from './portfolios.ts';
import { finiteOrZero } from '../analytics/stats.ts';

export interface NavViewRow {
  id: string;
  broker_name: string;
  account_name: string;
  account: string;
  currency: string;
  balance: number;
  equity: number;
  /** Live P/L, real-time only. */
  pnl: number | null;
  /** Epoch seconds of the account's last update, real-time only. */
  last_update: number | null;
}

export interface NavCurrencySummary {
  currency: string;
  balance: number;
  equity: number;
  /** Sum of the live P/L, null for historical rows. */
  pnl: number | null;
  accounts: number;
}

interface RealtimeAccount {
  account_id: string;
  account: string;
  account_name: string;
  broker_name: string;
  teiko_category: string;
  balance: number;
  equity: number;
  pnl: number;
  currency: string;
  account_currency: string;
  last_update: number;
}

interface HistoricalRow {
  account_id: string;
  date_id: string;
  date_day: number;
  account: string;
  account_name: string;
  broker_name: string;
  teiko_category: string;
  balance: number;
  equity: number;
  currency: string;
  account_currency: string;
}

const currencyOf = (row: { account_currency: string; currency: string }) => row.account_currency || row.currency;

/** The accounts of a portfolio's real-time NAV: zero balances hidden, NAV membership (the server applies it). */
export function navAccountsOf<T extends { teiko_category: string; balance: number }>(accounts: readonly T[], portfolio: Portfolio): T[] {
  return filterRealtimeNav(accounts).filter((row) => navRowInPortfolio(row, portfolio));
}

/** The end-of-day rows of a portfolio's NAV: NAV membership (the server applies it). */
export function navRowsOf<T extends { teiko_category: string; balance: number }>(rows: readonly T[], portfolio: Portfolio): T[] {
  return rows.filter((row) => navRowInPortfolio(row, portfolio));
}

/** Real-time NAV rows of a portfolio: zero balances hidden, NAV membership, broker then account name. */
export function realtimeNavRows(accounts: readonly RealtimeAccount[], portfolio: Portfolio): NavViewRow[] {
  return realtimeViewRows(navAccountsOf(accounts, portfolio));
}

/** The screen's rows of accounts the server chose for a portfolio's real-time NAV, broker then account name. */
export function realtimeViewRows(accounts: readonly RealtimeAccount[]): NavViewRow[] {
  return accounts
    .map((row) => ({
      id: row.account_id,
      broker_name: row.broker_name,
      account_name: row.account_name,
      account: row.account,
      currency: currencyOf(row),
      balance: row.balance,
      equity: row.equity,
      pnl: row.pnl,
      last_update: row.last_update,
    }))
    .sort(defaultNavSort);
}

/** End-of-day NAV rows of a portfolio for one month key and day, broker then account name. */
export function historicalNavRows(
  rows: readonly HistoricalRow[],
  portfolio: Portfolio,
  monthKey: string,
  day: number,
): NavViewRow[] {
  return historicalViewRows(navRowsOf(rows, portfolio), monthKey, day);
}

/** The screen's rows of one month key and day among the end-of-day rows the server chose for a portfolio. */
export function historicalViewRows(rows: readonly HistoricalRow[], monthKey: string, day: number): NavViewRow[] {
  return filterHistoricalNav(rows, monthKey, day)
    .map((row) => ({
      id: navRowId(row.account_id, row.date_id, row.date_day),
      broker_name: row.broker_name,
      account_name: row.account_name,
      account: row.account,
      currency: currencyOf(row),
      balance: row.balance,
      equity: row.equity,
      pnl: null,
      last_update: null,
    }))
    .sort(defaultNavSort);
}

/** Summary cards per account currency: summed balance, equity and (real-time) live P/L; by currency code. */
export function summariseNavByCurrency(rows: readonly NavViewRow[]): NavCurrencySummary[] {
  const byCurrency = new Map<string, NavCurrencySummary>();
  for (const row of rows) {
    const summary = byCurrency.get(row.currency) ?? {
      currency: row.currency,
      balance: 0,
      equity: 0,
      pnl: null,
      accounts: 0,
    };
    summary.balance += finiteOrZero(row.balance);
    summary.equity += finiteOrZero(row.equity);
    if (row.pnl !== null) summary.pnl = (summary.pnl ?? 0) + finiteOrZero(row.pnl);
    summary.accounts += 1;
    byCurrency.set(row.currency, summary);
  }
  return [...byCurrency.values()].sort((a, b) => compareValues(a.currency, b.currency));
}
