import { finiteOrZero, sum } from './stats.ts';
import { cents } from '#shared/domain/money.ts';
import type { ClosedTrade } from '#shared/domain/book-events.ts';

/**
 * A closed trade as the statistics read it: its direction, its money and its lots (`volume`), whether a
 * deal on the books or a trade the broker reported (src/shared/domain/deal.ts, book-events.ts).
 */
export interface TradeFigures extends Pick<ClosedTrade, 'type' | 'profit' | 'swap' | 'commission' | 'fee'> {
  /** Lots. */
  volume: number;
}

export interface TradeStats {
  win: number;
  loss: number;
  average_win: number;
  average_loss: number;
  best_trade: number | null;
  worst_trade: number | null;
  longs_won: number;
  shorts_won: number;
  lots: number;
  commissions: number;
  swap: number;
  profit_factor: number | null;
  gross_profit: number;
  gross_loss: number;
}

/** Net result of a closed trade: profit + swap + commission + fee (docs/figures.md, ours). */
export function netResult(t: Pick<ClosedTrade, 'profit' | 'swap' | 'commission' | 'fee'>): number {
  return finiteOrZero(t.profit) + finiteOrZero(t.swap) + finiteOrZero(t.commission) + finiteOrZero(t.fee);
}

/**
 * An account's trading costs, what the Account info panel shows as 'Fees': its commission and its
 * fees (accounts/info keeps them apart, `total_commission` and `total_fees`).
 */
export function tradingCosts(account: { total_commission: number; total_fees: number }): number {
  return cents(finiteOrZero(account.total_commission) + finiteOrZero(account.total_fees));
}

/** Profit factor: gross profit ÷ |gross loss| of the net results (MT5 testing report); null without a losing trade. */
export function profitFactor(results: readonly number[]): number | null {
  const losses = results.filter((p) => p < 0);
  return losses.length > 0 ? sum(results.filter((p) => p > 0)) / Math.abs(sum(losses)) : null;
}

function percent(part: number, whole: number): number {
  return whole > 0 ? (part / whole) * 100 : 0;
}

/** Win/loss, averages, best/worst, longs/shorts won, lots, costs and profit factor (MT5 testing report definitions). */
export function tradeStats(trades: readonly TradeFigures[]): TradeStats {
  const results = trades.map(netResult);
  const wins = results.filter((p) => p > 0);
  const losses = results.filter((p) => p < 0);
  const grossProfit = sum(wins);
  const grossLoss = sum(losses);
  let buys = 0;
  let buysWon = 0;
  let sells = 0;
  let sellsWon = 0;
  trades.forEach((t, i) => {
    const won = (results[i] ?? 0) > 0;
    if (t.type === 'Buy') {
      buys++;
      if (won) buysWon++;
    } else {
      sells++;
      if (won) sellsWon++;
    }
  });
  return {
    win: wins.length,
    loss: losses.length,
    average_win: wins.length > 0 ? grossProfit / wins.length : 0,
    average_loss: losses.length > 0 ? grossLoss / losses.length : 0,
    best_trade: results.length > 0 ? Math.max(...results) : null,
    worst_trade: results.length > 0 ? Math.min(...results) : null,
    longs_won: percent(buysWon, buys),
    shorts_won: percent(sellsWon, sells),
    lots: sum(trades.map((t) => t.volume)),
    commissions: sum(trades.map((t) => t.commission)),
    swap: sum(trades.map((t) => t.swap)),
    profit_factor: profitFactor(results),
    gross_profit: grossProfit,
    gross_loss: grossLoss,
  };
}
