import { z } from 'zod';
import { EpochSeconds, Market, Measure, Money, Percent, PortfolioParam, Ratio, Side, Text } from './fields.ts';
import { CopySizingView } from './copy-relations.ts';

/** Copy screen periods: the performance chart's (docs/product.md#screens). */
export const CopyPeriod = z.enum(['1m', '3m', 'all'], { error: () => "period must be one of: 1m, 3m, all" });

export const CopyReportQuery = z.strictObject({
  portfolio: PortfolioParam.optional(),
  period: CopyPeriod.default('1m'),
});

export const MissReason = z.enum([
  'pair_not_allowed', 'bridge_off', 'agent_offline', 'server_down', 'rejected', 'expired', 'unanswered', 'no_margin', 'equity_stop', 'guard_close_only', 'guard_closed', 'no_size', 'unknown',
]);
export type MissReason = z.infer<typeof MissReason>;

export const CopiedTrade = z.object({
  symbol: z.string(),
  type: Side,
  category: Market,
  opened_at: EpochSeconds,
  master_quantity: Measure,
  quantity: Measure,
  /** The relation's size for the master's; null when sized by equity proportion (the equities at the copy are not kept). */
  expected_quantity: Measure.nullable(),
  size_ratio: Ratio,
  entry_slippage: Measure,
  exit_slippage: Measure,
  slippage_unit: z.enum(['pips', 'price']),
  /** In the follower's currency and in EUR; null where a rate is unknown. */
  slippage_cost: Money.nullable(),
  slippage_cost_eur: Money.nullable(),
  delay_ms: Measure,
  inferred: z.boolean(),
});
export type CopiedTrade = z.infer<typeof CopiedTrade>;

export const Miss = z.object({
  at: EpochSeconds,
  symbol: z.string(),
  type: Side,
  reason: MissReason,
  message: z.string().nullable(),
  /** Inferred from the deals (a master trade without a copy, nothing recorded). */
  inferred: z.boolean(),
});

export const BridgeHealth = z.object({
  account_id: z.string(),
  account_name: z.string(),
  broker_name: z.string(),
  /** Seconds since the account's last update. */
  last_update_age_s: z.number().int(),
  /**
   * simulated: the demo market; live: its agent reported within a minute; silent: within 10 minutes;
   * statement: fed by its broker's statements, the last one booked within 4 days; offline: longer, or never.
   */
  state: z.enum(['simulated', 'live', 'silent', 'statement', 'offline']),
  /** Commands its terminal carried out, of those answered or expired, in the period; null without any. */
  command_success_pct: Percent.nullable(),
});
export type BridgeHealth = z.infer<typeof BridgeHealth>;

export const FollowerQuality = z.object({
  account_id: z.string(),
  account_name: z.string(),
  broker_name: z.string(),
  currency: z.string(),
  /** false: its master is not known to the market now, and the figures are null. */
  is_copy: z.boolean(),
  master: z.object({ account_id: z.string(), account_name: z.string() }).nullable(),
  /** Its copy relation (docs/copying.md): id, sizing and cap. */
  relation_id: z.number().int(),
  sizing: CopySizingView,
  max_lot: Measure.nullable(),
  /** The ratio when sized by ratio, else null. */
  copy_ratio: Ratio.nullable(),
  copied: z.number().int(),
  inferred_links: z.number().int(),
  missed: z.number().int(),
  missed_by_reason: z.array(z.object({ reason: MissReason, count: z.number().int() })),
  duplicates: z.number().int(),
  manual: z.number().int(),
  avg_entry_slippage_pips: Measure.nullable(),
  avg_slippage_cost_eur: Money.nullable(),
  avg_delay_ms: Measure.nullable(),
  worst_delay_ms: Measure.nullable(),
  cost_eur: Money.nullable(),
  follower_growth: Percent.nullable(),
  master_growth: Percent.nullable(),
  /** Follower's time-weighted return minus its master's, percentage points. */
  tracking_difference: Percent.nullable(),
  equity_stop: Money.nullable(),
  equity_stopped: z.boolean(),
  trades: z.array(CopiedTrade),
  misses: z.array(Miss),
});
export type FollowerQuality = z.infer<typeof FollowerQuality>;

export const BrokerCopyQuality = z.object({
  broker_name: z.string(),
  trades: z.number().int(),
  avg_entry_slippage_pips: Measure.nullable(),
  worst_entry_slippage_pips: Measure.nullable(),
  avg_slippage_cost_eur: Money.nullable(),
  avg_delay_ms: Measure.nullable(),
  worst_delay_ms: Measure.nullable(),
});

export const RiskLimits = z.object({
  max_drawdown_pct: Percent.nullable(),
  min_margin_level_pct: Percent.nullable(),
});

export const CopyReportResponse = z.object({
  data: z.object({
    period: CopyPeriod,
    from: EpochSeconds.nullable(),
    followers: z.array(FollowerQuality),
    brokers: z.array(BrokerCopyQuality),
    health: z.array(BridgeHealth),
    /** Net exposure per currency, in its own units and in EUR (null without a rate). */
    exposure: z.array(z.object({ currency: z.string(), exposure: Money, exposure_eur: Money.nullable() })),
    limits: RiskLimits,
    /** Accounts past the portfolio's thresholds now. */
    breaches: z.array(
      z.discriminatedUnion('kind', [
        z.object({ account_id: z.string(), account_name: z.string(), kind: z.enum(['drawdown', 'margin_level']), value: Percent, limit: Percent }),
        /** The follower's equity and its stop, in its currency. */
        z.object({ account_id: z.string(), account_name: z.string(), kind: z.literal('equity_stop'), value: Money, limit: Money, currency: z.string() }),
      ]),
    ),
  }),
});
export type CopyReportResponse = z.infer<typeof CopyReportResponse>;

export const CopyHealthQuery = z.strictObject({ portfolio: PortfolioParam.optional() });
export const CopyHealthResponse = z.object({ data: z.array(BridgeHealth) });

export const CopyGrowthQuery = z.strictObject({
  account: Text('account', 100),
  period: CopyPeriod.default('1m'),
});

const Point = z.object({ timestamp: EpochSeconds, value: Percent });
export const CopyGrowthResponse = z.object({
  data: z.object({ account_name: z.string(), master_name: z.string(), follower: z.array(Point), master: z.array(Point) }),
});

/** Thresholds of a portfolio (write users): drawdown in % (0–100], margin level in % (≥ 0); null clears one. */
export const RiskLimitsBody = z.strictObject({
  portfolio: PortfolioParam,
  max_drawdown_pct: z
    .number({ error: 'max_drawdown_pct must be a number or null' })
    .gt(0, 'max_drawdown_pct must be greater than 0')
    .max(100, 'max_drawdown_pct must be at most 100')
    .nullable(),
  min_margin_level_pct: z
    .number({ error: 'min_margin_level_pct must be a number or null' })
    .min(0, 'min_margin_level_pct must not be under 0')
    .max(100_000, 'min_margin_level_pct must be at most 100000')
    .nullable(),
});

/** A follower's equity stop (write users), in the account's currency; null removes it. Setting it again re-arms a stop that fired. */
export const EquityStopBody = z.strictObject({
  account: Text('account', 100),
  // Stored to the cent: under one it would be 0.
  equity_stop: z.number({ error: 'equity_stop must be a number or null' }).min(0.01, 'equity_stop must be at least 0.01').max(1e12, 'equity_stop is too large').nullable(),
});
