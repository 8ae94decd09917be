import type { Category } from '#shared/domain/portfolios.ts';
import type { Market } from '#shared/domain/market.ts';

export interface BrokerSeed {
  broker_name: string;
  slug: string;
  /** Extra spread each side of the mid, in pips (forex) or cents (equities). */
  spread_pips: number;
  latency_ms: number;
  /** USD per round lot (forex) charged by the broker. */
  commission_per_lot: number;
  /** USD per lot paid back to the introducing broker. */
  rebate_per_lot: number;
  equities: boolean;
}

/** The 8 brokers of docs/product.md#fields, each with its own spread, latency and costs. */
export const BROKERS: readonly BrokerSeed[] = [
  { broker_name: 'IBKR', slug: 'ibkr', spread_pips: 0.2, latency_ms: 35, commission_per_lot: 4, rebate_per_lot: 2, equities: true },
  { broker_name: 'Avatrade', slug: 'avatrade', spread_pips: 0.9, latency_ms: 120, commission_per_lot: 0, rebate_per_lot: 6, equities: false },
  { broker_name: 'Exante', slug: 'exante', spread_pips: 0.4, latency_ms: 60, commission_per_lot: 3, rebate_per_lot: 3, equities: true },
  { broker_name: 'Amana Capital', slug: 'amana-capital', spread_pips: 0.7, latency_ms: 90, commission_per_lot: 5, rebate_per_lot: 5.5, equities: true },
  { broker_name: 'Zenfinex-Taurex', slug: 'zenfinex-taurex', spread_pips: 0.6, latency_ms: 80, commission_per_lot: 6, rebate_per_lot: 7, equities: false },
  { broker_name: 'AFTERPRIME', slug: 'afterprime', spread_pips: 0.1, latency_ms: 25, commission_per_lot: 7, rebate_per_lot: 4.5, equities: false },
  { broker_name: '8cap', slug: '8cap', spread_pips: 0.5, latency_ms: 70, commission_per_lot: 6, rebate_per_lot: 5, equities: false },
  { broker_name: 'EquitiBrokerageSC', slug: 'equiti-brokerage-sc', spread_pips: 0.8, latency_ms: 140, commission_per_lot: 4, rebate_per_lot: 6.5, equities: true },
];

export interface AccountSeed {
  account_name: string;
  broker: string;
  currency: 'EUR' | 'USD' | 'GBP' | 'CHF';
  category: Category;
  /** Masters trade one market; followers copy their master. */
  market: Market;
  master?: string;
  /** Starting deposit in the account currency. */
  deposit: number;
}

const master = (
  account_name: string,
  broker: string,
  currency: AccountSeed['currency'],
  category: Category,
  market: Market,
  deposit: number,
): AccountSeed => ({ account_name, broker, currency, category, market, deposit });

export const MASTERS: readonly AccountSeed[] = [
  master('GFX Alpha Master', 'IBKR', 'USD', 'global forex', 'Forex', 250_000),
  master('Consolidated FX Master', 'AFTERPRIME', 'EUR', 'consolidate', 'Forex', 200_000),
  master('Global Equity Master', 'IBKR', 'USD', 'global equity', 'Equities', 300_000),
  master('SMA FX Master', 'Exante', 'EUR', 'SMA', 'Forex', 150_000),
  master('SMA Equity Master', 'Exante', 'EUR', 'SMA', 'Equities', 180_000),
  master('AMC FX Master', 'Avatrade', 'USD', 'AMC', 'Forex', 160_000),
];

const FOLLOWERS: readonly [string, string, [string, AccountSeed['currency'], number][]][] = [
  ['GFX Alpha Master', 'GFX Follower', [
    ['Avatrade', 'EUR', 60_000], ['8cap', 'GBP', 45_000], ['Zenfinex-Taurex', 'USD', 80_000],
    ['Amana Capital', 'USD', 35_000], ['EquitiBrokerageSC', 'CHF', 50_000], ['AFTERPRIME', 'EUR', 120_000],
  ]],
  ['Consolidated FX Master', 'CON Follower', [
    ['IBKR', 'USD', 90_000], ['Exante', 'CHF', 70_000], ['8cap', 'EUR', 40_000],
    ['Zenfinex-Taurex', 'GBP', 55_000], ['Avatrade', 'EUR', 65_000],
  ]],
  ['Global Equity Master', 'GEQ Follower', [
    ['Exante', 'USD', 110_000], ['EquitiBrokerageSC', 'USD', 60_000], ['Amana Capital', 'EUR', 75_000], ['IBKR', 'GBP', 95_000],
  ]],
  ['SMA FX Master', 'SMA FX Follower', [
    ['AFTERPRIME', 'GBP', 50_000], ['8cap', 'USD', 30_000], ['Avatrade', 'CHF', 45_000], ['Zenfinex-Taurex', 'EUR', 38_000],
  ]],
  ['SMA Equity Master', 'SMA EQ Follower', [
    ['IBKR', 'EUR', 85_000], ['EquitiBrokerageSC', 'USD', 52_000], ['Amana Capital', 'CHF', 64_000],
  ]],
  ['AMC FX Master', 'AMC Follower', [
    ['EquitiBrokerageSC', 'EUR', 42_000], ['Amana Capital', 'GBP', 58_000], ['AFTERPRIME', 'USD', 100_000], ['8cap', 'CHF', 36_000],
  ]],
];

export const ACCOUNTS: readonly AccountSeed[] = [
  ...MASTERS,
  ...FOLLOWERS.flatMap(([masterName, prefix, list]) => {
    const m = MASTERS.find((x) => x.account_name === masterName);
    if (!m) throw new Error(masterName);
    return list.map(
      ([broker, currency, deposit], i): AccountSeed => ({
        account_name: `${prefix} ${String(i + 1).padStart(2, '0')}`,
        broker,
        currency,
        category: m.category,
        market: m.market,
        master: masterName,
        deposit,
      }),
    );
  }),
];

/** Copy rules at first start: the pairs each master's followers copy (a master may trade others). */
export const INITIAL_RULES: Record<string, readonly string[]> = {
  'GFX Alpha Master': ['EURUSD', 'GBPUSD', 'USDJPY', 'AUDUSD', 'USDCAD', 'EURJPY', 'GBPJPY', 'EURGBP'],
  'Consolidated FX Master': ['EURUSD', 'GBPUSD', 'USDJPY', 'USDCHF', 'AUDUSD', 'EURGBP', 'EURCAD', 'AUDJPY', 'CADJPY', 'GBPCAD'],
  'SMA FX Master': ['EURUSD', 'GBPUSD', 'USDJPY', 'EURJPY', 'AUDCAD', 'USDCHF'],
  'AMC FX Master': ['EURUSD', 'USDJPY', 'GBPJPY', 'AUDUSD', 'EURGBP', 'USDCAD', 'GBPUSD'],
  'Global Equity Master': ['AAPL', 'MSFT', 'NVDA', 'AMZN', 'GOOGL', 'META', 'TSLA', 'JPM', 'V', 'KO', 'XOM', 'NFLX'],
  'SMA Equity Master': ['AAPL', 'MSFT', 'NVDA', 'AMZN', 'GOOGL', 'JPM', 'V', 'KO', 'XOM', 'NFLX'],
};

