import { z } from 'zod';
import { BoolParam, EpochSeconds, Measure, Money, Percent, Price, Ratio, Text } from './fields.ts';

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
 * A historical deal (docs/product.md#fields); each field's meaning is in docs/architecture.md ("API decisions").
 * Amounts are in the account currency (`currency`); the `*_currency` figures in EUR. `rebate` is
 * null for callers without read_rebate. A row that is no trade has category 'Balance' and type
 * 'Deposit', 'Withdrawal' or 'Rebate' (a rebate the broker credited: `profit` and `rebate` both hold it),
 * or its MT5 deal type's name: 'Bonus', 'Charge', 'Correction', 'Commission', 'Daily commission',
 * 'Monthly commission', 'Interest', 'Dividend', 'Franked dividend', 'Tax' (docs/architecture.md, "Deal
 * types on the books"); an imported statement's opening balance (the balance before its period,
 * docs/statements.md) has type 'Opening balance'.
 */
export const HistoricalDeal = z.object({
  symbol: z.string(),
  type: z.string(),
  category: z.string(),
  server: z.string(),
  currency: z.string(),
  login: z.string(),
  open_price: Price.nullable(),
  /** The open price converted from the quote currency into EUR (6 decimals, as prices are stored). */
  open_price_currency: Price.nullable(),
  close_price: Price.nullable(),
  profit: Money,
  profit_currency: Money,
  swap: Money,
  swap_currency: Money,
  /** Lots. */
  quantity: Measure,
  /** What the lots were worth at the open, in EUR (lots × contract size × open price). */
  quantity_currency: Money,
  datetime: EpochSeconds,
  fee: Money,
  fee_currency: Money,
  commission: Money,
  /** Ours: the commission in EUR. */
  commission_currency: Money,
  rebate: Money.nullable(),
  is_rebalancing: z.boolean(),
});
export type HistoricalDeal = z.infer<typeof HistoricalDeal>;

const point = <T extends z.ZodType<number>>(value: T) => z.object({ timestamp: EpochSeconds, value });
const Group = z.object({
  balance: z.array(point(Money)),
  growth: z.array(point(Percent)),
  profit: z.array(point(Money)),
  drawdown: z.array(point(Percent)),
  volume: z.array(point(Measure)),
});
export type SeriesGroup = z.infer<typeof Group>;

const Trade = z.object({ datetime: EpochSeconds, symbol: z.string(), type: z.string(), profit: Money });
export const DealStats = z.object({
  best_trade: Trade.nullable(),
  worst_trade: Trade.nullable(),
  win: z.number().int(),
  loss: z.number().int(),
  longs_won: Percent,
  shorts_won: Percent,
  lots: Measure,
  commissions: Money,
  swap: Money,
  average_win: Money,
  average_loss: Money,
  profit_factor: Ratio.nullable(),
  /** Balance drawdown %: on the time-weighted growth index of the balance. */
  max_drawdown: Percent,
  growth: Percent,
  net_profit: Money,
  /** Risk statistics (docs/copy-quality.md, "Risk statistics"): null where undefined (too few returns, no deviation, no drawdown). */
  sharpe_ratio: Ratio.nullable(),
  sortino_ratio: Ratio.nullable(),
  /** Daily NAV returns behind Sharpe, Sortino and the equity drawdown. */
  return_days: z.number().int(),
  /** Percent, on the end-of-day NAV with cash flows neutralised. */
  equity_drawdown: Percent.nullable(),
  /** Mean net result per closed trade, account currency. */
  expectancy: Money.nullable(),
  /** Largest fall of the cumulative trading result, account currency. */
  max_drawdown_money: Money,
  recovery_factor: Ratio.nullable(),
});

export const HistoricalDealsResponse = z.object({
  dealsStats: z.array(
    z.object({
      account: z.string(),
      currency: z.string(),
      deals: z.array(HistoricalDeal),
      all: Group.extend({ stats: DealStats }),
      fx: Group,
      equities: Group,
    }),
  ),
});
export type HistoricalDealsResponse = z.infer<typeof HistoricalDealsResponse>;
