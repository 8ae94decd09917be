import type { Deal } from '../domain/deal.ts';
import { expectancy, periodSharpe, periodSortino } from './risk-stats.ts';
import { mean, normalCdf, pearson, sum } from './stats.ts';
import { toPips } from './excursions.ts';
import { netResult, profitFactor } from './trade-stats.ts';
import { DAY_S } from '#shared/domain/days.ts';

// The analysis of an account's closed trades (docs/figures.md, "Analysis of an account's trades";
// issue 42 item 1): holding period returns, runs test, per-trade ratios, probabilistic Sharpe ratio,
// risks of ruin and of drawdown, the balance's linear regression, MFE/MAE efficiencies, and the
// trades by hour and weekday. Figures come out unrounded: the response schema rounds them
// (src/shared/contract/stats.ts). A figure that cannot be computed is null, never 0.

const HOUR_S = 3_600;

/** The losses of the starting balance, in %, that risk of ruin and risk of drawdown are given for. */
export const LOSS_LEVELS = [10, 20, 30, 50, 100] as const;

/** Runs of the risk-of-drawdown Monte Carlo, and the seed of its generator (mulberry32) [ours]. */
export const MONTE_CARLO_RUNS = 1_000;
export const MONTE_CARLO_SEED = 42;

/** Φ⁻¹(0.95): the one-sided 95 % quantile of the standard normal distribution (the minimum track record's confidence). */
const Z_95 = 1.6448536269514722;

/** What the analysis reads of a deal on the books (src/shared/domain/deal.ts), in the books' order. */
export type AnalysisDeal = Pick<
  Deal,
  'kind' | 'at' | 'openedAt' | 'symbol' | 'type' | 'openPrice' | 'closePrice' | 'amount' | 'profit' | 'swap' | 'commission' | 'fee' | 'mae' | 'mfe'
>;

/** One closed trade with its net result and its holding period return (null where the balance before it was not positive). */
interface TradeReturn {
  deal: AnalysisDeal;
  net: number;
  /** The closed balance before it, Bᵢ₋₁. */
  before: number;
  /** Hᵢ = (Bᵢ₋₁ + Pᵢ) / Bᵢ₋₁. */
  hpr: number | null;
}

export interface LevelProbability {
  /** The loss, in % of the balance. */
  loss_pct: number;
  /** The probability of reaching it, in %. */
  probability: number;
}

export interface Bucket {
  trades: number;
  net: number;
  /** Winning trades ÷ trades × 100; null without a trade. */
  win_rate: number | null;
}

export interface TradeEfficiency {
  closed_at: number;
  symbol: string;
  entry_efficiency: number;
  exit_efficiency: number;
  total_efficiency: number;
}

export interface MfeMaeAnalysis {
  /** Trades whose MFE and MAE are known (and the price moved while they were open). */
  n: number;
  entry_efficiency: number | null;
  exit_efficiency: number | null;
  total_efficiency: number | null;
  /** Pearson's r of (net result, MFE in pips), (net result, MAE in pips), (MFE, MAE). */
  correlation_pl_mfe: number | null;
  correlation_pl_mae: number | null;
  correlation_mfe_mae: number | null;
  trades: TradeEfficiency[];
}

export interface TradeAnalysis {
  /** Closed trades. */
  n: number;
  /** Trades with a holding period return (a positive balance before them): the sample of the return figures. */
  returns_n: number;
  wins: number;
  losses: number;
  /** (AHPR − 1) × 100. */
  ahpr: number | null;
  /** (GHPR − 1) × 100. */
  ghpr: number | null;
  z_score: number | null;
  /** %. */
  z_probability: number | null;
  expectancy: number | null;
  profit_factor: number | null;
  sharpe: number | null;
  sortino: number | null;
  /** %. */
  psr: number | null;
  /** Trades. */
  min_track_record: number | null;
  risk_of_ruin: LevelProbability[] | null;
  risk_of_drawdown: LevelProbability[] | null;
  monte_carlo: { runs: number; seed: number; trades: number };
  lr_correlation: number | null;
  lr_std_error: number | null;
  mfe_mae: MfeMaeAnalysis;
  /** Minutes added to UTC to give broker time. */
  utc_offset_minutes: number;
  /** 24 buckets, hour 0 to 23 of the open in broker time. */
  by_hour: (Bucket & { hour: number })[];
  /** 7 buckets, ISO weekday of the close in broker time: 1 Monday to 7 Sunday. */
  by_weekday: (Bucket & { weekday: number })[];
}

/** The closed trades in close order, each with its net result and its HPR against the closed balance before it. */
export function tradeReturns(deals: readonly AnalysisDeal[]): TradeReturn[] {
  let balance = 0;
  const out: TradeReturn[] = [];
  for (const d of deals) {
    if (d.kind !== 'trade') {
      balance += Number.isFinite(d.amount) ? d.amount : 0;
      continue;
    }
    const net = netResult(d);
    out.push({ deal: d, net, before: balance, hpr: balance > 0 ? (balance + net) / balance : null });
    balance += net;
  }
  return out;
}

/** AHPR: the mean holding period return, Hᵢ = (Bᵢ₋₁ + Pᵢ) / Bᵢ₋₁ (R. Vince, The Mathematics of Money Management, 1992); null without one. */
export function ahpr(hprs: readonly number[]): number | null {
  return mean(hprs);
}

/**
 * GHPR: the geometric mean of the holding period returns, (Π Hᵢ)^(1/N) (Vince). Without cash flows
 * it is (B_N / B₀)^(1/N); with them it chains the trades only, so a deposit is no gain [ours]. A
 * return of 0 or less (the balance wiped out) gives 0; null without a return.
 */
export function ghpr(hprs: readonly number[]): number | null {
  if (hprs.length === 0) return null;
  if (hprs.some((h) => h <= 0)) return 0;
  return Math.exp(sum(hprs.map(Math.log)) / hprs.length);
}

/**
 * The runs test's Z-score of the wins and losses in order: Z = (N(R − 0.5) − P) / √(P(P − N) / (N − 1)),
 * P = 2WL, R the number of runs (MT5 strategy tester report); a trade of exactly 0 is neither and
 * is left out. Null under two wins and losses, or without one of each.
 */
export function zScore(results: readonly number[]): number | null {
  const signs = results.filter((r) => r !== 0 && Number.isFinite(r)).map((r) => r > 0);
  const n = signs.length;
  const w = signs.filter(Boolean).length;
  const p = 2 * w * (n - w);
  if (n < 2 || !(p * (p - n) > 0)) return null;
  const runs = signs.reduce((count, s, i) => (i === 0 || s !== signs[i - 1] ? count + 1 : count), 0);
  return (n * (runs - 0.5) - p) / Math.sqrt((p * (p - n)) / (n - 1));
}

/** The confidence of a Z-score, two-sided: 2Φ(|Z|) − 1, in %. */
export function zProbability(z: number | null): number | null {
  return z === null ? null : (2 * normalCdf(Math.abs(z)) - 1) * 100;
}

/** Skewness and raw kurtosis (3 for a normal distribution) of the values, by their population moments; null under two values or without variation. */
export function moments(xs: readonly number[]): { skewness: number; kurtosis: number } | null {
  const m = mean(xs);
  if (m === null || xs.length < 2) return null;
  const m2 = sum(xs.map((x) => (x - m) ** 2)) / xs.length;
  if (!(m2 > 0)) return null;
  const m3 = sum(xs.map((x) => (x - m) ** 3)) / xs.length;
  const m4 = sum(xs.map((x) => (x - m) ** 4)) / xs.length;
  return { skewness: m3 / m2 ** 1.5, kurtosis: m4 / m2 ** 2 };
}

/**
 * The probabilistic Sharpe ratio against a benchmark of 0, in %: Φ(SR √(n − 1) / √(1 − γ₃ SR + (γ₄ − 1)/4 SR²)),
 * SR the per-period Sharpe ratio, γ₃ the skewness and γ₄ the raw kurtosis of the returns (Bailey and
 * López de Prado, "The Sharpe Ratio Efficient Frontier", 2012); null where SR is.
 */
export function probabilisticSharpe(returns: readonly number[]): number | null {
  const sr = periodSharpe(returns, 'population');
  const mo = moments(returns);
  if (sr === null || mo === null) return null;
  const v = 1 - mo.skewness * sr + ((mo.kurtosis - 1) / 4) * sr * sr;
  if (!(v > 0)) return null;
  return normalCdf((sr * Math.sqrt(returns.length - 1)) / Math.sqrt(v)) * 100;
}

/**
 * The minimum track record length: the trades needed for 95 % confidence that the Sharpe ratio is
 * above 0, 1 + (1 − γ₃ SR + (γ₄ − 1)/4 SR²) (Φ⁻¹(0.95) / SR)² (Bailey and López de Prado, 2012); null
 * where SR is null or not above 0 (no length is enough).
 */
export function minTrackRecord(returns: readonly number[]): number | null {
  const sr = periodSharpe(returns, 'population');
  const mo = moments(returns);
  if (sr === null || mo === null || !(sr > 0)) return null;
  const v = 1 - mo.skewness * sr + ((mo.kurtosis - 1) / 4) * sr * sr;
  return 1 + v * (Z_95 / sr) ** 2;
}

/**
 * Risk of ruin for each loss level X (% of the starting balance), in %: RoR(X) = ((1 − P)/P)^(X/A),
 * P = ½(1 + E/A), E = pW − (1 − p)L, A = √(pW² + (1 − p)L²), with p the share of wins among wins and
 * losses and W, L the mean win and mean loss as fractions of the balance at the trade (Kaufman,
 * Trading Systems and Methods). At most 100 %; 0 without a loss, 100 without a win; null without
 * either.
 */
export function riskOfRuin(returns: readonly number[], levels: readonly number[] = LOSS_LEVELS): LevelProbability[] | null {
  const wins = returns.filter((r) => r > 0);
  const losses = returns.filter((r) => r < 0).map((r) => -r);
  if (wins.length + losses.length === 0) return null;
  const p = wins.length / (wins.length + losses.length);
  const w = mean(wins) ?? 0;
  const l = mean(losses) ?? 0;
  const e = p * w - (1 - p) * l;
  const a = Math.sqrt(p * w * w + (1 - p) * l * l);
  // A = 0 only where W and L vanish below double precision: all edge or none.
  const edge = a > 0 ? 0.5 * (1 + e / a) : e > 0 ? 1 : 0;
  return levels.map((x) => {
    let probability: number;
    if (losses.length === 0) probability = 0;
    else if (wins.length === 0 || !(edge > 0)) probability = 100;
    else probability = Math.min(1, ((1 - edge) / edge) ** (x / 100 / a)) * 100;
    return { loss_pct: x, probability };
  });
}

/** mulberry32: a small seeded generator of uniforms in [0, 1) (the simulated market's, src/server/broker/simulated/random.ts). */
function mulberry32(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * Risk of drawdown for each level X, in %: the share of `runs` simulated records that fall X % or
 * more below their running peak. Each record draws as many holding period returns as there are, at
 * random with replacement from the account's own, and chains them from 1 (a bootstrap of the trades'
 * order and mix) [ours]. Seeded, so the same trades always give the same figures; null without a return.
 */
export function riskOfDrawdown(
  hprs: readonly number[],
  { runs = MONTE_CARLO_RUNS, seed = MONTE_CARLO_SEED, levels = LOSS_LEVELS }: { runs?: number; seed?: number; levels?: readonly number[] } = {},
): LevelProbability[] | null {
  const n = hprs.length;
  if (n === 0) return null;
  const random = mulberry32(seed);
  const reached = levels.map(() => 0);
  for (let run = 0; run < runs; run++) {
    let value = 1;
    let peak = 1;
    let worst = 0;
    for (let i = 0; i < n; i++) {
      value *= hprs[Math.floor(random() * n)]!;
      if (value <= 0) {
        worst = 1;
        break;
      }
      if (value > peak) peak = value;
      else worst = Math.max(worst, (peak - value) / peak);
    }
    levels.forEach((x, k) => {
      if (worst >= x / 100) reached[k] = reached[k]! + 1;
    });
  }
  return levels.map((x, k) => ({ loss_pct: x, probability: (reached[k]! / runs) * 100 }));
}

/**
 * The linear regression of the closed balance on the trade index, points (i, Bᵢ) for i = 0 … N (B₀ the
 * balance before the first trade): Pearson's r, and the standard error of the balance about the line,
 * √(Σ (Bᵢ − B̂ᵢ)² / (n − 2)) over the n = N + 1 points (the MT5 report's LR correlation and LR standard
 * error; the n − 2 divisor is ours). Null under 2 points (3 for the error) or for a flat balance (r).
 */
export function balanceRegression(balances: readonly number[]): { correlation: number | null; stdError: number | null } {
  const points = balances.map((b, i) => [i, b] as const);
  const correlation = pearson(points);
  const n = points.length;
  if (n < 3) return { correlation, stdError: null };
  const mx = (n - 1) / 2;
  const my = sum(balances) / n;
  const sxx = sum(points.map(([x]) => (x - mx) ** 2));
  const slope = sum(points.map(([x, y]) => (x - mx) * (y - my))) / sxx;
  const residuals = points.map(([x, y]) => y - (my + slope * (x - mx)));
  return { correlation, stdError: Math.sqrt(sum(residuals.map((r) => r * r)) / (n - 2)) };
}

/**
 * The efficiencies of a trade from its excursions (price units): with the move m = ±(close − open)
 * (+ for a buy), the range MFE + MAE, entry = MFE / range, exit = (m + MAE) / range, total = m / range
 * = entry + exit − 1 (the MT5 report's; for a buy, entry = (high − open) / (high − low)). The close
 * is a price the trade saw, so MFE ≥ m and MAE ≥ −m. Null where a price or an excursion is unknown
 * or the price never moved.
 */
export function tradeEfficiency(d: AnalysisDeal): { entry: number; exit: number; total: number; mfe: number; mae: number } | null {
  if (d.mae === null || d.mfe === null || d.openPrice === null || d.closePrice === null || d.type === null) return null;
  const move = (d.type === 'Buy' ? 1 : -1) * (d.closePrice - d.openPrice);
  const mfe = Math.max(d.mfe, move);
  const mae = Math.max(d.mae, -move);
  const range = mfe + mae;
  if (!(range > 0) || !Number.isFinite(range)) return null;
  return { entry: mfe / range, exit: (move + mae) / range, total: move / range, mfe, mae };
}

/** Entry, exit and total efficiency per trade and on average, and the correlations of P/L, MFE and MAE (in pips), where the excursions are known. */
export function mfeMaeAnalysis(trades: readonly { deal: AnalysisDeal; net: number }[]): MfeMaeAnalysis {
  const known = trades.flatMap(({ deal, net }) => {
    const e = tradeEfficiency(deal);
    if (e === null) return [];
    const symbol = deal.symbol ?? '';
    return [{ deal, net, e, mfePips: toPips(e.mfe, symbol), maePips: toPips(e.mae, symbol) }];
  });
  return {
    n: known.length,
    entry_efficiency: mean(known.map((k) => k.e.entry)),
    exit_efficiency: mean(known.map((k) => k.e.exit)),
    total_efficiency: mean(known.map((k) => k.e.total)),
    correlation_pl_mfe: pearson(known.map((k) => [k.net, k.mfePips] as const)),
    correlation_pl_mae: pearson(known.map((k) => [k.net, k.maePips] as const)),
    correlation_mfe_mae: pearson(known.map((k) => [k.mfePips, k.maePips] as const)),
    trades: known.map((k) => ({
      closed_at: k.deal.at,
      symbol: k.deal.symbol ?? '',
      entry_efficiency: k.e.entry,
      exit_efficiency: k.e.exit,
      total_efficiency: k.e.total,
    })),
  };
}

const bucketOf = (nets: readonly number[]): Bucket => ({
  trades: nets.length,
  net: sum(nets),
  win_rate: nets.length > 0 ? (nets.filter((p) => p > 0).length / nets.length) * 100 : null,
});

/** Trades by the hour of their open (0–23, broker time = UTC + offset); a trade without its open time is left out. */
export function byHour(trades: readonly { deal: AnalysisDeal; net: number }[], utcOffsetMinutes: number): (Bucket & { hour: number })[] {
  const nets: number[][] = Array.from({ length: 24 }, () => []);
  for (const { deal, net } of trades) {
    if (deal.openedAt === null) continue;
    const t = deal.openedAt + utcOffsetMinutes * 60;
    nets[Math.floor((((t % DAY_S) + DAY_S) % DAY_S) / HOUR_S)]!.push(net);
  }
  return nets.map((xs, hour) => ({ hour, ...bucketOf(xs) }));
}

/** Trades by the ISO weekday of their close (1 Monday … 7 Sunday, broker time = UTC + offset). */
export function byWeekday(trades: readonly { deal: AnalysisDeal; net: number }[], utcOffsetMinutes: number): (Bucket & { weekday: number })[] {
  const nets: number[][] = Array.from({ length: 7 }, () => []);
  for (const { deal, net } of trades) {
    const day = Math.floor((deal.at + utcOffsetMinutes * 60) / DAY_S);
    // 1970-01-01, day 0, was a Thursday (ISO 4).
    nets[(((day + 3) % 7) + 7) % 7]!.push(net);
  }
  return nets.map((xs, i) => ({ weekday: i + 1, ...bucketOf(xs) }));
}

/**
 * The analysis of an account's closed trades, read from its deals in the books' order (trades by their
 * close, cash flows and other balance rows between them), with hours and weekdays in broker time.
 */
export function tradeAnalysis(deals: readonly AnalysisDeal[], utcOffsetMinutes = 0): TradeAnalysis {
  const trades = tradeReturns(deals);
  const nets = trades.map((t) => t.net);
  const hprs = trades.flatMap((t) => (t.hpr === null ? [] : [t.hpr]));
  const returns = hprs.map((h) => h - 1);
  const a = ahpr(hprs);
  const g = ghpr(hprs);
  const z = zScore(nets);
  // The closed balance before the first trade, then after each trade.
  const balances = trades.length === 0 ? [] : [trades[0]!.before, ...trades.map((t) => t.before + t.net)];
  const lr = balanceRegression(balances);
  return {
    n: trades.length,
    returns_n: hprs.length,
    wins: nets.filter((p) => p > 0).length,
    losses: nets.filter((p) => p < 0).length,
    ahpr: a === null ? null : (a - 1) * 100,
    ghpr: g === null ? null : (g - 1) * 100,
    z_score: z,
    z_probability: zProbability(z),
    expectancy: expectancy(nets),
    profit_factor: profitFactor(nets),
    sharpe: periodSharpe(returns, 'population'),
    sortino: periodSortino(returns),
    psr: probabilisticSharpe(returns),
    min_track_record: minTrackRecord(returns),
    risk_of_ruin: riskOfRuin(returns),
    risk_of_drawdown: riskOfDrawdown(hprs),
    monte_carlo: { runs: MONTE_CARLO_RUNS, seed: MONTE_CARLO_SEED, trades: hprs.length },
    lr_correlation: lr.correlation,
    lr_std_error: lr.stdError,
    mfe_mae: mfeMaeAnalysis(trades),
    utc_offset_minutes: utcOffsetMinutes,
    by_hour: byHour(trades, utcOffsetMinutes),
    by_weekday: byWeekday(trades, utcOffsetMinutes),
  };
}
