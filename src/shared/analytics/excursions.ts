import { pipSize } from '../domain/instruments.ts';
import type { Side } from '../domain/side.ts';
import { finiteOrZero, mean, median } from './stats.ts';
import { roundTo } from '#shared/domain/money.ts';

/** Price distance expressed in pips of `symbol`. */
export function toPips(priceDistance: number, symbol: string): number {
  return finiteOrZero(priceDistance) / pipSize(symbol);
}

/** Maximum adverse / favourable excursion in price units, both ≥ 0 (Sweeney, Maximum Adverse Excursion, 1997). */
export function excursion(type: Side, entry: number, low: number, high: number): { mae: number; mfe: number } {
  if (![entry, low, high].every((x) => Number.isFinite(x))) return { mae: 0, mfe: 0 };
  const below = Math.max(0, entry - low);
  const above = Math.max(0, high - entry);
  return type === 'Buy' ? { mae: below, mfe: above } : { mae: above, mfe: below };
}

export interface ExcursionStats {
  avg_mae: number | null;
  median_mae: number | null;
  avg_mfe: number | null;
  median_mfe: number | null;
}

/** Average and median MAE / MFE over trades (Sweeney, 1997); nulls when there are none. */
export function excursionStats(items: readonly { mae: number; mfe: number }[]): ExcursionStats {
  const maes = items.map((i) => i.mae);
  const mfes = items.map((i) => i.mfe);
  return { avg_mae: mean(maes), median_mae: median(maes), avg_mfe: mean(mfes), median_mfe: median(mfes) };
}

/** SL / TP at the median MAE / MFE from the open price, 5 decimals (docs/figures.md, ours, standard practice). */
export function suggestSlTp(
  type: Side,
  openPrice: number,
  medianMae: number,
  medianMfe: number,
): { sl: number; tp: number } {
  const side = type === 'Buy' ? 1 : -1;
  return {
    sl: roundTo(openPrice - side * medianMae, 5),
    tp: roundTo(openPrice + side * medianMfe, 5),
  };
}
