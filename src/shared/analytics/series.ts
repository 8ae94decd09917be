import type { DealKind } from '#shared/domain/deal.ts';
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

/** The entries by time; same-second entries keep their ledger order. */
export function chronological(entries: readonly LedgerEntry[]): readonly LedgerEntry[] {
  for (let i = 1; i < entries.length; i++) {
    if ((entries[i]?.time ?? 0) < (entries[i - 1]?.time ?? 0)) {
      // toSorted is stable, so same-second entries keep their ledger order.
      return entries.toSorted((a, b) => a.time - b.time);
    }
  }
  return entries;
}

/** An entry's money, 0 when it is not a finite number. */
export function netOf(entry: LedgerEntry): number {
  return finiteOrZero(entry.net);
}

/** Balance after each entry: deposits − withdrawals + Σ trade net + Σ rebates credited + Σ results of the account (docs/figures.md, "Balance, equity, net asset value"). */
export function balanceSeries(entries: readonly LedgerEntry[], opening = 0): Point[] {
  let balance = finiteOrZero(opening);
  return chronological(entries).map((e) => {
    balance += netOf(e);
    return { timestamp: e.time, value: balance };
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
