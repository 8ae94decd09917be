import { z } from 'zod';
import { BoolParam, EpochSeconds, NullableNum, Num, Text } from './fields.ts';

export const HistoricalDealsQuery = z.strictObject({
  account: Text('account', 100).optional(),
  filter_rebalancing: BoolParam.optional(),
  start_date: z.coerce
    .number({ error: () => 'start_date must be epoch seconds' })
    .int('start_date must be epoch seconds')
    .min(0)
    .optional(),
});

/**
 * A historical deal (SPEC §3). Amounts are in the account currency (`currency`); the `*_currency`
 * figures in EUR. `rebate` is null for callers without read_rebate. Cash flows have type
 * 'Deposit' or 'Withdrawal' and category 'Balance'; an imported statement's opening balance (the
 * balance before its period, docs/statements.md) has type 'Opening balance'.
 */
export const Deal = z.object({
  symbol: z.string(),
  type: z.string(),
  category: z.string(),
  server: z.string(),
  currency: z.string(),
  login: z.string(),
  open_price: NullableNum,
  open_price_currency: NullableNum,
  close_price: NullableNum,
  profit: Num,
  profit_currency: Num,
  swap: Num,
  swap_currency: Num,
  quantity: Num,
  quantity_currency: Num,
  datetime: EpochSeconds,
  fee: Num,
  fee_currency: Num,
  commission: Num,
  rebate: NullableNum,
  is_rebalancing: z.boolean(),
});
export type Deal = z.infer<typeof Deal>;

const Point = z.object({ timestamp: EpochSeconds, value: Num });
const Group = z.object({
  balance: z.array(Point),
  growth: z.array(Point),
  profit: z.array(Point),
  drawdown: z.array(Point),
  volume: z.array(Point),
});
export type SeriesGroup = z.infer<typeof Group>;

const Trade = z.object({ datetime: EpochSeconds, symbol: z.string(), type: z.string(), profit: Num });
export const DealStats = z.object({
  best_trade: Trade.nullable(),
  worst_trade: Trade.nullable(),
  win: z.number().int(),
  loss: z.number().int(),
  longs_won: Num,
  shorts_won: Num,
  lots: Num,
  commissions: Num,
  swap: Num,
  average_win: Num,
  average_loss: Num,
  profit_factor: NullableNum,
  /** Balance drawdown %: on the time-weighted growth index of the balance. */
  max_drawdown: Num,
  growth: Num,
  net_profit: Num,
  /** Risk statistics (docs/copy-quality.md, "Risk statistics"): null where undefined (too few returns, no deviation, no drawdown). */
  sharpe_ratio: NullableNum,
  sortino_ratio: NullableNum,
  /** Daily NAV returns behind Sharpe, Sortino and the equity drawdown. */
  return_days: z.number().int(),
  /** Percent, on the end-of-day NAV with cash flows neutralised. */
  equity_drawdown: NullableNum,
  /** Mean net result per closed trade, account currency. */
  expectancy: NullableNum,
  /** Largest fall of the cumulative trading result, account currency. */
  max_drawdown_money: Num,
  recovery_factor: NullableNum,
});

export const HistoricalDealsResponse = z.object({
  dealsStats: z.array(
    z.object({
      account: z.string(),
      currency: z.string(),
      deals: z.array(Deal),
      all: Group.extend({ stats: DealStats }),
      fx: Group,
      equities: Group,
    }),
  ),
});
export type HistoricalDealsResponse = z.infer<typeof HistoricalDealsResponse>;
