import { instrumentSpec } from '#shared/domain/instruments.ts';
import { FOREX_PAIRS } from '#shared/domain/pairs.ts';
import { eurRates, usdValue } from '#shared/domain/fx.ts';
import type { InstrumentInfo } from '#server/broker/port.ts';

/** An instrument of the simulated market: its figures (the classifier's), its starting price and volatility. */
export interface Instrument extends InstrumentInfo {
  /** Starting mid price, near the real level. */
  price: number;
  /** Annualised volatility of the random walk. */
  vol: number;
  /** The pair's base currency, or the share's own symbol. */
  base: string;
}

const FX_LEVELS: Record<string, number> = {
  AUDCAD: 0.9015,
  AUDJPY: 98.45,
  AUDUSD: 0.6555,
  CADJPY: 109.2,
  EURCAD: 1.4795,
  EURGBP: 0.8545,
  EURJPY: 161.9,
  EURUSD: 1.0825,
  GBPCAD: 1.7315,
  GBPJPY: 189.45,
  GBPUSD: 1.2668,
  USDCAD: 1.3668,
  USDCHF: 0.8845,
  USDJPY: 149.6,
};

const EQUITIES: readonly [string, number, number, string][] = [
  ['AAPL', 189.5, 0.26, 'NASDAQ'],
  ['MSFT', 415.2, 0.24, 'NASDAQ'],
  ['NVDA', 121.4, 0.48, 'NASDAQ'],
  ['AMZN', 184.7, 0.32, 'NASDAQ'],
  ['GOOGL', 171.3, 0.29, 'NASDAQ'],
  ['META', 498.6, 0.36, 'NASDAQ'],
  ['TSLA', 238.9, 0.55, 'NASDAQ'],
  ['JPM', 199.8, 0.22, 'NYSE'],
  ['V', 279.4, 0.2, 'NYSE'],
  ['KO', 62.15, 0.15, 'NYSE'],
  ['XOM', 114.6, 0.24, 'NYSE'],
  ['NFLX', 648.2, 0.38, 'NASDAQ'],
];

export const INSTRUMENTS: readonly Instrument[] = [
  // Quote currency, contract size, pip and digits are the classifier's (docs/instruments.md).
  ...FOREX_PAIRS.map((symbol): Instrument => {
    const { category, quote, contract, pip, digits } = instrumentSpec(symbol);
    return {
      symbol,
      category,
      price: FX_LEVELS[symbol] ?? 1,
      vol: symbol.endsWith('JPY') ? 0.1 : 0.075,
      base: symbol.slice(0, 3),
      quote,
      contract,
      pip,
      digits,
      exchange: null,
    };
  }),
  ...EQUITIES.map(([symbol, price, vol, exchange]): Instrument => {
    const { category, quote, contract, pip, digits } = instrumentSpec(symbol);
    return { symbol, category, price, vol, base: symbol, quote, contract, pip, digits, exchange };
  }),
];

export const INSTRUMENT_BY_SYMBOL = new Map(INSTRUMENTS.map((i) => [i.symbol, i]));
export const EQUITY_SYMBOLS = INSTRUMENTS.filter((i) => i.category === 'Equities').map((i) => i.symbol);

export function instrument(symbol: string): Instrument {
  const found = INSTRUMENT_BY_SYMBOL.get(symbol);
  if (!found) throw new Error(`unknown instrument ${symbol}`);
  return found;
}

/** What the simulated broker tells the rest of the server about its instruments (the snapshot's table). */
export const INSTRUMENT_INFO: ReadonlyMap<string, InstrumentInfo> = new Map(
  INSTRUMENTS.map((i) => [
    i.symbol,
    { symbol: i.symbol, category: i.category, quote: i.quote, contract: i.contract, pip: i.pip, digits: i.digits, exchange: i.exchange },
  ]),
);

/** A price to the instrument's digits, as the broker quotes it. */
export function roundPrice(value: number, digits: number): number {
  return Number(value.toFixed(digits));
}

/** Mid prices by symbol. */
export type Mids = ReadonlyMap<string, number>;

/**
 * Converts an amount between currencies through USD at the simulated market's own mid prices: every
 * currency it trades has one, so a missing price is a bug and throws (docs/decisions/0013-eur-conversion-missing-rate.md).
 */
export function convertAtMids(amount: number, from: string, to: string, mids: Mids): number {
  if (from === to) return amount;
  return (amount * usdValue(from, mids)) / usdValue(to, mids);
}

export { eurRates };
