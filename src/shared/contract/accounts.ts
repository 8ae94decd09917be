import { z } from 'zod';
import { BoolParam, EpochSeconds, NullableNum, Num, PortfolioParam, Text } from './fields.ts';

/** GET /api/brokers/accounts/info query. `portfolio` (ours) narrows to one authorised portfolio. */
export const AccountsInfoQuery = z.strictObject({
  only_broker_name: BoolParam.optional(),
  portfolio: PortfolioParam.optional(),
});

/**
 * Account (SPEC §3) plus the figures of the Account info panel. Money is in the account currency;
 * `balance_currency` is the balance in EUR (the portfolio reporting currency). `total_rebate` is null
 * for callers without read_rebate.
 */
export const Account = z.object({
  id: z.number().int(),
  account_id: z.string(),
  account: z.string(),
  account_name: z.string(),
  broker_name: z.string(),
  img_path: z.string(),
  teiko_category: z.string(),
  balance: Num,
  equity: Num,
  equity_perc: Num,
  pnl: Num,
  ping: Num,
  total_fees: Num,
  total_swap: Num,
  currency: z.string(),
  last_update: EpochSeconds,
  account_currency: z.string(),
  balance_currency: Num,
  /** Ours: equity and floating P/L in EUR, so a portfolio's accounts add up. */
  equity_currency: Num,
  pnl_currency: Num,
  server: z.string(),
  server_name: z.string(),
  is_master: z.boolean(),
  gross_profit: Num,
  net_profit: Num,
  total_commission: Num,
  total_rebate: NullableNum,
  margin: Num,
  margin_level: NullableNum,
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

/** GET /api/brokers/accounts/historical-losses: realised net P/L per account over three windows (SPEC §9). */
export const HistoricalLoss = z.object({
  account_id: z.string(),
  account_name: z.string(),
  currency: z.string(),
  pnl_24_hours: Num,
  pnl_2_days: Num,
  pnl_7_days: Num,
  /** Ours: the same windows in EUR. */
  pnl_24_hours_currency: Num,
  pnl_2_days_currency: Num,
  pnl_7_days_currency: Num,
});
export type HistoricalLoss = z.infer<typeof HistoricalLoss>;
export const HistoricalLossesResponse = z.object({ data: z.array(HistoricalLoss) });

export const MaxDrawdownQuery = z.strictObject({ account: Text('account', 100).optional() });
export const MaxDrawdownResponse = z.object({ max_drawdown_percentage: Num });
