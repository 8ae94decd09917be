import { z } from 'zod';
import { Money, RebatePortfolioParam } from './fields.ts';

export const RebatesQuery = z.strictObject({
  group_by: z.enum(['account', 'broker'], { error: () => "group_by must be 'account' or 'broker'" }).default('account'),
  portfolio: RebatePortfolioParam,
});

/** Rebate row (docs/product.md#fields), one account and month ('YYYY-MM'); portfolio_category is the account's portfolio. */
export const RebateRow = z.object({
  login: z.string(),
  account: z.string(),
  broker_name: z.string(),
  currency: z.string(),
  month: z.string(),
  total_rebate: Money,
  profit_sharing_amount: Money,
  balance: Money,
  portfolio_category: z.string(),
});
export type RebateRow = z.infer<typeof RebateRow>;
export const RebatesResponse = z.object({ data: z.array(RebateRow) });
