import { z } from 'zod';
import { BoolParam, EpochSeconds, Measure, Money, Percent, PortfolioParam, Text } from './fields.ts';

/** GET /api/brokers/accounts/info query. `portfolio` (ours) narrows to one authorised portfolio. */
export const AccountsInfoQuery = z.strictObject({
  only_broker_name: BoolParam.optional(),
  portfolio: PortfolioParam.optional(),
  /**
   * Ours: the accounts of this portfolio's real-time NAV instead (docs/architecture.md, "NAV
   * membership"): among the caller's portfolios, the NAV rule's accounts with a non-zero balance.
   */
  nav_portfolio: PortfolioParam.optional(),
});

/**
 * Account (docs/product.md#fields) plus the figures of the Account info panel; each field's meaning is in
 * docs/architecture.md ("API decisions"). Money is in the account currency; the `*_currency` figures
 * are the same amounts in EUR (the portfolio reporting currency). `total_rebate` is null for callers
 * without read_rebate.
 */
export const Account = z.object({
  id: z.number().int(),
  account_id: z.string(),
  account: z.string(),
  account_name: z.string(),
  broker_name: z.string(),
  img_path: z.string(),
  teiko_category: z.string(),
  balance: Money,
  equity: Money,
  /** Floating P/L in % of the balance. */
  equity_perc: Percent,
  /** Floating P/L: equity − balance. */
  pnl: Money,
  /** Milliseconds. */
  ping: Measure,
  /** Σ fee of the closed trades (the broker's fees; commission is total_commission). */
  total_fees: Money,
  total_swap: Money,
  currency: z.string(),
  last_update: EpochSeconds,
  account_currency: z.string(),
  balance_currency: Money,
  /** Ours: equity and floating P/L in EUR, so a portfolio's accounts add up. */
  equity_currency: Money,
  pnl_currency: Money,
  server: z.string(),
  server_name: z.string(),
  is_master: z.boolean(),
  gross_profit: Money,
  net_profit: Money,
  total_commission: Money,
  /** Σ rebates: earned by the trades and credited as deals of their own (MT5 agent commission). */
  total_rebate: Money.nullable(),
  margin: Money,
  margin_level: Percent.nullable(),
  /**
   * Ours: how the account is fed — `simulated` (the demo market), `terminal` (a terminal agent reports
   * it live), `statement` (its broker's statements: figures as of the last one booked, no orders here).
   */
  feed: z.enum(['simulated', 'terminal', 'statement']),
});
export type Account = z.infer<typeof Account>;

export const Broker = z.object({
  broker_name: z.string(),
  img_path: z.string(),
  teiko_categories: z.array(z.string()),
});
export type Broker = z.infer<typeof Broker>;

export const AccountsInfoResponse = z.object({ data: z.array(Account) });
export const BrokersResponse = z.object({ data: z.array(Broker) });

/** GET /api/brokers/accounts/historical-losses: realised net P/L per account over three windows (docs/product.md#constants). */
export const HistoricalLoss = z.object({
  account_id: z.string(),
  account_name: z.string(),
  currency: z.string(),
  pnl_24_hours: Money,
  pnl_2_days: Money,
  pnl_7_days: Money,
  /** Ours: the same windows in EUR. */
  pnl_24_hours_currency: Money,
  pnl_2_days_currency: Money,
  pnl_7_days_currency: Money,
});
export type HistoricalLoss = z.infer<typeof HistoricalLoss>;
export const HistoricalLossesResponse = z.object({ data: z.array(HistoricalLoss) });

export const MaxDrawdownQuery = z.strictObject({ account: Text('account', 100).optional() });
export const MaxDrawdownResponse = z.object({ max_drawdown_percentage: Percent });
