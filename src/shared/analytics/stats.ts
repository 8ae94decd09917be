// Small numeric helpers shared by the analytics modules. Non-finite inputs are ignored so
// no figure built on these ever becomes NaN or Infinity.

function finiteValues(values: readonly number[]): number[] {
  return values.filter((v) => Number.isFinite(v));
}

/** The number when it is one (finite), else 0: missing, NaN and infinite inputs count as nothing. */
export function finiteOrZero(value: number | null | undefined): number {
  return value !== null && value !== undefined && Number.isFinite(value) ? value : 0;
}

/** Sum of the finite values (0 when none). */
export function sum(values: readonly number[]): number {
  let total = 0;
  for (const v of values) if (Number.isFinite(v)) total += v;
  return total;
}

/** Arithmetic mean of the finite values; null when there are none. */
export function mean(values: readonly number[]): number | null {
  const xs = finiteValues(values);
  if (xs.length === 0) return null;
  return sum(xs) / xs.length;
}

/** Median of the finite values (even count: mean of the two middle ones, docs/figures.md MAE/MFE); null when none. */
export function median(values: readonly number[]): number | null {
  const xs = finiteValues(values).sort((a, b) => a - b);
  const n = xs.length;
  if (n === 0) return null;
  const mid = Math.floor(n / 2);
  const upper = xs[mid] ?? 0;
  if (n % 2 === 1) return upper;
  const lower = xs[mid - 1] ?? upper;
  return (lower + upper) / 2;
}

/** Rounds half away from zero to `decimals` places; the relative nudge keeps 1.005 → 1.01. */
export function roundTo(value: number, decimals: number): number {
  if (!Number.isFinite(value)) return 0;
  const factor = 10 ** decimals;
  const rounded = (Math.sign(value) * Math.round(Math.abs(value) * factor * (1 + Number.EPSILON))) / factor;
  // Avoid returning -0 for tiny negatives.
  return rounded === 0 ? 0 : rounded;
}

/** Money to the cent: the one rounding of amounts (balances, deals, NAV, EUR totals). */
export function cents(value: number): number {
  return roundTo(value, 2);
}
