import { z } from 'zod';
import { EpochSeconds, Money, PortfolioParam } from './fields.ts';

/** GET /api/brokers/accounts/historical_infos query: a month as 'M.YYYY' (1970 to 2999). */
export const HistoricalInfosQuery = z.strictObject({
  /** Ours: only the rows of this portfolio's NAV (the NAV rule, among the caller's portfolios); every row of the caller's without it. */
  portfolio: PortfolioParam.optional(),
  date_id: z
    .string()
    .regex(/^(1[0-2]|[1-9])\.(19[7-9]\d|2\d{3})$/, "date_id must look like 'M.YYYY' (a month from 1.1970 to 12.2999)")
    .optional(),
});

/**
 * Historical NAV row (docs/product.md#fields): date_id 'M.YYYY', date_day the day of the month. `derived` (ours):
 * the row was derived from the account's deals (a day before it was watched live: equity = balance),
 * not taken at the day's end.
 */
export const NavRow = z.object({
  account_id: z.string(),
  date_id: z.string(),
  date_day: z.number().int(),
  account_name: z.string(),
  account: z.string(),
  balance: Money,
  equity: Money,
  broker_name: z.string(),
  last_update: EpochSeconds,
  teiko_category: z.string(),
  img_path: z.string(),
  currency: z.string(),
  balance_currency: Money,
  account_currency: z.string(),
  derived: z.boolean(),
  /**
   * Ours: the broker's own net asset value of the day, where a statement states it (an Interactive
   * Brokers EquitySummary), and `equity` − it: the books' NAV against the broker's. null elsewhere.
   */
  broker_equity: Money.nullable(),
  broker_difference: Money.nullable(),
});
export type NavRow = z.infer<typeof NavRow>;
export const HistoricalNavResponse = z.object({
  data: z.array(NavRow),
  available_dates: z.record(z.string(), z.array(z.number().int())),
});
export type HistoricalNavResponse = z.infer<typeof HistoricalNavResponse>;
