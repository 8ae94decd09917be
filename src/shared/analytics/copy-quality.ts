import { copySize, lotUnitOf, type CopyTerms } from '#shared/domain/copy-lot.ts';
import { convert, type EurRates } from '#shared/domain/fx.ts';
import { contractSize, instrumentSpec, pipSize, quoteCurrency } from '#shared/domain/instruments.ts';
import type { Deal } from '#shared/domain/deal.ts';
import type { Market } from '#shared/domain/market.ts';
import type { Side } from '#shared/domain/side.ts';
import { growthSeries } from './performance.ts';
import type { LedgerEntry } from './series.ts';
import { mean } from './stats.ts';

/**
 * Copy quality (docs/copy-quality.md): did a follower copy its master, at what cost, and where did it
 * go wrong. Every figure is a pure function of the deals, the copy events and the rates.
 */

/** A forex copy filling more than this many pips worse than its master raises a 'slippage' alert [ours]. */
export const SLIPPAGE_ALERT_PIPS = 2;
/** A share copy filling more than this many basis points of its master's price worse raises one [ours]. */
export const SLIPPAGE_ALERT_BPS = 10;
/** A follower trade opened this close in time to a master trade of the same symbol and side is taken for its copy [ours]. */
export const INFER_WINDOW_S = 60;

/** What a trade deal always has filled in: its instrument, direction, market, prices and opening time. */
type TradeFields = { [K in 'symbol' | 'type' | 'category' | 'openPrice' | 'closePrice' | 'openedAt']-?: NonNullable<Deal[K]> };

/** A closed trade as the copy report reads it: a trade deal on the books (src/shared/domain/deal.ts), with its id. */
export interface CopyTrade extends Pick<Deal, 'accountId' | 'quantity' | 'execMs' | 'swap' | 'commission' | 'fee' | 'positionId' | 'copyOf'>, TradeFields {
  id: number;
}

/** How much worse (positive) or better (negative) the follower's price was than its master's. */
export interface Slippage {
  /** Signed price distance, positive = worse for the follower. */
  price: number;
  /** Pips for forex, the price distance for shares. */
  distance: number;
}

const signed = (worseWhenHigher: boolean, master: number, follower: number) => (worseWhenHigher ? follower - master : master - follower);

function slippage(price: number, symbol: string, category: Market): Slippage {
  return { price, distance: category === 'Forex' ? price / pipSize(symbol) : price };
}

/** Entry: a buy filled higher, or a sell filled lower, than the master's is worse. */
export function entrySlippage(type: Side, masterPrice: number, followerPrice: number, symbol: string, category: Market): Slippage {
  return slippage(signed(type === 'Buy', masterPrice, followerPrice), symbol, category);
}

/** A copy's entry past the alert threshold: how much worse, in pips (forex) or basis points of the master's price (shares). */
export interface SlippageBreach {
  worse: number;
  unit: 'pips' | 'bps';
  threshold: number;
}

/**
 * Whether a copy's fill is past the slippage alert threshold: forex more than SLIPPAGE_ALERT_PIPS
 * pips worse than its master's fill, shares more than SLIPPAGE_ALERT_BPS basis points of the
 * master's price worse. null when within it (or better).
 */
export function slippageBreach(type: Side, masterPrice: number, followerPrice: number, symbol: string, category: Market): SlippageBreach | null {
  const entry = entrySlippage(type, masterPrice, followerPrice, symbol, category);
  if (category === 'Forex') {
    // To a tenth of a hundredth of a pip: 2.0000000001 pips of float noise is not past 2.
    const pips = Math.round(entry.distance * 1e4) / 1e4;
    return pips > SLIPPAGE_ALERT_PIPS ? { worse: pips, unit: 'pips', threshold: SLIPPAGE_ALERT_PIPS } : null;
  }
  if (masterPrice <= 0) return null;
  const bps = Math.round((entry.price / masterPrice) * 1e4 * 1e4) / 1e4;
  return bps > SLIPPAGE_ALERT_BPS ? { worse: bps, unit: 'bps', threshold: SLIPPAGE_ALERT_BPS } : null;
}

/** Exit: a buy closed lower, or a sell closed higher, than the master's is worse. */
export function exitSlippage(type: Side, masterPrice: number, followerPrice: number, symbol: string, category: Market): Slippage {
  return slippage(signed(type === 'Sell', masterPrice, followerPrice), symbol, category);
}

/** What a price distance costs on a quantity, in `currency` (positive = a cost); null without the rate. */
export function slippageMoney(price: number, quantity: number, symbol: string, currency: string, rates: EurRates): number | null {
  return convert(price * contractSize(symbol) * quantity, quoteCurrency(symbol), currency, rates);
}

/** Master fill → follower fill in ms: the opening seconds apart, plus the difference of their execution times [ours]. */
export function copyDelayMs(master: Pick<CopyTrade, 'openedAt' | 'execMs'>, follower: Pick<CopyTrade, 'openedAt' | 'execMs'>): number {
  return (follower.openedAt - master.openedAt) * 1000 + ((follower.execMs ?? 0) - (master.execMs ?? 0));
}

export interface CopyLink {
  master: CopyTrade;
  follower: CopyTrade;
  /** true: matched by master, symbol, side and time; false: recorded by the copy engine. */
  inferred: boolean;
}

export interface Linked {
  links: CopyLink[];
  /** A second (or later) copy of one master trade on this follower. */
  duplicates: CopyLink[];
  /** Follower trades with no master trade: manual interventions. */
  manual: CopyTrade[];
  /** Master trades opened while the follower followed, with no copy on it. */
  uncopied: CopyTrade[];
}

/**
 * Links one follower's trades to its master's: by the copy engine's record (the master position a
 * copy was opened for) where there is one, else by symbol, side and opening time within
 * INFER_WINDOW_S (the nearest master trade not yet linked). Master trades opened before `since` (the
 * follower's start) are not counted as uncopied.
 */
export function linkCopies(masterTrades: readonly CopyTrade[], followerTrades: readonly CopyTrade[], since: number, windowS = INFER_WINDOW_S): Linked {
  const byPosition = new Map<number, CopyTrade>();
  for (const m of masterTrades) if (m.positionId !== null) byPosition.set(m.positionId, m);
  const copiesOf = new Map<number, CopyLink[]>();
  const manual: CopyTrade[] = [];
  const push = <K, V>(map: Map<K, V[]>, key: K, value: V) => {
    const list = map.get(key);
    if (list) list.push(value);
    else map.set(key, [value]);
  };
  const add = (link: CopyLink) => push(copiesOf, link.master.id, link);
  const bySymbol = new Map<string, CopyTrade[]>();
  for (const m of masterTrades) push(bySymbol, `${m.symbol}|${m.type}`, m);
  const ordered = [...followerTrades].sort((a, b) => a.openedAt - b.openedAt || a.id - b.id);
  for (const f of ordered) {
    const recorded = f.copyOf !== null ? byPosition.get(f.copyOf) : undefined;
    if (recorded) {
      add({ master: recorded, follower: f, inferred: false });
      continue;
    }
    const candidates = (bySymbol.get(`${f.symbol}|${f.type}`) ?? []).filter((m) => Math.abs(m.openedAt - f.openedAt) <= windowS);
    if (candidates.length === 0) {
      manual.push(f);
      continue;
    }
    const nearest = (xs: CopyTrade[]) => xs.reduce((best, m) => (Math.abs(m.openedAt - f.openedAt) < Math.abs(best.openedAt - f.openedAt) ? m : best));
    const free = candidates.filter((m) => !copiesOf.has(m.id));
    add({ master: nearest(free.length ? free : candidates), follower: f, inferred: true });
  }
  const links: CopyLink[] = [];
  const duplicates: CopyLink[] = [];
  for (const group of copiesOf.values()) {
    links.push(group[0]!);
    duplicates.push(...group.slice(1));
  }
  // A master position closed in parts is several round trips and one trade to copy: copied when any
  // part is, else missed once.
  const byId = new Map(masterTrades.map((m) => [m.id, m]));
  const copiedPositions = new Set([...copiesOf.keys()].flatMap((id) => (byId.get(id)?.positionId ?? null) ?? []));
  const missedPositions = new Set<number>();
  const uncopied = masterTrades.filter((m) => {
    if (m.openedAt < since || copiesOf.has(m.id)) return false;
    if (m.positionId === null) return true;
    if (copiedPositions.has(m.positionId) || missedPositions.has(m.positionId)) return false;
    missedPositions.add(m.positionId);
    return true;
  });
  links.sort((a, b) => a.follower.openedAt - b.follower.openedAt);
  return { links, duplicates, manual, uncopied };
}

/** One copied trade, as the Copy screen lists it. */
export interface CopiedTrade {
  symbol: string;
  type: Side;
  category: Market;
  opened_at: number;
  master_quantity: number;
  quantity: number;
  /** The relation's size for the master's (copySize); null when sized by equity (both equities at the copy are not kept). */
  expected_quantity: number | null;
  size_ratio: number;
  entry_slippage: number;
  exit_slippage: number;
  /** 'pips' for forex, 'price' for shares. */
  slippage_unit: 'pips' | 'price';
  /** In the follower's currency and in EUR; null where a rate is unknown. */
  slippage_cost: number | null;
  slippage_cost_eur: number | null;
  delay_ms: number;
  inferred: boolean;
}

export interface FollowerContext {
  currency: string;
  masterCurrency: string;
  /** The relation's sizing and cap. */
  terms: CopyTerms;
  rates: EurRates;
}

const eur = (amount: number, currency: string, rates: EurRates) => convert(amount, currency, 'EUR', rates);

export function copiedTrade(link: CopyLink, ctx: FollowerContext): CopiedTrade {
  const { master: m, follower: f } = link;
  const entry = entrySlippage(f.type, m.openPrice, f.openPrice, f.symbol, f.category);
  const exit = exitSlippage(f.type, m.closePrice, f.closePrice, f.symbol, f.category);
  const cost = slippageMoney(entry.price + exit.price, f.quantity, f.symbol, ctx.currency, ctx.rates);
  return {
    symbol: f.symbol,
    type: f.type,
    category: f.category,
    opened_at: f.openedAt,
    master_quantity: m.quantity,
    quantity: f.quantity,
    expected_quantity: copySize(m.quantity, ctx.terms, lotUnitOf(f.symbol)),
    size_ratio: m.quantity > 0 ? f.quantity / m.quantity : 0,
    entry_slippage: entry.distance,
    exit_slippage: exit.distance,
    slippage_unit: f.category === 'Forex' ? 'pips' : 'price',
    slippage_cost: cost,
    slippage_cost_eur: cost === null ? null : eur(cost, ctx.currency, ctx.rates),
    delay_ms: copyDelayMs(m, f),
    inferred: link.inferred,
  };
}

/**
 * The cost of copying one trade in EUR (positive = a cost): the slippage at entry and exit, the
 * follower's commission and fee, and the swap it paid beyond its master's swap scaled to its size.
 */
export function copyCostEur(link: CopyLink, ctx: FollowerContext, trade: CopiedTrade = copiedTrade(link, ctx)): number | null {
  const { master: m, follower: f } = link;
  const slipped = trade.slippage_cost_eur;
  const costs = eur(f.commission + f.fee, ctx.currency, ctx.rates);
  const masterSwap = eur(m.swap, ctx.masterCurrency, ctx.rates);
  const followerSwap = eur(f.swap, ctx.currency, ctx.rates);
  if (slipped === null || costs === null || masterSwap === null || followerSwap === null) return null;
  const scale = m.quantity > 0 ? f.quantity / m.quantity : 0;
  return slipped - costs + (masterSwap * scale - followerSwap);
}

/**
 * Time-weighted return over a period (docs/figures.md 'Growth'): the entries in the period, starting from
 * the balance before it. Percent.
 */
export function periodGrowth(entries: readonly LedgerEntry[], opening: number): number {
  const series = growthSeries(entries, opening);
  return series.at(-1)?.value ?? 0;
}

/** Follower's time-weighted return minus its master's over the same period, in percentage points. */
export function trackingDifference(follower: { entries: readonly LedgerEntry[]; opening: number }, master: { entries: readonly LedgerEntry[]; opening: number }): number {
  return periodGrowth(follower.entries, follower.opening) - periodGrowth(master.entries, master.opening);
}

/** Per broker, over its followers' copied trades: the ranking beside the execution grid. */
export interface BrokerCopyQuality {
  broker_name: string;
  trades: number;
  /** Forex copies only (pips); null without any. */
  avg_entry_slippage_pips: number | null;
  worst_entry_slippage_pips: number | null;
  avg_slippage_cost_eur: number | null;
  avg_delay_ms: number | null;
  worst_delay_ms: number | null;
}

/** Ranked best first: the lowest average forex slippage, then the shortest average delay. */
export function brokerRanking(rows: readonly { broker_name: string; trade: CopiedTrade }[]): BrokerCopyQuality[] {
  const groups = new Map<string, CopiedTrade[]>();
  for (const r of rows) {
    const list = groups.get(r.broker_name);
    if (list) list.push(r.trade);
    else groups.set(r.broker_name, [r.trade]);
  }
  const ranked = [...groups].map(([broker_name, trades]) => {
    const fx = trades.filter((t) => t.category === 'Forex').map((t) => t.entry_slippage);
    const delays = trades.map((t) => t.delay_ms);
    return {
      broker_name,
      trades: trades.length,
      avg_entry_slippage_pips: mean(fx),
      worst_entry_slippage_pips: fx.length ? Math.max(...fx) : null,
      avg_slippage_cost_eur: mean(trades.map((t) => t.slippage_cost_eur).filter((x): x is number => x !== null)),
      avg_delay_ms: mean(delays),
      worst_delay_ms: delays.length ? Math.max(...delays) : null,
    };
  });
  const key = (x: number | null) => (x === null ? Infinity : x);
  return ranked.sort(
    (a, b) => key(a.avg_entry_slippage_pips) - key(b.avg_entry_slippage_pips) || key(a.avg_delay_ms) - key(b.avg_delay_ms) || a.broker_name.localeCompare(b.broker_name),
  );
}

/** An open position as exposure reads it. */
export interface ExposurePosition {
  symbol: string;
  type: Side;
  category: Market;
  quantity: number;
  price: number;
}

/**
 * Net currency exposure in EUR (positive = long the currency): a forex position is long its base
 * currency and short its quote currency (a buy; the reverse for a sell), each leg at the current
 * price; shares are exposure to the currency they are quoted in.
 */
export function currencyExposure(positions: readonly ExposurePosition[], rates: EurRates): { currency: string; exposure: number; exposure_eur: number | null }[] {
  const net = new Map<string, number>();
  const addUnits = (currency: string, amount: number) => net.set(currency, (net.get(currency) ?? 0) + amount);
  for (const p of positions) {
    const sign = p.type === 'Buy' ? 1 : -1;
    const spec = instrumentSpec(p.symbol);
    const units = p.quantity * spec.contract;
    if (spec.class === 'forex' || spec.class === 'metal') {
      addUnits(spec.base!, sign * units);
      addUnits(spec.quote, -sign * units * p.price);
    } else {
      addUnits(spec.quote, sign * units * p.price);
    }
  }
  const abs = (x: number | null) => (x === null ? -1 : Math.abs(x));
  return [...net]
    .map(([currency, exposure]) => ({ currency, exposure, exposure_eur: eur(exposure, currency, rates) }))
    .sort((a, b) => abs(b.exposure_eur) - abs(a.exposure_eur) || a.currency.localeCompare(b.currency));
}
