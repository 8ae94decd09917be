/**
 * Exchange rates as the broker's snapshot gives them: the value of one unit of each currency in EUR.
 * Every conversion outside the market goes through `convert`.
 */
export type EurRates = ReadonlyMap<string, number>;

/**
 * What a conversion gives when a rate is missing (docs/decisions/0013-eur-conversion-missing-rate.md):
 * 'unknown', null (the amount is not known in that currency: shown as unknown, never as 0), or
 * 'unconverted', the amount as it is, only for figures whose wire field cannot be null yet.
 */
export type WhenNoRate = 'unknown' | 'unconverted';

/**
 * An amount in `from` expressed in `to` at these rates. A currency without a rate (a terminal that
 * sent no quotes, no broker connected yet) makes it unknown: null, unless `whenNoRate` says
 * 'unconverted'.
 */
export function convert(amount: number, from: string, to: string, rates: EurRates, whenNoRate?: 'unknown'): number | null;
export function convert(amount: number, from: string, to: string, rates: EurRates, whenNoRate: 'unconverted'): number;
export function convert(amount: number, from: string, to: string, rates: EurRates, whenNoRate: WhenNoRate = 'unknown'): number | null {
  if (from === to) return amount;
  const f = rates.get(from);
  const t = rates.get(to);
  if (f === undefined || t === undefined) return whenNoRate === 'unconverted' ? amount : null;
  return (amount * f) / t;
}


const VIA_USD: Record<string, { symbol: string; usdIsBase: boolean }> = {
  EUR: { symbol: 'EURUSD', usdIsBase: false },
  GBP: { symbol: 'GBPUSD', usdIsBase: false },
  AUD: { symbol: 'AUDUSD', usdIsBase: false },
  CHF: { symbol: 'USDCHF', usdIsBase: true },
  JPY: { symbol: 'USDJPY', usdIsBase: true },
  CAD: { symbol: 'USDCAD', usdIsBase: true },
};

/** Value of one unit of `currency` in USD at these FX mids (EURUSD, USDJPY …). */
export function usdValue(currency: string, mids: ReadonlyMap<string, number>): number {
  if (currency === 'USD') return 1;
  const via = VIA_USD[currency];
  if (!via) throw new Error(`no rate for ${currency}`);
  const mid = mids.get(via.symbol);
  if (!mid) throw new Error(`no price for ${via.symbol}`);
  return via.usdIsBase ? 1 / mid : mid;
}

/** One unit of each currency, in EUR, at these FX mids (a snapshot's rates); currencies without a quote are left out. */
export function eurRates(mids: ReadonlyMap<string, number>): Map<string, number> {
  const value = (currency: string): number | undefined => {
    try {
      return usdValue(currency, mids);
    } catch {
      return undefined;
    }
  };
  const eur = value('EUR');
  if (eur === undefined) return new Map();
  const rates = new Map<string, number>();
  for (const c of ['USD', ...Object.keys(VIA_USD)]) {
    const v = value(c);
    if (v !== undefined) rates.set(c, v / eur);
  }
  return rates;
}

