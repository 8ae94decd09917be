import { describe, expect, it } from 'vitest';
import type { LedgerEntry } from './series.ts';
import { drawdownFromGrowth, drawdownSeries, maxDrawdownPct } from './drawdown.ts';
import { accountSummary, growthSeries } from './performance.ts';
import { balanceSeries, profitSeries, volumeSeries } from './series.ts';

// docs/figures.md example G1 (USD), one entry per day.
const DAY = 86_400;
const G1: LedgerEntry[] = [
  { time: 1 * DAY, kind: 'deposit', net: 10_000 },
  { time: 2 * DAY, kind: 'trade', net: 500 - 10 - 5, volume: 1 },
  { time: 3 * DAY, kind: 'trade', net: -1_000 - 10, volume: 2 },
  { time: 4 * DAY, kind: 'deposit', net: 5_000 },
  { time: 5 * DAY, kind: 'trade', net: 1_500 - 15 + 5, volume: 1.5 },
  { time: 6 * DAY, kind: 'withdrawal', net: -2_000 },
  { time: 7 * DAY, kind: 'trade', net: -300 - 5, volume: 0.5 },
];
const values = (points: { value: number }[]): number[] => points.map((p) => p.value);

describe('balanceSeries', () => {
  it('G1: 10000, 10485, 9475, 14475, 15965, 13965, 13660', () => {
    const points = balanceSeries(G1);
    expect(values(points)).toEqual([10_000, 10_485, 9_475, 14_475, 15_965, 13_965, 13_660]);
    expect(points.map((p) => p.timestamp)).toEqual(G1.map((e) => e.time));
  });
  it('starts from an opening balance', () => {
    expect(values(balanceSeries([{ time: 1, kind: 'trade', net: -50 }], 1_000))).toEqual([950]);
  });
  it('is empty for no entries', () => expect(balanceSeries([])).toEqual([]));
  it('sorts a copy of unsorted entries and leaves the input alone', () => {
    const unsorted: LedgerEntry[] = [
      { time: 2, kind: 'trade', net: 10 },
      { time: 1, kind: 'deposit', net: 100 },
    ];
    expect(balanceSeries(unsorted)).toEqual([
      { timestamp: 1, value: 100 },
      { timestamp: 2, value: 110 },
    ]);
    expect(unsorted[0]?.time).toBe(2);
  });
});

describe('growthSeries', () => {
  it('G1: chains 9475/10000 × 15965/14475 × 13660/13965 → 2.2208 %', () => {
    const g = values(growthSeries(G1));
    expect(g).toHaveLength(7);
    expect(g.at(-1)).toBeCloseTo(2.2208, 4);
  });
  it('G1: cash flows leave the series flat and sub-periods are chained', () => {
    const g = values(growthSeries(G1));
    expect(g[0]).toBe(0); // first deposit starts the chain
    expect(g[1]).toBeCloseTo(4.85, 10); // 10485 / 10000
    expect(g[2]).toBeCloseTo(-5.25, 10); // 9475 / 10000
    expect(g[3]).toBeCloseTo(g[2] ?? Number.NaN, 10); // deposit 5000: flat
    // 0.9475 × 15965 / 14475 = 1.0450319...
    expect(g[4]).toBeCloseTo(4.5032, 4);
    expect(g[5]).toBeCloseTo(g[4] ?? Number.NaN, 10); // withdrawal 2000: flat
  });
  it('stays at 0 for trades before any money is in', () => {
    expect(values(growthSeries([{ time: 1, kind: 'trade', net: 5 }]))).toEqual([0]);
  });
  it('measures from an opening balance', () => {
    expect(values(growthSeries([{ time: 1, kind: 'trade', net: 100 }], 1_000))[0]).toBeCloseTo(10, 10);
  });
  it('single deposit is 0 %', () => expect(values(growthSeries([{ time: 1, kind: 'deposit', net: 500 }]))).toEqual([0]));
  it('is empty for no entries', () => expect(growthSeries([])).toEqual([]));
  it('stays finite after the whole balance is withdrawn', () => {
    const g = values(
      growthSeries([
        { time: 1, kind: 'deposit', net: 1_000 },
        { time: 2, kind: 'trade', net: 100 },
        { time: 3, kind: 'withdrawal', net: -1_100 },
        { time: 4, kind: 'trade', net: -10 },
        { time: 5, kind: 'deposit', net: 500 },
        { time: 6, kind: 'trade', net: 50 },
      ]),
    );
    expect(g.every((x) => Number.isFinite(x))).toBe(true);
    // 1100/1000, then nothing invested, then the deposit reopens at 490: 1.1 × 540/490 − 1 = 21.2245 %
    expect(g[3]).toBeCloseTo(10, 10);
    expect(g.at(-1)).toBeCloseTo(21.2245, 4);
  });
  it('all-losing trades give a falling growth series', () => {
    const g = values(
      growthSeries([
        { time: 1, kind: 'deposit', net: 1_000 },
        { time: 2, kind: 'trade', net: -100 },
        { time: 3, kind: 'trade', net: -100 },
      ]),
    );
    expect(g[1]).toBeCloseTo(-10, 10);
    expect(g[2]).toBeCloseTo(-20, 10);
  });
});

describe('profitSeries and volumeSeries', () => {
  it('G1: cumulative trading profit 485, −525, 965, 660 (cash flows excluded)', () => {
    const points = profitSeries(G1);
    expect(values(points)).toEqual([485, -525, 965, 660]);
    expect(points.map((p) => p.timestamp)).toEqual([2 * DAY, 3 * DAY, 5 * DAY, 7 * DAY]);
  });
  it('G1: cumulative lots 1, 3, 4.5, 5', () => {
    expect(values(volumeSeries(G1))).toEqual([1, 3, 4.5, 5]);
  });
  it('count a trade without volume as 0 lots', () => {
    expect(values(volumeSeries([{ time: 1, kind: 'trade', net: 1 }]))).toEqual([0]);
  });
  it('are empty without trades', () => {
    expect(profitSeries([{ time: 1, kind: 'deposit', net: 100 }])).toEqual([]);
    expect(volumeSeries([])).toEqual([]);
  });
});

describe('drawdown', () => {
  const D1 = [10_000, 10_500, 9_800, 11_000, 9_900, 10_200];
  it('D1: DD% 0, 0, 6.6667, 0, 10, 7.2727', () => {
    const dd = values(drawdownSeries(D1.map((value, i) => ({ timestamp: i, value }))));
    const expected = [0, 0, 6.6667, 0, 10, 7.2727];
    expect(dd).toHaveLength(expected.length);
    expected.forEach((x, i) => expect(dd[i]).toBeCloseTo(x, 4));
  });
  it('D1: max drawdown 10 %', () => expect(maxDrawdownPct(D1)).toBeCloseTo(10, 10));
  it('is 0 for empty, single and rising series', () => {
    expect(maxDrawdownPct([])).toBe(0);
    expect(maxDrawdownPct([5])).toBe(0);
    expect(maxDrawdownPct([1, 2, 3])).toBe(0);
    expect(drawdownSeries([])).toEqual([]);
  });
  it('is 0 rather than NaN on a zero balance', () => {
    expect(maxDrawdownPct([0, 0])).toBe(0);
    expect(values(drawdownSeries([{ timestamp: 1, value: 0 }]))).toEqual([0]);
  });
  it('G1 growth index: the 2,000 withdrawal is not a loss', () => {
    const dd = values(drawdownFromGrowth(growthSeries(G1)));
    // Peak 1.0485 after trade 1; 0.9475 / 1.0485 → 9.6328 %; flat across deposit and withdrawal.
    expect(dd[0]).toBe(0);
    expect(dd[1]).toBe(0);
    expect(dd[2]).toBeCloseTo((1 - 0.9475 / 1.0485) * 100, 10);
    expect(dd[3]).toBeCloseTo(dd[2] ?? Number.NaN, 10);
    // Index 0.9475 × 15965 / 14475 = 1.045032 is still under the 1.0485 peak.
    const afterTrade3 = 0.9475 * (15_965 / 14_475);
    expect(dd[4]).toBeCloseTo((1 - afterTrade3 / 1.0485) * 100, 10);
    // The withdrawal leaves it unchanged, where the balance series would show 13965/15965 → 12.5 %.
    expect(dd[5]).toBeCloseTo(dd[4] ?? Number.NaN, 10);
    expect(dd[6]).toBeCloseTo((1 - 1.022208 / 1.0485) * 100, 3);
  });
  it('starts the growth index at 1 so a first losing trade is a drawdown', () => {
    expect(values(drawdownFromGrowth([{ timestamp: 1, value: -5 }]))[0]).toBeCloseTo(5, 10);
  });
});

describe('accountSummary', () => {
  it('G1: net profit 660, absolute gain 4.40 %, growth 2.2208 %', () => {
    const s = accountSummary(G1);
    expect(s.deposits).toBe(15_000);
    expect(s.withdrawals).toBe(2_000);
    expect(s.netProfit).toBe(660);
    expect(s.absoluteGainPct).toBeCloseTo(4.4, 10);
    expect(s.growthPct).toBeCloseTo(2.2208, 4);
    expect(s.balance).toBe(13_660);
  });
  it('is all zeros for no entries', () => {
    expect(accountSummary([])).toEqual({
      deposits: 0,
      withdrawals: 0,
      netProfit: 0,
      rebates: 0,
      absoluteGainPct: 0,
      growthPct: 0,
      balance: 0,
    });
  });
});

describe('a rebate credited (MT5 agent commission)', () => {
  // Deposit 10 000; a trade +150 with commission −3.50 (net 146.50); the month's agent commission +12.30.
  const entries: LedgerEntry[] = [
    { time: 1, kind: 'deposit', net: 10_000 },
    { time: 2, kind: 'trade', net: 146.5, volume: 1 },
    { time: 3, kind: 'rebate', net: 12.3 },
  ];

  it('moves the balance: 10 158.80', () => {
    expect(values(balanceSeries(entries))).toEqual([10_000, 10_146.5, 10_158.8]);
  });

  it('is income in the growth, not a deposit: 10 158.80 / 10 000 → 1.588 %', () => {
    // As a deposit it would open a new sub-period and leave the growth at 1.465 %.
    expect(values(growthSeries(entries)).at(-1)).toBeCloseTo(1.588, 10);
  });

  it('is no trading profit: the profit and volume series stay at the trade', () => {
    expect(values(profitSeries(entries))).toEqual([146.5]);
    expect(values(volumeSeries(entries))).toEqual([1]);
  });

  it('counts apart in the summary, and in the balance', () => {
    expect(accountSummary(entries)).toMatchObject({ deposits: 10_000, netProfit: 146.5, rebates: 12.3, balance: 10_158.8 });
  });
});
