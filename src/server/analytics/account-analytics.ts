import { drawdownFromGrowth, maxDrawdownFromGrowth } from '#shared/analytics/drawdown.ts';
import { growthSeries } from '#shared/analytics/performance.ts';
import {
  balanceSeries,
  profitSeries,
  volumeSeries,
  type LedgerEntry,
  type Point,
} from '#shared/analytics/series.ts';
import { netResult, tradeStats } from '#shared/analytics/trade-stats.ts';
import { isCashFlow, type Deal } from '#shared/domain/deal.ts';

export function toLedger(deals: readonly Deal[]): LedgerEntry[] {
  return deals.map((d) =>
    d.kind === 'trade'
      ? { time: d.at, kind: 'trade', net: d.net, volume: d.quantity }
      : { time: d.at, kind: d.kind, net: d.amount },
  );
}

export interface Series {
  balance: Point[];
  growth: Point[];
  profit: Point[];
  drawdown: Point[];
  volume: Point[];
}

/**
 * The performance series of an account over a period: history before `from` is folded into the
 * opening balance so the balance series stays true; growth, profit, drawdown and volume restart at `from`.
 * Cash flows are in every group; trades and rebates credited only where `keep` takes them (a rebate
 * has no market: it is in the account's whole series, not in its Forex or Equities ones).
 */
export function seriesOf(deals: readonly Deal[], from: number | undefined, keep: (d: Deal) => boolean): Series {
  const ledger = toLedger(deals.filter((d) => isCashFlow(d) || keep(d)));
  const start = from ?? -Infinity;
  const opening = ledger.filter((e) => e.time < start).reduce((s, e) => s + e.net, 0);
  const inPeriod = ledger.filter((e) => e.time >= start);
  const growth = growthSeries(inPeriod, opening);
  return {
    balance: balanceSeries(inPeriod, opening),
    growth,
    profit: profitSeries(inPeriod),
    drawdown: drawdownFromGrowth(growth),
    volume: volumeSeries(inPeriod),
  };
}

/** Max drawdown % of an account: on its time-weighted growth index, so withdrawals are not losses (docs/figures.md). */
export function maxDrawdownOf(deals: readonly Deal[]): number {
  return maxDrawdownFromGrowth(growthSeries(toLedger(deals)));
}

export function statsOf(trades: readonly Deal[]) {
  const closed = trades.map((d) => ({
    type: d.type ?? 'Buy',
    profit: d.profit,
    swap: d.swap,
    commission: d.commission,
    fee: d.fee,
    volume: d.quantity,
  }));
  const s = tradeStats(closed);
  const asTrade = (target: number | null) => {
    if (target === null) return null;
    const d = trades.find((_, i) => netResult(closed[i]!) === target);
    return d ? { datetime: d.at, symbol: d.symbol ?? '', type: d.type ?? '', profit: target } : null;
  };
  return { ...s, best: asTrade(s.best_trade), worst: asTrade(s.worst_trade) };
}
