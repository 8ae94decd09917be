import { describe, expect, it } from 'vitest';
import {
  brokerRanking,
  copiedTrade,
  copyCostEur,
  copyDelayMs,
  currencyExposure,
  entrySlippage,
  exitSlippage,
  linkCopies,
  periodGrowth,
  slippageBreach,
  slippageMoney,
  trackingDifference,
  type CopiedTrade,
  type CopyTrade,
} from './copy-quality.ts';

// 1 USD = 0.9 EUR, 1 JPY = 0.006 EUR.
const rates = new Map([['EUR', 1], ['USD', 0.9], ['JPY', 0.006]]);

let nextId = 1;
const trade = (t: Partial<CopyTrade> & Pick<CopyTrade, 'accountId' | 'symbol' | 'type' | 'openedAt'>): CopyTrade => ({
  id: nextId++,
  category: 'Forex',
  quantity: 1,
  openPrice: 1.085,
  closePrice: 1.09,
  execMs: 100,
  swap: 0,
  commission: 0,
  fee: 0,
  positionId: null,
  copyOf: null,
  ...t,
});

describe('the slippage alert', () => {
  it('a forex copy filled 2.5 pips worse than its master is past the 2-pip threshold', () => {
    // (1.08525 − 1.08500) / 0.0001 = 2.5 pips
    expect(slippageBreach('Buy', 1.085, 1.08525, 'EURUSD', 'Forex')).toEqual({ worse: 2.5, unit: 'pips', threshold: 2 });
  });

  it('exactly 2 pips worse is not past it, nor a better fill', () => {
    expect(slippageBreach('Buy', 1.085, 1.0852, 'EURUSD', 'Forex')).toBeNull();
    expect(slippageBreach('Sell', 1.085, 1.0852, 'EURUSD', 'Forex')).toBeNull();
  });

  it('a JPY pair counts pips of 0.01: a sell 3 pips lower is past it', () => {
    expect(slippageBreach('Sell', 150, 149.97, 'USDJPY', 'Forex')).toEqual({ worse: 3, unit: 'pips', threshold: 2 });
  });

  it('a share copy is judged in basis points of its master’s price: 15 bps past 10, 5 bps within', () => {
    // Master bought at 200.00; follower at 200.30: 0.30 / 200 = 15 bps. At 200.10: 5 bps.
    expect(slippageBreach('Buy', 200, 200.3, 'AAPL', 'Equities')).toEqual({ worse: 15, unit: 'bps', threshold: 10 });
    expect(slippageBreach('Buy', 200, 200.1, 'AAPL', 'Equities')).toBeNull();
  });
});

describe('slippage', () => {
  it('a buy filled 2 pips higher than its master is 2 pips worse', () => {
    // (1.08520 − 1.08500) / 0.0001 = 2
    expect(entrySlippage('Buy', 1.085, 1.0852, 'EURUSD', 'Forex').distance).toBeCloseTo(2, 9);
  });

  it('a sell filled 2 pips lower than its master is 2 pips worse', () => {
    expect(entrySlippage('Sell', 1.085, 1.0848, 'EURUSD', 'Forex').distance).toBeCloseTo(2, 9);
  });

  it('a better fill is negative slippage', () => {
    expect(entrySlippage('Buy', 1.085, 1.0849, 'EURUSD', 'Forex').distance).toBeCloseTo(-1, 9);
  });

  it('a JPY pair counts pips of 0.01', () => {
    // (150.03 − 150.00) / 0.01 = 3
    expect(entrySlippage('Buy', 150, 150.03, 'USDJPY', 'Forex').distance).toBeCloseTo(3, 9);
  });

  it('a buy closed 1 pip lower than its master is 1 pip worse at exit', () => {
    expect(exitSlippage('Buy', 1.09, 1.0899, 'EURUSD', 'Forex').distance).toBeCloseTo(1, 9);
    expect(exitSlippage('Sell', 1.09, 1.0901, 'EURUSD', 'Forex').distance).toBeCloseTo(1, 9);
  });

  it('shares count the price distance', () => {
    expect(entrySlippage('Buy', 190, 190.05, 'AAPL', 'Equities').distance).toBeCloseTo(0.05, 9);
  });

  it('costs the distance times the contract and the size, in the account currency', () => {
    // 3 pips = 0.0003 × 100,000 × 0.5 lot = 15 USD = 13.50 EUR
    expect(slippageMoney(0.0003, 0.5, 'EURUSD', 'USD', rates)).toBeCloseTo(15, 9);
    expect(slippageMoney(0.0003, 0.5, 'EURUSD', 'EUR', rates)).toBeCloseTo(13.5, 9);
  });
});

describe('copy delay', () => {
  it('is the difference of the execution times when both opened in the same second', () => {
    expect(copyDelayMs({ openedAt: 1000, execMs: 120 }, { openedAt: 1000, execMs: 135 })).toBe(15);
  });

  it('adds the seconds between the two openings', () => {
    expect(copyDelayMs({ openedAt: 1000, execMs: 120 }, { openedAt: 1002, execMs: 135 })).toBe(2015);
  });
});

describe('linking copies to their master', () => {
  const M = 1;
  const F = 2;
  const m1 = trade({ accountId: M, symbol: 'EURUSD', type: 'Buy', openedAt: 1000, positionId: 11 });
  const m2 = trade({ accountId: M, symbol: 'GBPUSD', type: 'Sell', openedAt: 2000, positionId: 12 });
  const m3 = trade({ accountId: M, symbol: 'EURUSD', type: 'Buy', openedAt: 5000, positionId: 13 });
  const f1 = trade({ accountId: F, symbol: 'EURUSD', type: 'Buy', openedAt: 1000, copyOf: 11 });
  const f2 = trade({ accountId: F, symbol: 'GBPUSD', type: 'Sell', openedAt: 2030 });
  const f3 = trade({ accountId: F, symbol: 'GBPUSD', type: 'Sell', openedAt: 2040 });
  const f4 = trade({ accountId: F, symbol: 'USDJPY', type: 'Buy', openedAt: 3000 });
  const linked = linkCopies([m1, m2, m3], [f4, f3, f2, f1], 0);

  it('takes the copy engine\'s record where there is one', () => {
    expect(linked.links.find((l) => l.follower === f1)).toEqual({ master: m1, follower: f1, inferred: false });
  });

  it('infers a link by symbol, side and time within the window, and says so', () => {
    expect(linked.links.find((l) => l.follower === f2)).toEqual({ master: m2, follower: f2, inferred: true });
  });

  it('counts a second copy of one master trade as a duplicate', () => {
    expect(linked.duplicates.map((l) => l.follower)).toEqual([f3]);
  });

  it('counts a trade with no master trade as manual', () => {
    expect(linked.manual).toEqual([f4]);
  });

  it('counts a master trade without a copy as uncopied, from the follower\'s start only', () => {
    expect(linked.uncopied).toEqual([m3]);
    expect(linkCopies([m1, m2, m3], [f1, f2], 6000).uncopied).toEqual([]);
  });

  it('counts a master position closed in two parts as one trade: copied when its copy is, else missed once', () => {
    // Master position 21 closed 0.4 lot, then the rest: two round trips of one trade.
    const part1 = trade({ accountId: M, symbol: 'EURUSD', type: 'Buy', openedAt: 7000, positionId: 21 });
    const part2 = trade({ accountId: M, symbol: 'EURUSD', type: 'Buy', openedAt: 7000, positionId: 21 });
    const copy = trade({ accountId: F, symbol: 'EURUSD', type: 'Buy', openedAt: 7001, copyOf: 21 });
    expect(linkCopies([part1, part2], [copy], 0).uncopied).toEqual([]);
    expect(linkCopies([part1, part2], [], 0).uncopied).toHaveLength(1);
  });

  it('does not link a trade of the other side or past the window', () => {
    const far = trade({ accountId: F, symbol: 'EURUSD', type: 'Buy', openedAt: 5061 });
    const other = trade({ accountId: F, symbol: 'EURUSD', type: 'Sell', openedAt: 5000 });
    const res = linkCopies([m3], [far, other], 0);
    expect(res.links).toEqual([]);
    expect(res.manual).toEqual([other, far]);
  });
});

describe('one copied trade and its cost', () => {
  // Master (USD account) buys 1 lot EURUSD at 1.08500, closes at 1.09000, swap −4 USD.
  // Follower (EUR account, ratio 0.5) buys 0.5 at 1.08520 (2 pips worse), closes at 1.08990 (1 pip
  // worse), commission −3.50 EUR, swap −2.50 EUR.
  const master = trade({ accountId: 1, symbol: 'EURUSD', type: 'Buy', openedAt: 1000, openPrice: 1.085, closePrice: 1.09, swap: -4, execMs: 120 });
  const follower = trade({ accountId: 2, symbol: 'EURUSD', type: 'Buy', openedAt: 1000, quantity: 0.5, openPrice: 1.0852, closePrice: 1.0899, commission: -3.5, swap: -2.5, execMs: 135 });
  const ctx = { currency: 'EUR', masterCurrency: 'USD', terms: { sizing: { mode: 'ratio', ratio: 0.5 }, maxLot: null } as const, rates };
  const link = { master, follower, inferred: false };

  it('reports slippage in pips and money, the delay and the size against the rule', () => {
    const t = copiedTrade(link, ctx);
    expect(t.entry_slippage).toBeCloseTo(2, 9);
    expect(t.exit_slippage).toBeCloseTo(1, 9);
    // 3 pips × 100,000 × 0.5 = 15 USD = 13.50 EUR (the account is in EUR)
    expect(t.slippage_cost).toBeCloseTo(13.5, 9);
    expect(t.slippage_cost_eur).toBeCloseTo(13.5, 9);
    expect(t.delay_ms).toBe(15);
    expect(t.expected_quantity).toBe(0.5);
    expect(t.size_ratio).toBe(0.5);
  });

  it('costs slippage + commissions + the swap beyond the master\'s, in EUR', () => {
    // 13.50 slippage + 3.50 commission + (−4 USD × 0.5 × 0.9 = −1.80 EUR, minus −2.50 EUR = 0.70) = 17.70
    expect(copyCostEur(link, ctx)).toBeCloseTo(17.7, 9);
  });
});

describe('tracking difference', () => {
  it('is the follower\'s time-weighted return minus its master\'s', () => {
    // Follower 10,000 → +500 = 5 %; master 20,000 → +1,200 = 6 %; difference −1 point.
    const follower = { opening: 10_000, entries: [{ time: 10, kind: 'trade' as const, net: 500 }] };
    const master = { opening: 20_000, entries: [{ time: 10, kind: 'trade' as const, net: 1_200 }] };
    expect(trackingDifference(follower, master)).toBeCloseTo(-1, 9);
  });

  it('chains sub-periods at cash flows (docs/figures.md example G1: 2.2208 %)', () => {
    const entries = [
      { time: 1, kind: 'deposit' as const, net: 10_000 },
      { time: 2, kind: 'trade' as const, net: 485 },
      { time: 3, kind: 'trade' as const, net: -1_010 },
      { time: 4, kind: 'deposit' as const, net: 5_000 },
      { time: 5, kind: 'trade' as const, net: 1_490 },
      { time: 6, kind: 'withdrawal' as const, net: -2_000 },
      { time: 7, kind: 'trade' as const, net: -305 },
    ];
    expect(periodGrowth(entries, 0)).toBeCloseTo(2.2208, 3);
  });
});

describe('broker ranking', () => {
  const t = (entry: number, delay: number): CopiedTrade => ({
    symbol: 'EURUSD', type: 'Buy', category: 'Forex', opened_at: 0, master_quantity: 1, quantity: 1, expected_quantity: 1, size_ratio: 1,
    entry_slippage: entry, exit_slippage: 0, slippage_unit: 'pips', slippage_cost: 10 * entry, slippage_cost_eur: 10 * entry, delay_ms: delay, inferred: false,
  });

  it('leaves a cost unknown without the rate, rather than guess it', () => {
    const noRates = new Map([['EUR', 1]]);
    expect(slippageMoney(0.0003, 0.5, 'EURUSD', 'EUR', noRates)).toBeNull();
    const [eurLeg, usdLeg] = currencyExposure([{ symbol: 'EURUSD', type: 'Buy', category: 'Forex', quantity: 1, price: 1.1 }], noRates);
    expect(eurLeg).toEqual({ currency: 'EUR', exposure: 100_000, exposure_eur: 100_000 });
    expect(usdLeg!.currency).toBe('USD');
    expect(usdLeg!.exposure).toBeCloseTo(-110_000, 6);
    expect(usdLeg!.exposure_eur).toBeNull();
  });

  it('ranks the lowest average slippage first, with its worst and its delays', () => {
    const ranked = brokerRanking([
      { broker_name: 'Alpha', trade: t(1, 100) },
      { broker_name: 'Alpha', trade: t(3, 200) },
      { broker_name: 'Beta', trade: t(0.5, 400) },
    ]);
    expect(ranked.map((r) => r.broker_name)).toEqual(['Beta', 'Alpha']);
    expect(ranked[1]).toEqual({
      broker_name: 'Alpha', trades: 2, avg_entry_slippage_pips: 2, worst_entry_slippage_pips: 3, avg_slippage_cost_eur: 20, avg_delay_ms: 150, worst_delay_ms: 200,
    });
  });
});

describe('currency exposure', () => {
  it('is long the base and short the quote of a forex buy, and the quote currency of shares, in EUR', () => {
    const exposure = currencyExposure(
      [
        // EUR +100,000 (100,000 EUR); USD −110,000 (−99,000 EUR)
        { symbol: 'EURUSD', type: 'Buy', category: 'Forex', quantity: 1, price: 1.1 },
        // USD −50,000 (−45,000 EUR); JPY +7,500,000 (+45,000 EUR)
        { symbol: 'USDJPY', type: 'Sell', category: 'Forex', quantity: 0.5, price: 150 },
        // USD +2,000 (+1,800 EUR)
        { symbol: 'AAPL', type: 'Buy', category: 'Equities', quantity: 10, price: 200 },
      ],
      rates,
    );
    expect(exposure.map((e) => e.currency)).toEqual(['USD', 'EUR', 'JPY']);
    // In its own units: USD −110,000 − 50,000 + 2,000 = −158,000.
    expect(exposure[0]!.exposure).toBeCloseTo(-158_000, 6);
    expect(exposure[0]!.exposure_eur).toBeCloseTo(-142_200, 6);
    expect(exposure[1]!.exposure_eur).toBeCloseTo(100_000, 6);
    expect(exposure[2]!.exposure_eur).toBeCloseTo(45_000, 6);
  });
});
