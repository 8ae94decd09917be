/*
 * How an account performed, measured three ways, each for what it answers; every screen, statement and
 * API figure of performance comes from here (docs/figures.md):
 *
 * - growthSeries: the growth of the closed balance, chained between cash flows (GIPS' time-weighted
 *   return on the ledger, Myfxbook's gain): the Accounts screen's Growth chart, its Max Drawdown, the
 *   copy quality's growth of a follower against its master. It needs only the deals.
 * - timeWeightedReturn: the same chaining on the end-of-day equity, open positions valued: a
 *   statement's TWR, where the days' valuations are known.
 * - modifiedDietz: the money-weighted return of a range, each cash flow weighted by the time it was
 *   invested: a statement's MWR, what the investor's own money earned.
 */
import { isCashFlow } from '#shared/domain/deal.ts';
import { roundTo } from '#shared/domain/money.ts';
import { chronological, netOf, type LedgerEntry, type Point } from './series.ts';
import { finiteOrZero } from './stats.ts';

/**
 * Time-weighted return in percent after each entry, sub-periods split at every deposit or withdrawal
 * (GIPS; Myfxbook gain); a trade's result, a rebate credited and a result of the account are the
 * sub-period's return.
 */
export function growthSeries(entries: readonly LedgerEntry[], opening = 0): Point[] {
  let balance = finiteOrZero(opening);
  let chain = 1; // product of the closed sub-periods' V_end / V_start
  let start = balance; // V_start of the open sub-period; ≤ 0 means none has started
  return chronological(entries).map((e) => {
    const before = balance;
    balance += netOf(e);
    if (!isCashFlow(e)) {
      const current = start > 0 ? chain * (balance / start) : chain;
      return { timestamp: e.time, value: (current - 1) * 100 };
    }
    // A cash flow closes the open sub-period just before it and opens the next just after it;
    // with nothing invested yet (first deposit) the chain simply starts here.
    if (start > 0) chain *= before / start;
    start = balance;
    return { timestamp: e.time, value: (chain - 1) * 100 };
  });
}

export interface AccountSummary {
  /** Σ deposits. */
  deposits: number;
  /** Σ withdrawals, as a positive amount. */
  withdrawals: number;
  /** Σ trade net (profit + swap + commission + fee). */
  netProfit: number;
  /** Σ rebates credited to the balance. */
  rebates: number;
  /** netProfit / deposits × 100; 0 without deposits. */
  absoluteGainPct: number;
  /** Time-weighted growth %, see growthSeries. */
  growthPct: number;
  /** Every entry's money: results of the account (charges, interest …) count here, and in no other figure. */
  balance: number;
}

/** Deposits, withdrawals, net profit, absolute gain (profit / deposits) and time-weighted growth (docs/figures.md G1). */
export function accountSummary(entries: readonly LedgerEntry[]): AccountSummary {
  let deposits = 0;
  let withdrawals = 0;
  let netProfit = 0;
  let rebates = 0;
  let results = 0;
  for (const e of entries) {
    const net = netOf(e);
    if (e.kind === 'trade') netProfit += net;
    else if (e.kind === 'rebate') rebates += net;
    else if (e.kind === 'result') results += net;
    else if (e.kind === 'deposit') deposits += Math.abs(net);
    else withdrawals += Math.abs(net);
  }
  const growth = growthSeries(entries);
  return {
    deposits,
    withdrawals,
    netProfit,
    rebates,
    absoluteGainPct: deposits > 0 ? (netProfit / deposits) * 100 : 0,
    growthPct: growth.at(-1)?.value ?? 0,
    balance: deposits - withdrawals + netProfit + rebates + results,
  };
}

/**
 * Time-weighted return (%) over the days, each day's return `(E_d − F_d) / E_{d−1}` chained: E the
 * end-of-day equity, F the day's deposits and withdrawals. A day that starts with nothing invested
 * adds no return. null when no day started with money.
 */
export function timeWeightedReturn(openingEquity: number, days: readonly { equity: number; flows: number }[]): number | null {
  let chain = 1;
  let any = false;
  let prev = openingEquity;
  for (const d of days) {
    if (prev > 0) {
      chain *= (d.equity - d.flows) / prev;
      any = true;
    }
    prev = d.equity;
  }
  return any ? roundTo((chain - 1) * 100, 4) : null;
}

/**
 * Money-weighted return (%) by Modified Dietz: (E1 − E0 − ΣF) / (E0 + Σ w·F), each flow weighted by
 * the share of the range still to run after it. null when nothing was invested (the divisor ≤ 0).
 */
export function modifiedDietz(
  openingEquity: number,
  closingEquity: number,
  flows: readonly { at: number; amount: number }[],
  startS: number,
  endS: number,
): number | null {
  const span = endS - startS;
  if (span <= 0) return null;
  let total = 0;
  let weighted = 0;
  for (const f of flows) {
    total += f.amount;
    weighted += ((endS - f.at) / span) * f.amount;
  }
  const divisor = openingEquity + weighted;
  if (!(divisor > 0)) return null;
  return roundTo(((closingEquity - openingEquity - total) / divisor) * 100, 4);
}
