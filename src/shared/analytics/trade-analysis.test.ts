import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  ahpr,
  balanceRegression,
  byHour,
  byWeekday,
  ghpr,
  LOSS_LEVELS,
  mfeMaeAnalysis,
  minTrackRecord,
  probabilisticSharpe,
  riskOfDrawdown,
  riskOfRuin,
  tradeAnalysis,
  tradeEfficiency,
  tradeReturns,
  zProbability,
  zScore,
  type AnalysisDeal,
} from './trade-analysis.ts';

// The worked examples of docs/figures.md, "Analysis of an account's trades". Every expected value
// below is worked out by hand there (and checked with a calculator), never copied from the program.

const DAY_S = 86_400;
/** 2024-01-01, a Monday, in days since 1970-01-01. */
const MON = 19_723;
const at = (day: number, hour: number, minute = 0) => day * DAY_S + hour * 3600 + minute * 60;

const NONE = {
  openedAt: null, symbol: null, type: null, openPrice: null, closePrice: null, amount: 0, profit: 0, swap: 0, commission: 0, fee: 0, mae: null, mfe: null,
} satisfies Omit<AnalysisDeal, 'kind' | 'at'>;
const deposit = (t: number, amount: number): AnalysisDeal => ({ ...NONE, kind: 'deposit', at: t, amount });
const trade = (opened: number, closed: number, profit: number, costs: Partial<Pick<AnalysisDeal, 'commission' | 'swap' | 'fee'>> = {}): AnalysisDeal => ({
  ...NONE, kind: 'trade', at: closed, openedAt: opened, symbol: 'EURUSD', type: 'Buy', openPrice: 1.1, closePrice: 1.1, profit, ...costs,
});

/**
 * Example A1: a deposit of 10,000, then six trades whose net results are +10 %, −10 %, +10 %, −5 %,
 * +20 % and −5 % of the balance before each: 10,000 → 11,000 → 9,900 → 10,890 → 10,345.50 →
 * 12,414.60 → 11,793.87. The first trade is 1,010 of profit, −7 commission and −3 swap (net 1,000).
 * Opens and closes in UTC (a Monday to a Friday night).
 */
const A1: AnalysisDeal[] = [
  deposit(at(MON, 7), 10_000),
  trade(at(MON, 8, 30), at(MON, 15), 1_010, { commission: -7, swap: -3 }),
  trade(at(MON + 1, 8, 10), at(MON + 2, 10), -1_100),
  trade(at(MON + 2, 13), at(MON + 2, 14), 990),
  trade(at(MON + 3, 23, 30), at(MON + 4, 1), -544.5),
  trade(at(MON + 4, 8, 45), at(MON + 4, 20), 2_069.1),
  trade(at(MON + 4, 22), at(MON + 4, 23), -620.73),
];
const A1_RETURNS = [0.1, -0.1, 0.1, -0.05, 0.2, -0.05];
const A1_HPRS = A1_RETURNS.map((r) => 1 + r);

describe('the analysis of an account’s trades (A1)', () => {
  it('n: six closed trades, each with its holding period return against the closed balance before it', () => {
    const t = tradeReturns(A1);
    expect(t.map((x) => x.net)).toEqual([1_000, -1_100, 990, -544.5, 2_069.1, -620.73]);
    t.forEach((x, i) => expect(x.hpr).toBeCloseTo(A1_HPRS[i]!, 12));
    const a = tradeAnalysis(A1);
    expect(a).toMatchObject({ n: 6, returns_n: 6, wins: 3, losses: 3 });
  });

  it('ahpr: (1.1 + 0.9 + 1.1 + 0.95 + 1.2 + 0.95) / 6 = 6.2 / 6 = 1.033333 → 3.3333 %', () => {
    expect(ahpr(A1_HPRS)).toBeCloseTo(1.0333333, 6);
    expect(tradeAnalysis(A1).ahpr).toBeCloseTo(3.3333, 4);
  });

  it('ghpr: (11,793.87 / 10,000)^(1/6) = 1.027881 → 2.7881 %', () => {
    expect(ghpr(A1_HPRS)).toBeCloseTo(1.0278807, 6);
    expect(tradeAnalysis(A1).ghpr).toBeCloseTo(2.7881, 4);
  });

  it('ghpr: a deposit between trades is no gain; a trade that wipes the balance out gives −100 %', () => {
    // 1,000, +100 (1.1), a deposit of 8,900 (balance 10,000), −500 (0.95): (1.1 × 0.95)^(1/2) = 1.022252.
    const withDeposit = [deposit(at(MON, 1), 1_000), trade(at(MON, 2), at(MON, 3), 100), deposit(at(MON, 4), 8_900), trade(at(MON, 5), at(MON, 6), -500)];
    expect(tradeAnalysis(withDeposit).ghpr).toBeCloseTo(2.2252, 4);
    expect(ghpr([1.5, 0])).toBe(0);
    expect(ghpr([])).toBeNull();
  });

  it('a trade before any money is on the account has no return: it counts in n, not in the returns', () => {
    // +50 on a balance of 0; then the deposit makes 10,050, and the next trade's return is 11,050 / 10,050.
    const t = tradeReturns([trade(at(MON, 1), at(MON, 2), 50), ...A1]);
    expect(t[0]!.hpr).toBeNull();
    expect(t[1]!.hpr).toBeCloseTo(11_050 / 10_050, 12);
    expect(tradeAnalysis([trade(at(MON, 1), at(MON, 2), 50), ...A1])).toMatchObject({ n: 7, returns_n: 6 });
  });

  it('z_score: W L W L W L has R = 6 runs, P = 2 × 3 × 3 = 18: (6 × 5.5 − 18) / √(18 × 12 / 5) = 15 / 6.572671 = 2.2822', () => {
    expect(zScore([1_000, -1_100, 990, -544.5, 2_069.1, -620.73])).toBeCloseTo(2.282177, 5);
    // A trade of exactly 0 is neither a win nor a loss and is left out.
    expect(zScore([1, 0, -1, 1, -1, 1, -1])).toBeCloseTo(2.282177, 5);
    // All wins: P = 0, no test.
    expect(zScore([1, 2, 3])).toBeNull();
  });

  it('z_probability: 2Φ(2.282177) − 1 = 2 × 0.988761 − 1 = 97.7521 %', () => {
    expect(zProbability(2.282177322938192)).toBeCloseTo(97.7521, 4);
    expect(zProbability(-2.282177322938192)).toBeCloseTo(97.7521, 4);
    expect(zProbability(0)).toBe(0);
    expect(tradeAnalysis(A1).z_probability).toBeCloseTo(97.7521, 4);
  });

  it('expectancy: (1,000 − 1,100 + 990 − 544.50 + 2,069.10 − 620.73) / 6 = 1,793.87 / 6 = 298.98', () => {
    expect(tradeAnalysis(A1).expectancy).toBeCloseTo(298.978333, 6);
  });

  it('profit_factor: (1,000 + 990 + 2,069.10) / (1,100 + 544.50 + 620.73) = 4,059.10 / 2,265.23 = 1.7919', () => {
    expect(tradeAnalysis(A1).profit_factor).toBeCloseTo(1.791915, 6);
  });

  it('sharpe: mean 0.2 / 6 = 0.033333; population variance 0.075 / 6 − 0.033333² = 0.011389, sd 0.106719 → 0.3123', () => {
    expect(tradeAnalysis(A1).sharpe).toBeCloseTo(0.312348, 6);
  });

  it('sortino: downside deviation √((0.1² + 0.05² + 0.05²) / 6) = √0.0025 = 0.05 → 0.033333 / 0.05 = 0.6667', () => {
    expect(tradeAnalysis(A1).sortino).toBeCloseTo(0.666667, 6);
  });

  it('psr: skewness 0.232356, kurtosis 1.572278; Φ(0.312348 × √5 / √0.941382) = Φ(0.719847) = 76.4190 %', () => {
    expect(probabilisticSharpe(A1_RETURNS)).toBeCloseTo(76.419, 3);
    expect(tradeAnalysis(A1).psr).toBeCloseTo(76.419, 3);
  });

  it('min_track_record: 1 + 0.941382 × (1.644854 / 0.312348)² = 27.1062 trades', () => {
    expect(minTrackRecord(A1_RETURNS)).toBeCloseTo(27.1062, 3);
    // No edge: no length of record is enough.
    expect(minTrackRecord([0.1, -0.1])).toBeNull();
  });

  it('risk_of_ruin: p 0.5, W 0.133333, L 0.066667 → E 0.033333, A 0.105409, P 0.658114: 53.72, 28.86, 15.51, 4.48, 0.20 %', () => {
    const ror = tradeAnalysis(A1).risk_of_ruin!;
    expect(ror.map((r) => r.loss_pct)).toEqual([...LOSS_LEVELS]);
    const expected = [53.7249, 28.8637, 15.507, 4.4759, 0.2003];
    ror.forEach((r, i) => expect(r.probability).toBeCloseTo(expected[i]!, 3));
  });

  it("risk_of_ruin: Kaufman's closed form gives Myfxbook's published 4.43 % (50 % wins, win/loss 1.5, 5 % risk, loss level 50 %)", () => {
    // W = 0.075, L = 0.05: E = 0.0125, A = √(0.5 × 0.075² + 0.5 × 0.05²) = 0.063738, P = ½(1 + 0.196116) = 0.598058,
    // (0.401942 / 0.598058)^(0.5 / 0.063738) = 0.672078^7.844645 = 0.044276.
    const ror = riskOfRuin([0.075, -0.05], [50])!;
    expect(ror[0]!.probability).toBeCloseTo(4.43, 2);
    expect(ror[0]!.probability).toBeCloseTo(4.4276, 4);
  });

  it('risk_of_ruin: 0 without a loss, 100 without a win or without an edge, null without a trade', () => {
    expect(riskOfRuin([0.01, 0.02])!.every((r) => r.probability === 0)).toBe(true);
    expect(riskOfRuin([-0.01, -0.02])!.every((r) => r.probability === 100)).toBe(true);
    expect(riskOfRuin([0.05, -0.05])!.every((r) => r.probability === 100)).toBe(true);
    expect(riskOfRuin([])).toBeNull();
  });

  it('risk_of_drawdown: three trades of −10 % always fall 27.1 %: 100, 100, 0, 0, 0 %', () => {
    // Every draw is 0.9: 0.9 × 0.9 × 0.9 = 0.729, 27.1 % under the peak of 1.
    expect(riskOfDrawdown([0.9, 0.9, 0.9])!.map((r) => r.probability)).toEqual([100, 100, 0, 0, 0]);
  });

  it('risk_of_drawdown: returns 1.25 and 0.6, two draws: 3/4 of the records fall 40 % or more, 1/4 fall 64 %', () => {
    // 1.25, 1.25: none; 1.25, 0.6: 0.75 under a peak of 1.25, 40 %; 0.6, 1.25: 40 %; 0.6, 0.6: 0.36, 64 %.
    // Exactly: 75 % at 10, 20, 30; 25 % at 50; 0 at 100. 1,000 runs: a standard error of 1.4 %.
    const p = riskOfDrawdown([1.25, 0.6])!.map((r) => r.probability);
    [75, 75, 75, 25, 0].forEach((expected, i) => expect(Math.abs(p[i]! - expected)).toBeLessThan(5));
    expect(p[0]).toBe(p[1]);
    expect(p[4]).toBe(0);
  });

  it('risk_of_drawdown: seeded, the same trades give the same figures; the runs and seed are in the answer', () => {
    expect(riskOfDrawdown(A1_HPRS)).toEqual(riskOfDrawdown(A1_HPRS));
    expect(tradeAnalysis(A1).monte_carlo).toEqual({ runs: 1_000, seed: 42, trades: 6 });
    expect(riskOfDrawdown([])).toBeNull();
  });

  it('lr_correlation: balances 10,000 … 11,793.87 on 0 … 6: Sxy 8,656.31, Sxx 28, Syy 5,220,310.79 → 0.7160', () => {
    expect(tradeAnalysis(A1).lr_correlation).toBeCloseTo(0.715988, 6);
  });

  it('lr_std_error: slope 309.153929; Σ residual² 2,544,178.55 over n − 2 = 5 → √508,835.71 = 713.33', () => {
    expect(tradeAnalysis(A1).lr_std_error).toBeCloseTo(713.327211, 5);
    expect(balanceRegression([100, 110])).toEqual({ correlation: 1, stdError: null });
    expect(balanceRegression([100, 100, 100]).correlation).toBeNull();
  });

  it('by_hour: at UTC+2, opens at 10:30, 10:10, 15:00, 01:30, 10:45 and 00:00', () => {
    const h = byHour(tradeReturns(A1), 120);
    expect(h).toHaveLength(24);
    expect(h[0]).toEqual({ hour: 0, trades: 1, net: -620.73, win_rate: 0 });
    expect(h[1]).toEqual({ hour: 1, trades: 1, net: -544.5, win_rate: 0 });
    // 1,000 − 1,100 + 2,069.10 = 1,969.10; 2 wins of 3.
    expect(h[10]!.trades).toBe(3);
    expect(h[10]!.net).toBeCloseTo(1_969.1, 6);
    expect(h[10]!.win_rate).toBeCloseTo(66.6667, 4);
    expect(h[15]).toEqual({ hour: 15, trades: 1, net: 990, win_rate: 100 });
    expect(h[12]).toEqual({ hour: 12, trades: 0, net: 0, win_rate: null });
    expect(h.reduce((s, b) => s + b.trades, 0)).toBe(6);
  });

  it('by_weekday: closes Mon, Wed, Wed, Fri, Fri and (at UTC+2) Saturday 01:00; at UTC the last is Friday', () => {
    const w = byWeekday(tradeReturns(A1), 120);
    expect(w.map((b) => b.trades)).toEqual([1, 0, 2, 0, 2, 1, 0]);
    expect(w[0]).toEqual({ weekday: 1, trades: 1, net: 1_000, win_rate: 100 });
    // −1,100 + 990 = −110; −544.50 + 2,069.10 = 1,524.60.
    expect(w[2]!.net).toBeCloseTo(-110, 6);
    expect(w[2]!.win_rate).toBe(50);
    expect(w[4]!.net).toBeCloseTo(1_524.6, 6);
    expect(w[5]).toEqual({ weekday: 6, trades: 1, net: -620.73, win_rate: 0 });
    expect(byWeekday(tradeReturns(A1), 0).map((b) => b.trades)).toEqual([1, 0, 2, 0, 3, 0, 0]);
  });

  it('no trades: n 0 and every figure null, the buckets empty', () => {
    const a = tradeAnalysis([deposit(at(MON, 1), 1_000)]);
    expect(a).toMatchObject({
      n: 0, returns_n: 0, ahpr: null, ghpr: null, z_score: null, z_probability: null, expectancy: null, profit_factor: null, sharpe: null,
      sortino: null, psr: null, min_track_record: null, risk_of_ruin: null, risk_of_drawdown: null, lr_correlation: null, lr_std_error: null,
    });
    expect(a.mfe_mae.n).toBe(0);
    expect(a.by_hour.every((b) => b.trades === 0 && b.win_rate === null)).toBe(true);
  });
});

/**
 * Example M3: three trades with their excursions (price units, as the books keep them).
 * 1. Buy EURUSD 1.10000 → 1.10500, MAE 0.00200, MFE 0.00700, net +500.
 * 2. Sell EURUSD 1.10000 → 1.10200, MAE 0.00300, MFE 0.00100, net −200.
 * 3. Buy EURUSD 1.20000 → 1.20300, MAE 0.00100, MFE 0.00400, net +300.
 * A fourth trade has no excursions (a statement's) and is left out.
 */
const excursionTrade = (type: 'Buy' | 'Sell', open: number, close: number, mae: number | null, mfe: number | null, profit: number): AnalysisDeal => ({
  ...NONE, kind: 'trade', at: at(MON, 12), openedAt: at(MON, 10), symbol: 'EURUSD', type, openPrice: open, closePrice: close, mae, mfe, profit,
});
const M3 = [
  excursionTrade('Buy', 1.1, 1.105, 0.002, 0.007, 500),
  excursionTrade('Sell', 1.1, 1.102, 0.003, 0.001, -200),
  excursionTrade('Buy', 1.2, 1.203, 0.001, 0.004, 300),
  excursionTrade('Buy', 1.2, 1.21, null, null, 1_000),
];

describe('mfe_mae (M3)', () => {
  it('entry, exit and total efficiency per trade: 7/9, 7/9, 5/9; 1/4, 1/4, −1/2; 4/5, 4/5, 3/5', () => {
    const e1 = tradeEfficiency(M3[0]!)!;
    expect(e1.entry).toBeCloseTo(7 / 9, 10);
    expect(e1.exit).toBeCloseTo(7 / 9, 10);
    expect(e1.total).toBeCloseTo(5 / 9, 10);
    const e2 = tradeEfficiency(M3[1]!)!;
    expect([e2.entry, e2.exit, e2.total].map((x) => Number(x.toFixed(10)))).toEqual([0.25, 0.25, -0.5]);
    const e3 = tradeEfficiency(M3[2]!)!;
    expect([e3.entry, e3.exit, e3.total].map((x) => Number(x.toFixed(10)))).toEqual([0.8, 0.8, 0.6]);
    expect(tradeEfficiency(M3[3]!)).toBeNull();
  });

  it('averages (7/9 + 1/4 + 4/5) / 3 = 0.6093 and (5/9 − 1/2 + 3/5) / 3 = 0.2185; correlations 0.9707, −0.6934, −0.5', () => {
    const m = mfeMaeAnalysis(tradeReturns(M3));
    expect(m.n).toBe(3);
    expect(m.trades).toHaveLength(3);
    expect(m.entry_efficiency).toBeCloseTo(0.609259, 6);
    expect(m.exit_efficiency).toBeCloseTo(0.609259, 6);
    expect(m.total_efficiency).toBeCloseTo(0.218519, 6);
    // In pips: MFE 70, 10, 40; MAE 20, 30, 10; P/L 500, −200, 300 (mean 200, 40, 20).
    // (P/L, MFE): 21,000 / √(260,000 × 1,800) = 0.970725; (P/L, MAE): −5,000 / √(260,000 × 200) = −0.693375;
    // (MFE, MAE): −300 / √(1,800 × 200) = −0.5.
    expect(m.correlation_pl_mfe).toBeCloseTo(0.970725, 6);
    expect(m.correlation_pl_mae).toBeCloseTo(-0.693375, 6);
    expect(m.correlation_mfe_mae).toBeCloseTo(-0.5, 6);
  });

  it('without excursions (statements, most terminals) every MFE/MAE figure is null, with n 0', () => {
    expect(mfeMaeAnalysis(tradeReturns(A1))).toEqual({
      n: 0, entry_efficiency: null, exit_efficiency: null, total_efficiency: null,
      correlation_pl_mfe: null, correlation_pl_mae: null, correlation_mfe_mae: null, trades: [],
    });
  });
});

describe('properties on any record', () => {
  const records = fc.array(fc.double({ min: -0.9, max: 2, noNaN: true }), { minLength: 1, maxLength: 40 });

  it('risk of ruin and of drawdown are probabilities that never rise with the loss level', () => {
    fc.assert(
      fc.property(records, (returns) => {
        const ruin = riskOfRuin(returns);
        // Null only without a win or a loss (every trade exactly 0).
        expect(ruin === null).toBe(returns.every((r) => r === 0));
        for (const levels of [ruin ?? [], riskOfDrawdown(returns.map((r) => 1 + r), { runs: 50 })!]) {
          levels.forEach((l, i) => {
            expect(l.probability).toBeGreaterThanOrEqual(0);
            expect(l.probability).toBeLessThanOrEqual(100);
            if (i > 0) expect(l.probability).toBeLessThanOrEqual(levels[i - 1]!.probability);
          });
        }
      }),
    );
  });

  it('GHPR never exceeds AHPR (the geometric mean under the arithmetic one)', () => {
    fc.assert(fc.property(records, (returns) => {
      const hprs = returns.map((r) => 1 + r);
      expect(ghpr(hprs)!).toBeLessThanOrEqual(ahpr(hprs)! + 1e-12);
    }));
  });

  it('total efficiency = entry + exit − 1, each of entry and exit between 0 and 1', () => {
    fc.assert(
      fc.property(fc.constantFrom<'Buy' | 'Sell'>('Buy', 'Sell'), fc.double({ min: -0.01, max: 0.01, noNaN: true }), fc.double({ min: 0, max: 0.02, noNaN: true }), fc.double({ min: 0, max: 0.02, noNaN: true }), (type, move, mae, mfe) => {
        const e = tradeEfficiency(excursionTrade(type, 1.1, 1.1 + (type === 'Buy' ? move : -move), mae, mfe, 0));
        if (e === null) return;
        expect(e.total).toBeCloseTo(e.entry + e.exit - 1, 9);
        for (const x of [e.entry, e.exit]) {
          expect(x).toBeGreaterThanOrEqual(-1e-9);
          expect(x).toBeLessThanOrEqual(1 + 1e-9);
        }
      }),
    );
  });
});
