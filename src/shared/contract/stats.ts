import { z } from 'zod';
import { EpochSeconds, Measure, Money, Percent, Ratio, Text } from './fields.ts';
import { UtcOffsetParam } from './import.ts';

export const MaeMfeQuery = z.strictObject({ symbol: Text('symbol', 20) });
/** MAE/MFE over the symbol's closed deals, in pips (docs/figures.md). */
export const MaeMfeResponse = z.object({
  symbol: z.string(),
  count: z.number().int(),
  stats: z.object({ avg_mae: Measure.nullable(), median_mae: Measure.nullable(), avg_mfe: Measure.nullable(), median_mfe: Measure.nullable() }),
});

/** GET /api/stats/analysis query: one account of the caller's portfolios (account_id or login). */
export const AnalysisQuery = z.strictObject({
  account: Text('account', 100),
  /**
   * Broker server time − UTC in minutes, for by_hour and by_weekday. Default: the offset the account's
   * terminal last reported (agent-fed accounts), else 0 (UTC).
   */
  utc_offset_minutes: UtcOffsetParam.optional(),
});

const LevelProbability = z.object({ loss_pct: z.number(), probability: Percent });
const Bucket = { trades: z.number().int(), net: Money, win_rate: Percent.nullable() };

/**
 * The analysis of an account's closed trades (docs/figures.md, "Analysis of an account's trades"): on
 * each trade's net result, in close order, against the closed balance before it. Percentages are
 * numbers (0.3772 is 0.3772 %), ratios to 4 decimals, money to the cent in the account's currency.
 * Figures that need a sample are given whatever `n`; null where they cannot be computed.
 */
export const AnalysisResponse = z.object({
  account: z.string(),
  currency: z.string(),
  /** Closed trades. */
  n: z.number().int(),
  /** Trades with a positive closed balance before them: the sample of the return figures. */
  returns_n: z.number().int(),
  wins: z.number().int(),
  losses: z.number().int(),
  ahpr: Percent.nullable(),
  ghpr: Percent.nullable(),
  z_score: Ratio.nullable(),
  z_probability: Percent.nullable(),
  expectancy: Money.nullable(),
  profit_factor: Ratio.nullable(),
  /** Per trade, on the holding period returns (population standard deviation); not annualised. */
  sharpe: Ratio.nullable(),
  sortino: Ratio.nullable(),
  psr: Percent.nullable(),
  /** Trades needed for 95 % confidence that the Sharpe ratio is above 0. */
  min_track_record: Measure.nullable(),
  risk_of_ruin: z.array(LevelProbability).nullable(),
  risk_of_drawdown: z.array(LevelProbability).nullable(),
  /** The risk-of-drawdown simulation: its runs, its generator's seed, and the trades each run draws. */
  monte_carlo: z.object({ runs: z.number().int(), seed: z.number().int(), trades: z.number().int() }),
  lr_correlation: Ratio.nullable(),
  /** Money; divisor n − 2 over the N + 1 balances. */
  lr_std_error: Money.nullable(),
  /** Where the trades' MFE and MAE are known (n of them); nulls and n 0 where none is. */
  mfe_mae: z.object({
    n: z.number().int(),
    entry_efficiency: Ratio.nullable(),
    exit_efficiency: Ratio.nullable(),
    total_efficiency: Ratio.nullable(),
    correlation_pl_mfe: Ratio.nullable(),
    correlation_pl_mae: Ratio.nullable(),
    correlation_mfe_mae: Ratio.nullable(),
    trades: z.array(z.object({ closed_at: EpochSeconds, symbol: z.string(), entry_efficiency: Ratio, exit_efficiency: Ratio, total_efficiency: Ratio })),
  }),
  /** The broker time of by_hour and by_weekday: UTC + this many minutes. */
  utc_offset_minutes: z.number().int(),
  /** Hours 0–23 of the trades' opens. */
  by_hour: z.array(z.object({ hour: z.number().int(), ...Bucket })),
  /** ISO weekdays of the trades' closes: 1 Monday … 7 Sunday. */
  by_weekday: z.array(z.object({ weekday: z.number().int(), ...Bucket })),
});
export type AnalysisResponse = z.output<typeof AnalysisResponse>;
