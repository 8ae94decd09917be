/**
 * Money's one rounding. Amounts are kept to the cent (balances, deals, NAV, fees, EUR totals); a
 * price or a ratio to the decimals its field names. Half away from zero, as brokers round.
 */

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
