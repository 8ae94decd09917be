/**
 * The instrument classifier: any broker's symbol (`audusd`, `EURGBP-2`, `audcad.`, `XAUUSD.m`,
 * `#US30`, `BTCUSD_i`, `AAPL.US`) → its canonical symbol and what the books and the live rows need
 * to know of it: class, the product's category, quote currency, contract size, pip size and digits.
 * The table and the rules are in docs/instruments.md; an operator's explicit symbol map is applied
 * before this (its target is classified like any other name).
 */
import type { Market } from './market.ts';

export type InstrumentClass = 'forex' | 'metal' | 'index' | 'crypto' | 'commodity' | 'share';

export interface InstrumentSpec {
  /** Canonical symbol: upper case, without the broker's prefixes and suffixes. */
  symbol: string;
  class: InstrumentClass;
  /** The product's market: Forex for currency pairs and spot metals, Equities otherwise. */
  category: Market;
  /** What one lot buys (a pair's base currency, a metal, a coin); null for indices, commodities and shares. */
  base: string | null;
  /** Currency the price is quoted in. */
  quote: string;
  /** Units per lot: 100,000 for a currency pair, troy ounces for metals, 1 for indices, coins and shares. */
  contract: number;
  /** One pip in price: MAE/MFE, slippage and spreads are counted in it. */
  pip: number;
  /** Decimals of a quoted price. */
  digits: number;
}

/** ISO 4217 codes of currencies that trade as pairs on retail platforms. */
const CURRENCIES = new Set([
  'USD', 'EUR', 'GBP', 'JPY', 'CHF', 'CAD', 'AUD', 'NZD', 'SEK', 'NOK', 'DKK', 'PLN', 'HUF', 'CZK', 'TRY', 'ZAR',
  'MXN', 'SGD', 'HKD', 'CNH', 'CNY', 'RUB', 'ILS', 'THB', 'INR', 'KRW', 'TWD', 'BRL', 'CLP', 'COP', 'IDR', 'MYR',
  'PHP', 'SAR', 'AED', 'KWD', 'QAR', 'BHD', 'EGP', 'NGN', 'KES', 'RON', 'BGN', 'ISK', 'UAH', 'KZT', 'PEN', 'ARS',
]);

/** A currency pair's pip: 0.0001 of its quote currency … */
export const PIP_SIZE = 0.0001;
/** … or 0.01 where the quote currency is priced in tens or hundreds per unit of base (JPY, HUF). */
export const PIP_SIZE_JPY = 0.01;
/** Quote currencies priced in tens or hundreds per unit of base: a pip is PIP_SIZE_JPY there, PIP_SIZE elsewhere. */
const HUNDREDTH_PIP = new Set(['JPY', 'HUF']);
/** Units per lot of a currency pair (of its base currency). */
export const PAIR_CONTRACT = 100_000;

/** Spot metals by their ISO 4217 code: ounces per lot, pip and digits. */
const METALS: Record<string, { contract: number; pip: number; digits: number }> = {
  XAU: { contract: 100, pip: 0.01, digits: 2 },
  XAG: { contract: 5_000, pip: 0.001, digits: 3 },
  XPT: { contract: 100, pip: 0.01, digits: 2 },
  XPD: { contract: 100, pip: 0.01, digits: 2 },
};
const METAL_NAMES: Record<string, string> = { GOLD: 'XAUUSD', SILVER: 'XAGUSD', PLATINUM: 'XPTUSD', PALLADIUM: 'XPDUSD' };

interface Row {
  quote: string;
  contract: number;
  pip: number;
  digits: number;
  aliases: readonly string[];
}

/** Cash indices: one lot is one contract of one point's value in the quote currency; a pip is one index point. */
const INDICES: Record<string, Row> = {
  US30: { quote: 'USD', contract: 1, pip: 1, digits: 2, aliases: ['DJ30', 'DJI', 'DJI30', 'WS30', 'DOW30', 'USA30', 'DJIA'] },
  NAS100: { quote: 'USD', contract: 1, pip: 1, digits: 2, aliases: ['USTEC', 'US100', 'NDX', 'NDX100', 'USTECH', 'USTECH100', 'NQ100', 'NASDAQ100'] },
  SPX500: { quote: 'USD', contract: 1, pip: 1, digits: 2, aliases: ['US500', 'SP500', 'SPX', 'USA500', 'SNP500'] },
  US2000: { quote: 'USD', contract: 1, pip: 1, digits: 2, aliases: ['RUSSELL2000', 'USSC2000'] },
  GER40: { quote: 'EUR', contract: 1, pip: 1, digits: 2, aliases: ['DE40', 'GER30', 'DE30', 'DAX', 'DAX40', 'DAX30', 'GERMANY40'] },
  UK100: { quote: 'GBP', contract: 1, pip: 1, digits: 2, aliases: ['FTSE', 'FTSE100', 'GB100', 'GBR100'] },
  JP225: { quote: 'JPY', contract: 1, pip: 1, digits: 2, aliases: ['JPN225', 'JAP225', 'NIKKEI', 'NIKKEI225', 'NI225', 'N225'] },
  FRA40: { quote: 'EUR', contract: 1, pip: 1, digits: 2, aliases: ['FR40', 'CAC40', 'FRANCE40'] },
  EU50: { quote: 'EUR', contract: 1, pip: 1, digits: 2, aliases: ['EUSTX50', 'STOXX50', 'STOXX50E', 'EUROSTOXX50', 'EUR50', 'ESTX50'] },
  ESP35: { quote: 'EUR', contract: 1, pip: 1, digits: 2, aliases: ['ES35', 'SPA35', 'IBEX', 'IBEX35'] },
  SWI20: { quote: 'CHF', contract: 1, pip: 1, digits: 2, aliases: ['CH20', 'SMI20', 'SUI20'] },
  AUS200: { quote: 'AUD', contract: 1, pip: 1, digits: 2, aliases: ['AU200', 'ASX200'] },
  HK50: { quote: 'HKD', contract: 1, pip: 1, digits: 2, aliases: ['HSI', 'HK33', 'HKG50', 'HANGSENG'] },
  CHINA50: { quote: 'USD', contract: 1, pip: 1, digits: 2, aliases: ['CN50', 'CHINAA50', 'CHI50'] },
};

/** Energy CFDs: barrels or MMBtu per lot. */
const COMMODITIES: Record<string, Row> = {
  USOIL: { quote: 'USD', contract: 100, pip: 0.01, digits: 2, aliases: ['WTI', 'XTIUSD', 'USOUSD', 'OILUSD', 'CRUDE', 'USCRUDE', 'WTICOUSD', 'SPOTCRUDE'] },
  UKOIL: { quote: 'USD', contract: 100, pip: 0.01, digits: 2, aliases: ['BRENT', 'XBRUSD', 'UKOUSD', 'BCOUSD', 'SPOTBRENT'] },
  NATGAS: { quote: 'USD', contract: 10_000, pip: 0.001, digits: 3, aliases: ['XNGUSD', 'NGAS', 'NATURALGAS', 'NGCUSD'] },
};

/** Coins: one coin per lot; pip and digits by the coin's price level. */
const COINS: Record<string, { pip: number; digits: number }> = {
  BTC: { pip: 1, digits: 2 },
  ETH: { pip: 0.1, digits: 2 },
  BNB: { pip: 0.01, digits: 2 },
  SOL: { pip: 0.01, digits: 2 },
  LTC: { pip: 0.01, digits: 2 },
  BCH: { pip: 0.01, digits: 2 },
  AVAX: { pip: 0.01, digits: 2 },
  LINK: { pip: 0.001, digits: 3 },
  DOT: { pip: 0.001, digits: 3 },
  UNI: { pip: 0.001, digits: 3 },
  XRP: { pip: 0.0001, digits: 5 },
  ADA: { pip: 0.0001, digits: 5 },
  DOGE: { pip: 0.0001, digits: 5 },
  XLM: { pip: 0.0001, digits: 5 },
  TRX: { pip: 0.0001, digits: 5 },
  MATIC: { pip: 0.0001, digits: 5 },
};
const COIN_QUOTES = ['USDT', 'USD', 'EUR', 'GBP', 'JPY', 'BTC'];
const COIN_NAMES: Record<string, string> = { BITCOIN: 'BTCUSD', ETHEREUM: 'ETHUSD', LITECOIN: 'LTCUSD', RIPPLE: 'XRPUSD' };

/** Share exchanges a broker's suffix names, by the currency their shares are quoted in; US shares carry none. */
const EXCHANGES: Record<string, string> = {
  US: 'USD', NAS: 'USD', NASDAQ: 'USD', NYSE: 'USD', OQ: 'USD', N: 'USD',
  DE: 'EUR', XETRA: 'EUR', ETR: 'EUR', F: 'EUR', PA: 'EUR', FR: 'EUR', AS: 'EUR', NL: 'EUR', MC: 'EUR', ES: 'EUR',
  MI: 'EUR', IT: 'EUR', BR: 'EUR', BE: 'EUR', LS: 'EUR', PT: 'EUR', IE: 'EUR', HE: 'EUR', FI: 'EUR', VI: 'EUR', AT: 'EUR',
  L: 'GBP', UK: 'GBP', LSE: 'GBP',
  SW: 'CHF', CH: 'CHF', ST: 'SEK', SE: 'SEK', OL: 'NOK', NO: 'NOK', CO: 'DKK', DK: 'DKK',
  HK: 'HKD', T: 'JPY', JP: 'JPY', TO: 'CAD', CA: 'CAD', AX: 'AUD', AU: 'AUD',
};

/** Tokens brokers glue to a name without a separator (`EURUSDc`, `US30Cash`): tried off the end when the whole name is unknown. */
const GLUED_SUFFIXES = ['CASH', 'SPOT', 'MICRO', 'MINI', 'PRO', 'ECN', 'RAW', 'STD'];
/**
 * One-letter tokens glued the same way (`BTCUSDm`, `US30m`, `USTECm`): after a pair, a metal or a
 * coin, a name ending in a digit or of five letters or more, or written in lower case after upper
 * case (`SPXm`); a ticker may end in one of them (`SPXC` is a share, not `SPX` + C).
 */
const GLUED_LETTERS = ['M', 'C', 'I', 'X'];
/** Share classes a ticker carries after a separator (`BRK.B`, `BF-B`): kept in the name, as each class is its own share. */
const SHARE_CLASSES = new Set(['A', 'B']);

const byAlias = (table: Record<string, Row>): Map<string, [string, Row]> => {
  const map = new Map<string, [string, Row]>();
  for (const [name, row] of Object.entries(table)) for (const alias of [name, ...row.aliases]) map.set(alias, [name, row]);
  return map;
};
const INDEX_NAMES = byAlias(INDICES);
const COMMODITY_NAMES = byAlias(COMMODITIES);

const pairSpec = (base: string, quote: string): InstrumentSpec => {
  const metal = METALS[base];
  if (metal) return { symbol: base + quote, class: 'metal', category: 'Forex', base, quote, ...metal };
  const hundredth = HUNDREDTH_PIP.has(quote);
  return { symbol: base + quote, class: 'forex', category: 'Forex', base, quote, contract: PAIR_CONTRACT, pip: hundredth ? PIP_SIZE_JPY : PIP_SIZE, digits: hundredth ? 3 : 5 };
};

const isCurrency = (code: string) => CURRENCIES.has(code);

/** A name without separators as a known instrument, or null: pairs, metals, indices, commodities, coins. */
function known(name: string): InstrumentSpec | null {
  const metalName = METAL_NAMES[name] ?? COIN_NAMES[name];
  if (metalName) return known(metalName);
  const index = INDEX_NAMES.get(name);
  if (index) return { symbol: index[0], class: 'index', category: 'Equities', base: null, ...spec(index[1]) };
  const commodity = COMMODITY_NAMES.get(name);
  if (commodity) return { symbol: commodity[0], class: 'commodity', category: 'Equities', base: null, ...spec(commodity[1]) };
  if (name.length === 6) {
    const base = name.slice(0, 3);
    const quote = name.slice(3);
    if ((isCurrency(base) || METALS[base]) && isCurrency(quote)) return pairSpec(base, quote);
  }
  for (const quote of COIN_QUOTES) {
    const coin = name.endsWith(quote) ? COINS[name.slice(0, -quote.length)] : undefined;
    // Tether is a dollar for conversions.
    if (coin) return { symbol: name, class: 'crypto', category: 'Equities', base: name.slice(0, -quote.length), quote: quote === 'USDT' ? 'USD' : quote, contract: 1, ...coin };
  }
  return null;
}

const spec = (row: Row) => ({ quote: row.quote, contract: row.contract, pip: row.pip, digits: row.digits });

/** Splits a broker's name into its core and the suffixes after separators (`SAP.DE` → SAP, [DE]). */
function parts(brokerSymbol: string): { core: string; suffixes: string[] } {
  const upper = brokerSymbol.trim().toUpperCase().replace(/[/\s]/g, '');
  const [core = '', ...suffixes] = upper.replace(/^[^A-Z0-9]+/, '').split(/[^A-Z0-9]+/);
  return { core, suffixes: suffixes.filter((s) => s !== '') };
}

/**
 * The instrument behind a broker's symbol (docs/instruments.md): its canonical name and figures.
 * Currency pairs and metals are recognised by their two ISO codes, whatever the broker adds after
 * them; indices, commodities and coins by the table's names and aliases; anything else is a share
 * (quoted in USD unless its exchange suffix names another market).
 */
export function instrumentSpec(brokerSymbol: string): InstrumentSpec {
  const cached = seen.get(brokerSymbol);
  if (cached) return cached;
  const spec = Object.freeze(classify(brokerSymbol));
  // Names come from terminals: the memory is bounded, whatever they send.
  if (seen.size >= SEEN_MAX) seen.clear();
  seen.set(brokerSymbol, spec);
  return spec;
}

/** Names classified before (every tick and batch asks again for the same few). */
const seen = new Map<string, InstrumentSpec>();
const SEEN_MAX = 10_000;

function classify(brokerSymbol: string): InstrumentSpec {
  const { core, suffixes } = parts(brokerSymbol);
  // A lower-case letter after upper-case ones (`SPXm`) is the broker's mark, not part of a ticker.
  const found = knownWithGlue(core, /[A-Z][a-z]$/.test(brokerSymbol.trim().replace(/[^A-Za-z0-9].*$/, '')));
  if (found) return found;
  // A pair or coin written with a separator inside (EUR-USD, ETH-USD, BTC/USDT).
  const [first] = suffixes;
  const joined = first === undefined ? null : knownWithGlue(core + first);
  if (joined && (joined.class === 'forex' || joined.class === 'metal' || joined.class === 'crypto')) return joined;
  const shareClass = first !== undefined && SHARE_CLASSES.has(first) ? first : null;
  const exchange = suffixes.find((s) => EXCHANGES[s] !== undefined);
  const quote = exchange ? EXCHANGES[exchange]! : 'USD';
  // A share keeps its class (BRK.B) and a non-US exchange (SAP.DE) in its name, so the canonical name classifies the same again.
  const symbol = [core, ...(shareClass ? [shareClass] : []), ...(exchange && quote !== 'USD' ? [exchange] : [])].join('.');
  return { symbol: core ? symbol : brokerSymbol, class: 'share', category: 'Equities', base: null, quote, contract: 1, pip: 0.01, digits: 2 };
}

/** A name without separators as a known instrument, the broker's glued letters taken off; null when unknown. */
function knownWithGlue(core: string, lowerTail = false): InstrumentSpec | null {
  const exact = known(core);
  if (exact) return exact;
  // A pair with the broker's letters glued on (EURUSDC, GBPJPYPRO, EURUSD2).
  if (core.length > 6 && core.length <= 11) {
    const pair = known(core.slice(0, 6));
    if (pair && (pair.class === 'forex' || pair.class === 'metal')) return pair;
  }
  for (const glued of GLUED_SUFFIXES) {
    if (core.length > glued.length && core.endsWith(glued)) {
      const found = known(core.slice(0, -glued.length));
      if (found) return found;
    }
  }
  const letter = core.at(-1);
  if (core.length > 1 && letter !== undefined && GLUED_LETTERS.includes(letter)) {
    const rest = core.slice(0, -1);
    const found = known(rest);
    if (found && (found.class === 'forex' || found.class === 'metal' || found.class === 'crypto' || /\d$/.test(rest) || rest.length >= 5 || lowerTail)) return found;
  }
  return null;
}

/** The canonical symbol of a broker's name (see instrumentSpec). */
export const canonicalSymbol = (brokerSymbol: string): string => instrumentSpec(brokerSymbol).symbol;

/** The product's category of a broker's symbol: Forex for currency pairs and spot metals, Equities otherwise. */
export const categoryOfSymbol = (brokerSymbol: string): Market => instrumentSpec(brokerSymbol).category;

/** One pip in price of a broker's symbol: PIP_SIZE_JPY for JPY pairs, PIP_SIZE for other pairs, the table's for the rest. */
export const pipSize = (brokerSymbol: string): number => instrumentSpec(brokerSymbol).pip;

/** Units per lot of a broker's symbol: 100,000 for a currency pair, ounces for a metal, one share, coin or index contract. */
export const contractSize = (brokerSymbol: string): number => instrumentSpec(brokerSymbol).contract;

/** The currency a broker's symbol is quoted in. */
export const quoteCurrency = (brokerSymbol: string): string => instrumentSpec(brokerSymbol).quote;
