import { describe, expect, it } from 'vitest';
import type { TradeFigures } from './trade-stats.ts';
import { netResult, tradeStats, tradingCosts } from './trade-stats.ts';

const trade = (type: TradeFigures['type'], profit: number, extra: Partial<TradeFigures> = {}): TradeFigures => ({
  type,
  profit,
  swap: 0,
  commission: 0,
  fee: 0,
  volume: 1,
  ...extra,
});

// docs/figures.md example S1: +120 Buy, +80 Sell, −50 Buy, −150 Sell, +200 Buy, −30 Sell.
const S1 = [
  trade('Buy', 120),
  trade('Sell', 80),
  trade('Buy', -50),
  trade('Sell', -150),
  trade('Buy', 200),
  trade('Sell', -30),
];

describe('netResult', () => {
  it('is profit + swap + commission + fee', () => {
    expect(netResult(trade('Buy', 500, { swap: -5, commission: -10, fee: -1 }))).toBe(484);
  });
});

describe('tradeStats', () => {
  it('S1', () => {
    const s = tradeStats(S1);
    expect(s.win).toBe(3);
    expect(s.loss).toBe(3);
    expect(s.average_win).toBeCloseTo(133.3333, 4);
    expect(s.average_loss).toBeCloseTo(-76.6667, 4);
    expect(s.best_trade).toBe(200);
    expect(s.worst_trade).toBe(-150);
    expect(s.longs_won).toBeCloseTo(66.6667, 4);
    expect(s.shorts_won).toBeCloseTo(33.3333, 4);
    expect(s.profit_factor).toBeCloseTo(1.7391, 4);
    expect(s.gross_profit).toBe(400);
    expect(s.gross_loss).toBe(-230);
    expect(s.lots).toBe(6);
  });
  it('classifies by net result and sums lots, commissions and swap', () => {
    // +5 profit eaten by −7 commission is a loss; a net 0 trade is neither.
    const s = tradeStats([
      trade('Buy', 5, { commission: -7, swap: 0.5, volume: 0.1 }),
      trade('Sell', 3, { commission: -3, volume: 0.2 }),
    ]);
    expect(s.win).toBe(0);
    expect(s.loss).toBe(1);
    expect(s.average_loss).toBeCloseTo(-1.5, 10);
    expect(s.best_trade).toBe(0);
    expect(s.lots).toBeCloseTo(0.3, 10);
    expect(s.commissions).toBe(-10);
    expect(s.swap).toBe(0.5);
  });
  it('no trades: zeros, best/worst and profit factor null', () => {
    expect(tradeStats([])).toEqual({
      win: 0,
      loss: 0,
      average_win: 0,
      average_loss: 0,
      best_trade: null,
      worst_trade: null,
      longs_won: 0,
      shorts_won: 0,
      lots: 0,
      commissions: 0,
      swap: 0,
      profit_factor: null,
      gross_profit: 0,
      gross_loss: 0,
    });
  });
  it('single winning buy: 100 % longs won, no shorts, profit factor null', () => {
    const s = tradeStats([trade('Buy', 42)]);
    expect(s.longs_won).toBe(100);
    expect(s.shorts_won).toBe(0);
    expect(s.best_trade).toBe(42);
    expect(s.worst_trade).toBe(42);
    expect(s.profit_factor).toBeNull();
  });
  it('all-losing trades: profit factor 0, average win 0', () => {
    const s = tradeStats([trade('Buy', -10), trade('Sell', -30)]);
    expect(s.profit_factor).toBe(0);
    expect(s.average_win).toBe(0);
    expect(s.average_loss).toBe(-20);
    expect(s.longs_won).toBe(0);
    expect(s.shorts_won).toBe(0);
  });
});

describe('trading costs (the Account info panel\'s Fees)', () => {
  it('adds the commission and the fees, which accounts/info keeps apart', () => {
    // commission −3.50 − 1.75, fee −0.20: costs −5.45
    expect(tradingCosts({ total_commission: -5.25, total_fees: -0.2 })).toBe(-5.45);
  });
});
