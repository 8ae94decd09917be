import type { Point } from './series.ts';

/*
 * Drawdown (docs/figures.md, "Drawdown"), computed here only: how far a value stands under its
 * running peak, in percent of the peak or in money. An account's max drawdown is taken on its
 * time-weighted growth index (so a withdrawal is no loss), its equity drawdown on the NAV index
 * chained from daily returns (risk-stats.ts), its drawdown in money on the cumulative trading result;
 * the ledger's drawdown alert reads the current equity against its stored peak.
 */

/** How far `value` is under `peak`, in % of the peak: (peak − value) / peak × 100; 0 without a positive peak or a finite value. */
export function drawdownPct(peak: number, value: number): number {
  return peak > 0 && Number.isFinite(value) ? ((peak - value) / peak) * 100 : 0;
}

function drawdownFrom(values: readonly Point[], initialPeak: number): Point[] {
  let peak = initialPeak;
  return values.map((p) => {
    if (Number.isFinite(p.value) && p.value > peak) peak = p.value;
    return { timestamp: p.timestamp, value: drawdownPct(peak, p.value) };
  });
}

/** Drawdown % on a series: (peak − x) / peak × 100, peak = running maximum. */
export function drawdownSeries(values: readonly Point[]): Point[] {
  return drawdownFrom(values, -Infinity);
}

/**
 * Maximum drawdown % of a series of values, the peak starting at `initialPeak` (an index starts at 1
 * before its first point, so a fall at the very first point counts); non-finite values are skipped;
 * 0 when empty.
 */
export function maxDrawdownPct(values: readonly number[], initialPeak = -Infinity): number {
  let peak = initialPeak;
  let max = 0;
  for (const x of values) {
    if (!Number.isFinite(x)) continue;
    if (x > peak) peak = x;
    max = Math.max(max, drawdownPct(peak, x));
  }
  return max;
}

/** The growth index 1 + g/100 of a time-weighted growth series (in %). */
const growthIndex = (growth: readonly Point[]): Point[] => growth.map((p) => ({ timestamp: p.timestamp, value: 1 + p.value / 100 }));

/** Drawdown % of the growth index 1 + g/100, so withdrawals are not losses. */
export function drawdownFromGrowth(growth: readonly Point[]): Point[] {
  // The index starts at 1 before the first entry, so a loss on the very first trade counts.
  return drawdownFrom(growthIndex(growth), 1);
}

/** An account's max drawdown %: on its time-weighted growth index (see drawdownFromGrowth); 0 without entries. */
export function maxDrawdownFromGrowth(growth: readonly Point[]): number {
  return maxDrawdownPct(
    growthIndex(growth).map((p) => p.value),
    1,
  );
}

/**
 * Largest fall in money of the cumulative trading result (the balance with cash flows taken out,
 * so a withdrawal is not a loss): max over t of peak(t) − P(t), the peak starting at 0.
 */
export function maxDrawdownMoney(cumulativeProfit: readonly number[]): number {
  let peak = 0;
  let max = 0;
  for (const p of cumulativeProfit) {
    if (!Number.isFinite(p)) continue;
    if (p > peak) peak = p;
    max = Math.max(max, peak - p);
  }
  return max;
}
