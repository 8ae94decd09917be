import { maxDrawdownMoney, maxDrawdownPct } from './drawdown.ts';
import { mean, stdev, sum } from './stats.ts';
import { cents, roundTo } from '#shared/domain/money.ts';
import { DAY_S } from '#shared/domain/days.ts';

// Risk statistics of an account (Accounts → Stats, docs/copy-quality.md, "Risk statistics"): Sharpe and Sortino
// on daily returns of the end-of-day NAV, equity drawdown, expectancy and recovery factor.
// Every figure is null, not 0, where it is undefined, so the screen can show '—'.


/** Trading days in a year: the usual annualisation of daily ratios [ours]. */
export const TRADING_DAYS_PER_YEAR = 252;

/** One end-of-day NAV snapshot: `day` in days since 1970-01-01 (UTC), taken at the day's end. */
export interface NavPoint {
  day: number;
  equity: number;
}

/** A cash flow (src/shared/domain/book-events.ts) on the returns' timeline: a deposit (amount > 0) or withdrawal (amount < 0) at `time`, epoch seconds. */
export interface CashFlowPoint {
  time: number;
  amount: number;
}

const isWeekday = (day: number): boolean => {
  const dow = new Date(day * DAY_S * 1000).getUTCDay();
  return dow !== 0 && dow !== 6;
};

/**
 * Daily returns of the end-of-day NAV with cash flows neutralised (time-weighted, docs/figures.md Growth):
 * r = (NAV_d − CF) / NAV_prev − 1, CF the deposits and withdrawals after NAV_prev's day up to day d [ours].
 * Weekend snapshots are skipped (markets are closed; a Monday's return runs from the Friday), so the
 * returns match the 252-day annualisation; a return whose base NAV is not positive is left out.
 * With `from` (epoch seconds) the first base is the last snapshot taken at or before it.
 */
export function dailyReturns(navs: readonly NavPoint[], flows: readonly CashFlowPoint[], from?: number): number[] {
  const days = navs.filter((n) => Number.isFinite(n.equity) && isWeekday(n.day)).toSorted((a, b) => a.day - b.day);
  let start = 0;
  if (from !== undefined) {
    // NAV_d is taken at the end of day d, i.e. at (d + 1) × 86,400.
    const base = days.findLastIndex((n) => (n.day + 1) * DAY_S <= from);
    start = Math.max(base, 0);
  }
  const flowsByDay = new Map<number, number>();
  for (const f of flows) {
    if (!Number.isFinite(f.amount) || !Number.isFinite(f.time)) continue;
    const day = Math.floor(f.time / DAY_S);
    flowsByDay.set(day, (flowsByDay.get(day) ?? 0) + f.amount);
  }
  const returns: number[] = [];
  for (let i = start + 1; i < days.length; i++) {
    const prev = days[i - 1]!;
    const cur = days[i]!;
    let cashFlow = 0;
    for (let d = prev.day + 1; d <= cur.day; d++) cashFlow += flowsByDay.get(d) ?? 0;
    if (prev.equity > 0) returns.push((cur.equity - cashFlow) / prev.equity - 1);
  }
  return returns;
}

/**
 * Mean return over the standard deviation of the returns, risk-free rate 0, per period (not
 * annualised): `sample` (n − 1) for the daily ratio, `population` (n) for the per-trade one
 * (docs/figures.md, "Analysis of an account's trades"); null under two returns or with no variation.
 */
export function periodSharpe(returns: readonly number[], divisor: 'population' | 'sample'): number | null {
  const m = mean(returns);
  const sd = stdev(returns, divisor);
  if (m === null || returns.length < 2 || sd === null || !(sd > 0)) return null;
  return m / sd;
}

/**
 * Mean return over the downside deviation DD = √(Σ min(r, 0)² / n) over all n returns, target 0, per
 * period (not annualised) [ours]; null under two returns or without a losing one.
 */
export function periodSortino(returns: readonly number[]): number | null {
  const m = mean(returns);
  if (m === null || returns.length < 2) return null;
  const downside = Math.sqrt(sum(returns.map((r) => Math.min(r, 0) ** 2)) / returns.length);
  if (!(downside > 0)) return null;
  return m / downside;
}

const annualised = (x: number | null): number | null => (x === null ? null : x * Math.sqrt(TRADING_DAYS_PER_YEAR));

/** Annualised Sharpe ratio, risk-free rate 0: mean(r) / stdev(r) × √252, sample stdev (n − 1) [ours]; null under two returns or with no variation. */
export function sharpeRatio(returns: readonly number[]): number | null {
  return annualised(periodSharpe(returns, 'sample'));
}

/**
 * Annualised Sortino ratio, target 0: mean(r) / DD × √252 with the downside deviation
 * DD = √(Σ min(r, 0)² / n) over all n returns [ours]; null under two returns or without a losing day.
 */
export function sortinoRatio(returns: readonly number[]): number | null {
  return annualised(periodSortino(returns));
}

/** Max drawdown % of the NAV index chained from the daily returns (cash flows neutralised, docs/figures.md Drawdown); null without returns. */
export function equityDrawdown(returns: readonly number[]): number | null {
  if (returns.length === 0) return null;
  let index = 1;
  return maxDrawdownPct(
    returns.map((r) => (index *= 1 + r)),
    1,
  );
}

/** Expectancy: mean net result per closed trade (= win% × average win + loss% × average loss); null without trades. */
export function expectancy(results: readonly number[]): number | null {
  return mean(results);
}

/** Recovery factor: net profit / max balance drawdown in money (MT5 testing report); null without a drawdown. */
export function recoveryFactor(netProfit: number, drawdownMoney: number): number | null {
  if (!(drawdownMoney > 0) || !Number.isFinite(netProfit)) return null;
  return netProfit / drawdownMoney;
}

export interface RiskStatsInput {
  /** The account's end-of-day NAV snapshots. */
  navs: readonly NavPoint[];
  /** Its deposits and withdrawals. */
  flows: readonly CashFlowPoint[];
  /** Period start, epoch seconds; all history when undefined. */
  from?: number | undefined;
  /** Net result of each closed trade of the period. */
  tradeResults: readonly number[];
  /** Cumulative trading result after each trade of the period, in time order. */
  cumulativeProfit: readonly number[];
}

export interface RiskStats {
  sharpe_ratio: number | null;
  sortino_ratio: number | null;
  /** Daily returns the two ratios and the equity drawdown rest on. */
  return_days: number;
  /** Percent. */
  equity_drawdown: number | null;
  expectancy: number | null;
  max_drawdown_money: number;
  recovery_factor: number | null;
}

const ratio = (x: number): number => roundTo(x, 4);
const rounded = (x: number | null, round: (x: number) => number): number | null => (x === null ? null : round(x));

/** The Stats panel's risk figures of one account over a period, rounded for the wire (ratios 4 decimals, money to the cent). */
export function riskStats({ navs, flows, from, tradeResults, cumulativeProfit }: RiskStatsInput): RiskStats {
  const returns = dailyReturns(navs, flows, from);
  const drawdownMoney = maxDrawdownMoney(cumulativeProfit);
  return {
    sharpe_ratio: rounded(sharpeRatio(returns), ratio),
    sortino_ratio: rounded(sortinoRatio(returns), ratio),
    return_days: returns.length,
    equity_drawdown: rounded(equityDrawdown(returns), ratio),
    expectancy: rounded(expectancy(tradeResults), cents),
    max_drawdown_money: cents(drawdownMoney),
    recovery_factor: rounded(recoveryFactor(cumulativeProfit.at(-1) ?? 0, drawdownMoney), ratio),
  };
}
