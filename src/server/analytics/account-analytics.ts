import { drawdownFromGrowth, maxDrawdownFromGrowth } from '#shared/analytics/drawdown.ts';
import {
  balanceSeries,
  growthSeries,
  profitSeries,
  volumeSeries,
  type LedgerEntry,
  type Point,
} from '#shared/analytics/series.ts';
import { netResult, tradeStats } from '#shared/analytics/trade-stats.ts';
import type { DealRecord } from '#server/db/deals-repo.ts';

// These read the repository's DealRecord rows (see its note in src/server/db/deals-repo.ts).

const epoch = (d: Date): number => Math.floor(d.getTime() / 1000);

export function toLedger(deals: readonly DealRecord[]): LedgerEntry[] {
  return deals.map((d) =>
    d.kind === 'trade'
      ? { time: epoch(d.datetime), kind: 'trade', net: d.net, volume: d.quantity }
      : { time: epoch(d.datetime), kind: d.kind, net: d.amount },
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
export function seriesOf(deals: readonly DealRecord[], from: number | undefined, keep: (d: DealRecord) => boolean): Series {
  const ledger = toLedger(deals.filter((d) => d.kind === 'deposit' || d.kind === 'withdrawal' || keep(d)));
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
export function maxDrawdownOf(deals: readonly DealRecord[]): number {
  return maxDrawdownFromGrowth(growthSeries(toLedger(deals)));
}

export function statsOf(trades: readonly DealRecord[]) {
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
    return d ? { datetime: epoch(d.datetime), symbol: d.symbol ?? '', type: d.type ?? '', profit: target } : null;
  };
  return { ...s, best: asTrade(s.best_trade), worst: asTrade(s.worst_trade) };
}
