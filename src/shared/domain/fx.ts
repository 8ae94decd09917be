/**
 * Exchange rates as the broker's snapshot gives them: the value of one unit of each currency in EUR.
 * Every conversion outside the market goes through `convert`.
 */
export type EurRates = ReadonlyMap<string, number>;

/** An amount in `from` expressed in `to`; throws when either rate is unknown. */
export function convert(amount: number, from: string, to: string, rates: EurRates): number {
  if (from === to) return amount;
  const f = rates.get(from);
  const t = rates.get(to);
  if (f === undefined || t === undefined) throw new Error(`no rate from ${from} to ${to}`);
  return (amount * f) / t;
}

/** An amount in EUR, or unchanged when its currency has no rate (no broker connected yet). */
export function toEur(amount: number, currency: string, rates: EurRates): number {
  try {
    return convert(amount, currency, 'EUR', rates);
  } catch {
    return amount;
  }
}
