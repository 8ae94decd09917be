import { describe, expect, it } from 'vitest';
import type { HistoricalDealsResponse } from '#shared/contract/deals.ts';
import { chartPoints, hasNoChartData, nearestIndex } from './chart-series.ts';

type Pt = { timestamp: number; value: number };
const empty: Record<'balance' | 'growth' | 'profit' | 'drawdown' | 'volume', Pt[]> = { balance: [], growth: [], profit: [], drawdown: [], volume: [] };
function response(all: Partial<typeof empty>): HistoricalDealsResponse {
  return {
    dealsStats: [
      {
        account: 'A1',
        currency: 'USD',
        deals: [],
        all: {
          ...empty,
          ...all,
          stats: {
            best_trade: null,
            worst_trade: null,
            win: 0,
            loss: 0,
            longs_won: 0,
            shorts_won: 0,
            lots: 0,
            commissions: 0,
            swap: 0,
            average_win: 0,
            average_loss: 0,
            profit_factor: null,
            max_drawdown: 0,
            growth: 0,
            net_profit: 0,
            sharpe_ratio: null,
            sortino_ratio: null,
            return_days: 0,
            equity_drawdown: null,
            expectancy: null,
            max_drawdown_money: 0,
            recovery_factor: null,
          },
        },
        fx: empty,
        equities: empty,
      },
    ],
  };
}

describe('chart series', () => {
  it('plots the series named by the chart type', () => {
    const r = response({ balance: [{ timestamp: 1, value: 10_000 }], drawdown: [{ timestamp: 1, value: 0 }] });
    expect(chartPoints(r, 'Balance')).toEqual([{ timestamp: 1, value: 10_000 }]);
    expect(chartPoints(r, 'Growth')).toEqual([]);
    expect(hasNoChartData(r)).toBe(false);
  });

  it('knows a response without an account or without points', () => {
    expect(chartPoints({ dealsStats: [] }, 'Balance')).toBeNull();
    expect(hasNoChartData({ dealsStats: [] })).toBe(true);
    expect(hasNoChartData(response({}))).toBe(true);
  });

  it('finds the nearest point in time', () => {
    const points = [10, 20, 40].map((timestamp) => ({ timestamp, value: 0 }));
    expect(nearestIndex(points, 0)).toBe(0);
    expect(nearestIndex(points, 14)).toBe(0);
    expect(nearestIndex(points, 16)).toBe(1);
    expect(nearestIndex(points, 31)).toBe(2);
    expect(nearestIndex(points, 99)).toBe(2);
    expect(nearestIndex([], 5)).toBe(-1);
  });
});
