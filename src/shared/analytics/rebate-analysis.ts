/**
 * Series of the 'Monthly Rebates Analysis' chart (docs/product.md#screens): one bar series per portfolio and
 * currency with its rebates per month, and per currency the running total of rebates over the
 * months (the cumulative line on the right-hand axis). Months run oldest first.
 */
import { compareMonths } from '../domain/nav-rules.ts';
import { PORTFOLIOS } from '../domain/portfolios.ts';
import { compareValues } from '../domain/sorting.ts';
import { finiteOrZero } from './stats.ts';

export interface AnalysisEntry {
  month: string;
  portfolio_category: string;
  currency: string;
  total_rebate: number;
}

export interface AnalysisBarSeries {
  key: string;
  portfolio: string;
  currency: string;
  /** Rebates per month, aligned with `months`. */
  values: number[];
}

export interface AnalysisLine {
  currency: string;
  /** Cumulative rebates up to and including each month, aligned with `months`. */
  values: number[];
}

export interface RebateAnalysis {
  months: string[];
  bars: AnalysisBarSeries[];
  lines: AnalysisLine[];
}

function portfolioRank(name: string): number {
  const index = (PORTFOLIOS as readonly string[]).indexOf(name);
  return index < 0 ? PORTFOLIOS.length : index;
}

/** Bars per (portfolio, currency) by month and a cumulative rebate line per currency. */
export function rebateAnalysis(entries: readonly AnalysisEntry[]): RebateAnalysis {
  const months = [...new Set(entries.map((e) => e.month))].sort(compareMonths);
  const monthIndex = new Map(months.map((m, i) => [m, i]));
  const bars = new Map<string, AnalysisBarSeries>();
  const perCurrency = new Map<string, number[]>();
  for (const entry of entries) {
    const i = monthIndex.get(entry.month);
    if (i === undefined) continue;
    const portfolio = entry.portfolio_category || 'Other';
    const key = `${portfolio} · ${entry.currency}`;
    let series = bars.get(key);
    if (series === undefined) {
      series = { key, portfolio, currency: entry.currency, values: months.map(() => 0) };
      bars.set(key, series);
    }
    series.values[i] = (series.values[i] ?? 0) + finiteOrZero(entry.total_rebate);
    let monthly = perCurrency.get(entry.currency);
    if (monthly === undefined) {
      monthly = months.map(() => 0);
      perCurrency.set(entry.currency, monthly);
    }
    monthly[i] = (monthly[i] ?? 0) + finiteOrZero(entry.total_rebate);
  }
  const lines = [...perCurrency.entries()]
    .sort(([a], [b]) => compareValues(a, b))
    .map(([currency, monthly]) => {
      let running = 0;
      return { currency, values: monthly.map((v) => (running += v)) };
    });
  return {
    months,
    bars: [...bars.values()].sort(
      (a, b) => portfolioRank(a.portfolio) - portfolioRank(b.portfolio) || compareValues(a.currency, b.currency),
    ),
    lines,
  };
}
