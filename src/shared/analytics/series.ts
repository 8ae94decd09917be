import { isCashFlow, type DealKind } from '#shared/domain/deal.ts';
import { finiteOrZero } from './stats.ts';

/**
 * One closed trade, cash flow, rebate credited or result of the account on an account's ledger; `time`
 * is epoch seconds. A rebate (the broker's IB commission paid into the account) is income, and a result
 * of the account (a charge, a commission, interest, a dividend, tax or a correction booked as a deal of
 * its own) is income or a cost: either moves the balance and the growth as a trade's result does, never
 * splits the growth as a deposit would, and is no trading profit.
 */
export interface LedgerEntry {
  time: number;
  kind: DealKind;
  /** Trade: profit + swap + commission + fee. Deposit > 0, withdrawal < 0. Rebate, result: the amount on the balance. */
  net: number;
  /** Lots, trades only. */
  volume?: number;
}

export interface Point {
  timestamp: number;
  value: number;
}

function chronological(entries: readonly LedgerEntry[]): readonly LedgerEntry[] {
  for (let i = 1; i < entries.length; i++) {
    if ((entries[i]?.time ?? 0) < (entries[i - 1]?.time ?? 0)) {
      // toSorted is stable, so same-second entries keep their ledger order.
      return entries.toSorted((a, b) => a.time - b.time);
    }
  }
  return entries;
}

function netOf(entry: LedgerEntry): number {
  return finiteOrZero(entry.net);
}

/** Deposits and withdrawals: the entries that split the growth into sub-periods. */

/** Balance after each entry: deposits − withdrawals + Σ trade net + Σ rebates credited + Σ results of the account (docs/figures.md, "Balance, equity, net asset value"). */
export function balanceSeries(entries: readonly LedgerEntry[], opening = 0): Point[] {
  let balance = finiteOrZero(opening);
  return chronological(entries).map((e) => {
    balance += netOf(e);
    return { timestamp: e.time, value: balance };
  });
}

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

/** Cumulative trading net profit, one point per trade; cash flows are excluded. */
export function profitSeries(entries: readonly LedgerEntry[]): Point[] {
  let profit = 0;
  const points: Point[] = [];
  for (const e of chronological(entries)) {
    if (e.kind !== 'trade') continue;
    profit += netOf(e);
    points.push({ timestamp: e.time, value: profit });
  }
  return points;
}

/** Cumulative traded lots, one point per trade. */
export function volumeSeries(entries: readonly LedgerEntry[]): Point[] {
  let lots = 0;
  const points: Point[] = [];
  for (const e of chronological(entries)) {
    if (e.kind !== 'trade') continue;
    lots += finiteOrZero(e.volume);
    points.push({ timestamp: e.time, value: lots });
  }
  return points;
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
