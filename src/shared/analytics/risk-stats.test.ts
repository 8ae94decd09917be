import { describe, expect, it } from 'vitest';
import {
  dailyReturns,
  equityDrawdown,
  expectancy,
  recoveryFactor,
  riskStats,
  sharpeRatio,
  sortinoRatio,
  type NavPoint,
} from './risk-stats.ts';
import { maxDrawdownMoney } from './drawdown.ts';

// Epoch days: 2024-01-01 is day 19723, a Monday. Snapshots are taken at each day's end.
const MON = 19_723;
const DAY_S = 86_400;
const at = (day: number, hour = 12) => day * DAY_S + hour * 3600;
const nav = (day: number, equity: number): NavPoint => ({ day, equity });

// Example K1: a week of NAV without cash flows, daily returns +2 %, −1 %, +3 %, −2 %.
// NAV 10000 → 10200 → 10098 → 10400.94 → 10192.9212.
const K1_NAV = [nav(MON, 10_000), nav(MON + 1, 10_200), nav(MON + 2, 10_098), nav(MON + 3, 10_400.94), nav(MON + 4, 10_192.9212)];
const K1_RETURNS = [0.02, -0.01, 0.03, -0.02];

describe('dailyReturns', () => {
  it('K1: NAV_d / NAV_{d−1} − 1 without cash flows', () => {
    const r = dailyReturns(K1_NAV, []);
    expect(r).toHaveLength(4);
    r.forEach((x, i) => expect(x).toBeCloseTo(K1_RETURNS[i]!, 12));
  });

  it('K2: a deposit over the weekend and a withdrawal are neutralised; weekend snapshots are skipped', () => {
    // Fri 10000, Sat 10000, Sun 15000 (deposit 5000 on Sunday), Mon 15150, Tue 13000 (withdrawal 2000 on Tuesday).
    // Monday's return runs from Friday: (15150 − 5000) / 10000 − 1 = +1.5 %.
    // Tuesday: (13000 − (−2000)) / 15150 − 1 = 15000 / 15150 − 1 = −0.990099 %.
    const fri = MON + 4;
    const navs = [nav(fri, 10_000), nav(fri + 1, 10_000), nav(fri + 2, 15_000), nav(fri + 3, 15_150), nav(fri + 4, 13_000)];
    const flows = [
      { time: at(fri + 2), amount: 5_000 },
      { time: at(fri + 4, 9), amount: -2_000 },
    ];
    const r = dailyReturns(navs, flows);
    expect(r).toHaveLength(2);
    expect(r[0]).toBeCloseTo(0.015, 12);
    expect(r[1]).toBeCloseTo(-0.00990099, 8);
  });

  it('a withdrawal alone is not a loss: the return is 0', () => {
    // (8000 − (−2000)) / 10000 − 1 = 0.
    expect(dailyReturns([nav(MON, 10_000), nav(MON + 1, 8_000)], [{ time: at(MON + 1), amount: -2_000 }])).toEqual([0]);
  });

  it('ignores the order of the snapshots and leaves out a return on a NAV that is not positive', () => {
    // Mon 0 (not funded yet), Tue 1000 after a 1000 deposit, Wed 1100: only Wed's return, 1100 / 1000 − 1 = 10 %.
    const r = dailyReturns([nav(MON + 2, 1_100), nav(MON, 0), nav(MON + 1, 1_000)], [{ time: at(MON + 1), amount: 1_000 }]);
    expect(r).toHaveLength(1);
    expect(r[0]).toBeCloseTo(0.1, 12);
  });

  it('a period starts at the last snapshot taken at or before `from`', () => {
    // From Wednesday 00:00 = Tuesday's day end: base is Tuesday's 10200, returns Wed −1 %, Thu +3 %, Fri −2 %.
    const r = dailyReturns(K1_NAV, [], (MON + 2) * DAY_S);
    expect(r).toHaveLength(3);
    r.forEach((x, i) => expect(x).toBeCloseTo(K1_RETURNS[i + 1]!, 12));
    // From Wednesday noon: Wednesday's snapshot is not taken yet, so the base is still Tuesday's.
    expect(dailyReturns(K1_NAV, [], at(MON + 2))).toHaveLength(3);
    // Before the first snapshot: all of them.
    expect(dailyReturns(K1_NAV, [], at(MON - 10))).toHaveLength(4);
  });
});

describe('sharpeRatio', () => {
  it('K1: mean / sample stdev × √252', () => {
    // mean = (0.02 − 0.01 + 0.03 − 0.02) / 4 = 0.005
    // deviations ±0.015, ±0.025 → Σ² = 2 × 0.000225 + 2 × 0.000625 = 0.0017; / (4 − 1) = 0.000566667; stdev = 0.0238048
    // 0.005 / 0.0238048 = 0.210042; × √252 (15.874508) = 3.3343
    expect(sharpeRatio(K1_RETURNS)).toBeCloseTo(3.3343, 4);
  });
  it('is null under two returns and with no variation', () => {
    expect(sharpeRatio([])).toBeNull();
    expect(sharpeRatio([0.01])).toBeNull();
    expect(sharpeRatio([0.01, 0.01, 0.01])).toBeNull();
  });
  it('is negative when the mean return is', () => {
    // mean −0.005, same stdev as K1 mirrored → −3.3343
    expect(sharpeRatio(K1_RETURNS.map((r) => -r))).toBeCloseTo(-3.3343, 4);
  });
});

describe('sortinoRatio', () => {
  it('K1: mean / √(Σ min(r, 0)² / n) × √252', () => {
    // min(r, 0)² = 0, 0.0001, 0, 0.0004 → Σ 0.0005; / 4 = 0.000125; √ = 0.0111803
    // 0.005 / 0.0111803 = 0.447214; × 15.874508 = 7.0993
    expect(sortinoRatio(K1_RETURNS)).toBeCloseTo(7.0993, 4);
  });
  it('is null under two returns and without a losing day', () => {
    expect(sortinoRatio([-0.01])).toBeNull();
    expect(sortinoRatio([0.01, 0, 0.02])).toBeNull();
  });
});

describe('equityDrawdown', () => {
  it('K1: max drawdown % of the chained NAV index', () => {
    // Index 1, 1.02, 1.0098, 1.040094, 1.01929212: falls of 1 % (1.02 → 1.0098) and 2 % (1.040094 → 1.01929212).
    expect(equityDrawdown(K1_RETURNS)).toBeCloseTo(2, 10);
  });
  it('DOMAIN D1 on equity: 10000, 10500, 9800, 11000, 9900, 10200 → 10 %', () => {
    const d1 = [10_000, 10_500, 9_800, 11_000, 9_900, 10_200].map((e, i) => nav(MON + i + (i >= 5 ? 2 : 0), e));
    expect(equityDrawdown(dailyReturns(d1, []))).toBeCloseTo(10, 10);
  });
  it('K2: the withdrawal does not deepen the drawdown: only Tuesday −0.990099 %', () => {
    expect(equityDrawdown([0.015, 15_000 / 15_150 - 1])).toBeCloseTo(0.990099, 6);
  });
  it('is 0 on a rising NAV and null without returns', () => {
    expect(equityDrawdown([0.01, 0.02])).toBe(0);
    expect(equityDrawdown([])).toBeNull();
  });
});

describe('expectancy', () => {
  it('DOMAIN S1: (120 + 80 − 50 − 150 + 200 − 30) / 6 = 28.3333 = 50 % × 133.3333 + 50 % × (−76.6667)', () => {
    expect(expectancy([120, 80, -50, -150, 200, -30])).toBeCloseTo(28.3333, 4);
  });
  it('counts a zero trade in the denominator and is null without trades', () => {
    // (100 + 0 − 40) / 3 = 20
    expect(expectancy([100, 0, -40])).toBe(20);
    expect(expectancy([])).toBeNull();
  });
});

describe('maxDrawdownMoney and recoveryFactor', () => {
  it('DOMAIN S1 in order: cumulative 120, 200, 150, 0, 200, 170 → drawdown 200, recovery 170 / 200 = 0.85', () => {
    const cumulative = [120, 200, 150, 0, 200, 170];
    expect(maxDrawdownMoney(cumulative)).toBe(200);
    expect(recoveryFactor(170, 200)).toBe(0.85);
  });
  it('DOMAIN G1: trades net +485, −1010, +1490, −305; deposits and the withdrawal are not losses', () => {
    // Cumulative 485, −525, 965, 660: falls 485 → −525 = 1010 and 965 → 660 = 305. Recovery 660 / 1010 = 0.653465.
    expect(maxDrawdownMoney([485, -525, 965, 660])).toBe(1010);
    expect(recoveryFactor(660, 1010)).toBeCloseTo(0.653465, 6);
  });
  it('a first losing trade is a drawdown from 0', () => {
    expect(maxDrawdownMoney([-100, 50])).toBe(100);
  });
  it('recovery factor is null without a drawdown', () => {
    expect(maxDrawdownMoney([10, 20, 30])).toBe(0);
    expect(recoveryFactor(30, 0)).toBeNull();
  });
});

describe('riskStats', () => {
  it('K1 with DOMAIN S1 trades, rounded for the wire', () => {
    const s = riskStats({
      navs: K1_NAV,
      flows: [],
      tradeResults: [120, 80, -50, -150, 200, -30],
      cumulativeProfit: [120, 200, 150, 0, 200, 170],
    });
    expect(s).toEqual({
      sharpe_ratio: 3.3343,
      sortino_ratio: 7.0993,
      return_days: 4,
      equity_drawdown: 2,
      expectancy: 28.33,
      max_drawdown_money: 200,
      recovery_factor: 0.85,
    });
  });
  it('an account without NAV history or trades: nulls, not zeros', () => {
    expect(riskStats({ navs: [nav(MON, 1_000)], flows: [], tradeResults: [], cumulativeProfit: [] })).toEqual({
      sharpe_ratio: null,
      sortino_ratio: null,
      return_days: 0,
      equity_drawdown: null,
      expectancy: null,
      max_drawdown_money: 0,
      recovery_factor: null,
    });
  });
});
