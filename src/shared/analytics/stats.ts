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

/**
 * Standard deviation of the finite values: `population` divides by n, `sample` by n − 1; null
 * without a value (under two for the sample).
 */
export function stdev(values: readonly number[], divisor: 'population' | 'sample'): number | null {
  const xs = finiteValues(values);
  const m = mean(xs);
  const n = divisor === 'population' ? xs.length : xs.length - 1;
  if (m === null || n < 1) return null;
  return Math.sqrt(sum(xs.map((x) => (x - m) ** 2)) / n);
}

/** Pearson's correlation of the pairs (x, y); null under two pairs, on a non-finite value, or where either side does not vary. */
export function pearson(pairs: readonly (readonly [number, number])[]): number | null {
  if (pairs.length < 2 || !pairs.every(([x, y]) => Number.isFinite(x) && Number.isFinite(y))) return null;
  const mx = sum(pairs.map(([x]) => x)) / pairs.length;
  const my = sum(pairs.map(([, y]) => y)) / pairs.length;
  let sxy = 0;
  let sxx = 0;
  let syy = 0;
  for (const [x, y] of pairs) {
    sxy += (x - mx) * (y - my);
    sxx += (x - mx) ** 2;
    syy += (y - my) ** 2;
  }
  if (!(sxx > 0) || !(syy > 0)) return null;
  return Math.max(-1, Math.min(1, sxy / Math.sqrt(sxx * syy)));
}

/**
 * The standard normal distribution function Φ(x), to about 1e-15 (Hart's double-precision
 * algorithm as given by G. West, "Better approximations to cumulative normal functions", 2005).
 */
export function normalCdf(x: number): number {
  if (Number.isNaN(x)) return Number.NaN;
  const a = Math.abs(x);
  let tail: number;
  if (a > 37) {
    tail = 0;
  } else {
    const e = Math.exp((-a * a) / 2);
    if (a < 7.07106781186547) {
      let n = 3.52624965998911e-2 * a + 0.700383064443688;
      n = n * a + 6.37396220353165;
      n = n * a + 33.912866078383;
      n = n * a + 112.079291497871;
      n = n * a + 221.213596169931;
      n = n * a + 220.206867912376;
      let d = 8.83883476483184e-2 * a + 1.75566716318264;
      d = d * a + 16.064177579207;
      d = d * a + 86.7807322029461;
      d = d * a + 296.564248779674;
      d = d * a + 637.333633378831;
      d = d * a + 793.826512519948;
      d = d * a + 440.413735824752;
      tail = (e * n) / d;
    } else {
      let b = a + 0.65;
      b = a + 4 / b;
      b = a + 3 / b;
      b = a + 2 / b;
      b = a + 1 / b;
      tail = e / b / 2.506628274631;
    }
  }
  return x > 0 ? 1 - tail : tail;
}
