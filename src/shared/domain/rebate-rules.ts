/**
 * Rebate rules (docs/product.md#validation) and the Rebate aggregate of docs/product.md#fields, for the rebates page and the
 * brokers screen's "Rebates by Account" card.
 *
 * Balance is a stock, not a flow: an aggregate's balance is, for every account (broker name and
 * login) in the group, that account's balance in its latest month, summed over the accounts.
 * Rebates and profit sharing are flows and sum over all months. Groups are keyed by
 * (name, currency), with the broker name added for account grouping so two accounts of the same
 * name at two brokers stay apart.
 */
import { compareMonths } from './nav-rules.ts';
import { compareValues, type SortState } from './sorting.ts';
import { finiteOrZero } from '../analytics/stats.ts';

export type RebateGroupBy = 'account' | 'broker';

/** One account-month as the rebates endpoint reports it (docs/product.md#fields), plus its portfolio category when known. */
export interface RebateRowInput {
  login: string | number;
  account: string;
  broker_name: string;
  currency: string;
  month: string;
  total_rebate: number;
  profit_sharing_amount: number;
  balance: number;
  portfolio_category?: string | null;
}

export interface RebateMonthEntry {
  month: string;
  portfolio_category: string;
  currency: string;
  total_rebate: number;
  balance: number;
  profit_sharing_amount: number;
}

export interface RebateAggregate {
  name: string;
  brokerName: string;
  currency: string;
  balance: number;
  totalRebate: number;
  totalProfitSharing: number;
  rebatePercentage: number;
  monthlyBreakdown: RebateMonthEntry[];
}

export interface RebateCurrencySummary {
  currency: string;
  balance: number;
  totalRebate: number;
  totalProfitSharing: number;
  rebatePercentage: number;
}

/** Default rebates table order (docs/product.md#states): brokerName ascending, restored when the grouping changes. */
export const DEFAULT_REBATE_SORT: SortState<keyof RebateAggregate> = { key: 'brokerName', direction: 'asc' };

/** False for a month whose rebate, balance and profit sharing are all zero: such months are dropped (docs/product.md#validation). */
export function keepRebateMonth(entry: {
  total_rebate: number;
  balance: number;
  profit_sharing_amount: number;
}): boolean {
  return finiteOrZero(entry.total_rebate) !== 0 || finiteOrZero(entry.balance) !== 0 || finiteOrZero(entry.profit_sharing_amount) !== 0;
}

/** % rebate = total rebate / balance × 100, 0 when the balance is not positive (docs/product.md#validation, docs/figures.md R1). */
export function rebatePercentage(total: number, balance: number): number {
  if (!Number.isFinite(total) || !Number.isFinite(balance) || balance <= 0) return 0;
  return (total / balance) * 100;
}

interface Group {
  name: string;
  brokerName: string;
  currency: string;
  totalRebate: number;
  totalProfitSharing: number;
  latestByAccount: Map<string, { month: string; balance: number }>;
  months: Map<string, RebateMonthEntry>;
}

const SEP = '\u0000';

function byMonthThenCategory(a: RebateMonthEntry, b: RebateMonthEntry): number {
  return compareMonths(a.month, b.month) || compareValues(a.portfolio_category, b.portfolio_category);
}

/** Rebate aggregates per account or per broker (docs/product.md#fields), after dropping empty months; breakdown oldest month first. */
export function aggregateRebates(rows: readonly RebateRowInput[], groupBy: RebateGroupBy): RebateAggregate[] {
  const groups = new Map<string, Group>();
  for (const row of rows) {
    if (!keepRebateMonth(row)) continue;
    const name = groupBy === 'account' ? row.account : row.broker_name;
    const key = [row.broker_name, groupBy === 'account' ? row.account : '', row.currency].join(SEP);
    let group = groups.get(key);
    if (group === undefined) {
      group = {
        name,
        brokerName: row.broker_name,
        currency: row.currency,
        totalRebate: 0,
        totalProfitSharing: 0,
        latestByAccount: new Map(),
        months: new Map(),
      };
      groups.set(key, group);
    }
    const rebate = finiteOrZero(row.total_rebate);
    const profitSharing = finiteOrZero(row.profit_sharing_amount);
    const balance = finiteOrZero(row.balance);
    group.totalRebate += rebate;
    group.totalProfitSharing += profitSharing;

    // A later row for the same account and month replaces the earlier one.
    const accountKey = [row.broker_name, String(row.login)].join(SEP);
    const latest = group.latestByAccount.get(accountKey);
    if (latest === undefined || compareMonths(row.month, latest.month) >= 0) {
      group.latestByAccount.set(accountKey, { month: row.month, balance });
    }

    const category = row.portfolio_category ?? '';
    const monthKey = [row.month, category].join(SEP);
    const entry = group.months.get(monthKey);
    if (entry === undefined) {
      group.months.set(monthKey, {
        month: row.month,
        portfolio_category: category,
        currency: row.currency,
        total_rebate: rebate,
        balance,
        profit_sharing_amount: profitSharing,
      });
    } else {
      entry.total_rebate += rebate;
      entry.balance += balance;
      entry.profit_sharing_amount += profitSharing;
    }
  }

  const aggregates: RebateAggregate[] = [];
  for (const group of groups.values()) {
    let balance = 0;
    for (const latest of group.latestByAccount.values()) balance += latest.balance;
    aggregates.push({
      name: group.name,
      brokerName: group.brokerName,
      currency: group.currency,
      balance,
      totalRebate: group.totalRebate,
      totalProfitSharing: group.totalProfitSharing,
      rebatePercentage: rebatePercentage(group.totalRebate, balance),
      monthlyBreakdown: [...group.months.values()].sort(byMonthThenCategory),
    });
  }
  return aggregates.sort(
    (a, b) =>
      compareValues(a.brokerName, b.brokerName) ||
      compareValues(a.name, b.name) ||
      compareValues(a.currency, b.currency),
  );
}

/**
 * Aggregates restricted to one month (the month selectors of docs/product.md#screens); null means All Months and
 * returns them unchanged. Within one month the balance is the sum of that month's entries.
 */
export function aggregatesForMonth(aggregates: readonly RebateAggregate[], month: string | null): RebateAggregate[] {
  if (month === null) return [...aggregates];
  const result: RebateAggregate[] = [];
  for (const aggregate of aggregates) {
    const entries = aggregate.monthlyBreakdown.filter((entry) => entry.month === month);
    if (entries.length === 0) continue;
    let balance = 0;
    let totalRebate = 0;
    let totalProfitSharing = 0;
    for (const entry of entries) {
      balance += entry.balance;
      totalRebate += entry.total_rebate;
      totalProfitSharing += entry.profit_sharing_amount;
    }
    result.push({
      ...aggregate,
      balance,
      totalRebate,
      totalProfitSharing,
      rebatePercentage: rebatePercentage(totalRebate, balance),
      monthlyBreakdown: entries,
    });
  }
  return result;
}

/** Distinct months of the aggregates' breakdowns, newest first (month selector options). */
export function rebateMonths(aggregates: readonly RebateAggregate[]): string[] {
  const months = new Set<string>();
  for (const aggregate of aggregates) for (const entry of aggregate.monthlyBreakdown) months.add(entry.month);
  return [...months].sort((a, b) => compareMonths(b, a));
}

/** Summary cards per currency (docs/product.md#screens): summed balance, rebate, profit sharing, % rebate of the sums; by code. */
export function summariseByCurrency(aggregates: readonly RebateAggregate[]): RebateCurrencySummary[] {
  const byCurrency = new Map<string, RebateCurrencySummary>();
  for (const aggregate of aggregates) {
    const summary = byCurrency.get(aggregate.currency) ?? {
      currency: aggregate.currency,
      balance: 0,
      totalRebate: 0,
      totalProfitSharing: 0,
      rebatePercentage: 0,
    };
    summary.balance += aggregate.balance;
    summary.totalRebate += aggregate.totalRebate;
    summary.totalProfitSharing += aggregate.totalProfitSharing;
    byCurrency.set(aggregate.currency, summary);
  }
  return [...byCurrency.values()]
    .map((summary) => ({ ...summary, rebatePercentage: rebatePercentage(summary.totalRebate, summary.balance) }))
    .sort((a, b) => compareValues(a.currency, b.currency));
}
