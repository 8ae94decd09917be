import { pipSize } from '../domain/instruments.ts';
import type { Side } from '#shared/domain/side.ts';

function validPrices(prices: readonly (number | null)[]): { index: number; price: number }[] {
  const out: { index: number; price: number }[] = [];
  prices.forEach((price, index) => {
    if (price !== null && Number.isFinite(price)) out.push({ index, price });
  });
  return out;
}

/** Indexes of the best and worst fill: Buy best = lowest, Sell best = highest (docs/figures.md Execution quality). */
export function bestWorst(
  type: Side,
  prices: readonly (number | null)[],
): { best: number | null; worst: number | null } {
  const fills = validPrices(prices);
  const first = fills[0];
  if (first === undefined) return { best: null, worst: null };
  let low = first;
  let high = first;
  // Strict comparisons: on ties the earliest fill wins.
  for (const f of fills) {
    if (f.price < low.price) low = f;
    if (f.price > high.price) high = f;
  }
  const [best, worst] = type === 'Buy' ? [low, high] : [high, low];
  // All fills at one price: there is a best but no worse one.
  return { best: best.index, worst: low.price === high.price ? null : worst.index };
}

/** Spread between the highest and lowest fill in pips (docs/figures.md E1); 0 without fills. */
export function spreadPips(prices: readonly (number | null)[], symbol: string): number {
  const values = validPrices(prices).map((f) => f.price);
  if (values.length === 0) return 0;
  return (Math.max(...values) - Math.min(...values)) / pipSize(symbol);
}

/** Fastest execution first (fill time − request time), unknown durations last, stable (docs/figures.md Execution quality). */
export function rankByDuration<T extends { exec_duration_ms: number | null }>(items: readonly T[]): T[] {
  const key = (item: T): number =>
    item.exec_duration_ms !== null && Number.isFinite(item.exec_duration_ms) ? item.exec_duration_ms : Infinity;
  return items.toSorted((a, b) => {
    const ka = key(a);
    const kb = key(b);
    return ka === kb ? 0 : ka < kb ? -1 : 1;
  });
}
