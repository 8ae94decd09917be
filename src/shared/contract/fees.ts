import { z } from 'zod';
import type { FeeTerms as FeeTermsShape } from '#shared/domain/fees.ts';
import { EpochSeconds, Money, Percent, Text } from './fields.ts';

/**
 * Fees (docs/fees.md): a follower account's fee terms, set by write users from a date on; every
 * accrual, charge and adjustment the ledger booked, with its arithmetic; and the investor statement
 * of a period. Every signed-in user reads those of the accounts of their portfolios.
 */

/** Bounds of the terms, shared by the API, the CLI and the form. */
export const FEE_LIMITS = {
  /** A performance fee's share of the profit above the mark. */
  rate: { min: 0, max: 1 },
  /** A management fee's annual rate. */
  annualRate: { min: 0, max: 0.2 },
  /** USD per million of notional. */
  usdPerMillion: { min: 0, max: 1_000 },
} as const;

const bounded = (field: string, { min, max }: { min: number; max: number }) =>
  z.number({ error: `${field} must be a number` }).min(min, `${field} must be at least ${min}`).max(max, `${field} must be at most ${max}`);

export const FeeTerms = z.strictObject({
  period: z.enum(['monthly', 'quarterly'], { error: "period must be 'monthly' or 'quarterly'" }),
  performance: z
    .strictObject({
      rate: bounded('performance.rate', FEE_LIMITS.rate),
      basis: z.enum(['equity', 'balance'], { error: "performance.basis must be 'equity' or 'balance'" }).default('equity'),
      withdrawals: z.enum(['amount', 'proportional'], { error: "performance.withdrawals must be 'amount' or 'proportional'" }).default('amount'),
    })
    .nullable(),
  management: z.strictObject({ annual_rate: bounded('management.annual_rate', FEE_LIMITS.annualRate) }).nullable(),
  volume: z.strictObject({ usd_per_million: bounded('volume.usd_per_million', FEE_LIMITS.usdPerMillion) }).nullable(),
}) satisfies z.ZodType<FeeTermsShape, unknown>;

/** 'YYYY-MM-DD', a real calendar day. */
export const IsoDay = (field: string) =>
  z
    .string({ error: `${field} must be a date (YYYY-MM-DD)` })
    .regex(/^\d{4}-\d{2}-\d{2}$/, `${field} must be a date (YYYY-MM-DD)`)
    .refine((s) => !Number.isNaN(Date.parse(`${s}T00:00:00Z`)) && new Date(`${s}T00:00:00Z`).toISOString().startsWith(s), `${field} is not a calendar day`);

export const SetFeeTermsBody = z.strictObject({
  /** account_id, or a login unique among your accounts. */
  account: Text('account', 100),
  /** The first day the terms are in force: today (UTC) or later; terms are never retroactive. */
  effective_from: IsoDay('effective_from'),
  terms: FeeTerms,
});

export const FeeTermsQuery = z.strictObject({ account: Text('account', 100) });

export const FeeTermsVersion = z.object({
  effective_from: z.string(),
  terms: FeeTerms,
  set_by: z.string().nullable(),
  set_at: EpochSeconds,
});

export const FeeAccount = z.object({
  account_id: z.string(),
  account_name: z.string(),
  broker_name: z.string(),
  login: z.string(),
  currency: z.string(),
  category: z.string(),
});

export const FeeTermsResponse = z.object({
  data: z.object({
    account: FeeAccount,
    /** The terms in force today; `default` when nobody set any (the category's profit sharing rate). */
    current: z.object({ terms: FeeTerms, effective_from: z.string().nullable(), default: z.boolean() }),
    /** Every version set, oldest first, including those still to come. */
    versions: z.array(FeeTermsVersion),
    /** The high-water mark now, and the management fee accrued in the period under way. */
    mark: Money,
    accrued: Money,
  }),
});

/** The first year a period or a day of a range may be in (the books' days count from 1970-01-01). */
export const FIRST_YEAR = 1970;
const PERIOD_MESSAGE = `period must be a month ('2026-03') or a quarter ('2026-Q1') of a four-digit year from ${FIRST_YEAR}`;
/** A day of a range: a calendar day from 1970 ('0026-11-01' is not read as 1926, nor as year 26). */
const RangeDay = (field: string) => IsoDay(field).refine((s) => Number(s.slice(0, 4)) >= FIRST_YEAR, `${field} must be a day from ${FIRST_YEAR} on`);

/** A period: `period` ('2026-03' or '2026-Q1'), or `from` and `to` ('YYYY-MM-DD', both included; `to` defaults to today). */
const PeriodQuery = {
  account: Text('account', 100),
  period: z
    .string({ error: PERIOD_MESSAGE })
    .regex(/^\d{4}-(0[1-9]|1[0-2]|Q[1-4])$/, PERIOD_MESSAGE)
    .refine((s) => Number(s.slice(0, 4)) >= FIRST_YEAR, PERIOD_MESSAGE)
    .optional(),
  from: RangeDay('from').optional(),
  to: RangeDay('to').optional(),
};
const onePeriod = <T extends { period?: string | undefined; from?: string | undefined; to?: string | undefined }>(q: T) =>
  q.period === undefined ? q.from !== undefined : q.from === undefined && q.to === undefined;
const PERIOD_ERROR = 'Give either period, or from (and optionally to)';

export const FeesQuery = z.strictObject(PeriodQuery).refine(onePeriod, PERIOD_ERROR);

export const StatementQuery = z
  .strictObject({ ...PeriodQuery, format: z.enum(['pdf', 'csv', 'json'], { error: "format must be 'pdf', 'csv' or 'json'" }).default('pdf') })
  .refine(onePeriod, PERIOD_ERROR);

export const FeeEntryView = z.object({
  kind: z.enum(['performance', 'management', 'volume']),
  entry: z.enum(['accrual', 'charge', 'adjustment']),
  period: z.string(),
  at: EpochSeconds,
  /** performance charge: the equity or balance at the period's end; management: the end-of-day equity (accrual) or the accruals (charge); volume: the leg's notional in USD; adjustment: the change of the charged period's basis. */
  basis: z.number(),
  mark_before: Money.nullable(),
  mark_after: Money.nullable(),
  /** performance: 0–1; management: annual 0–1; volume: USD per million. */
  rate: z.number(),
  /** An accrual keeps fractions of a cent (6 decimals); a charge or an adjustment is to the cent. */
  amount: z.number(),
  currency: z.string(),
  note: z.string(),
});
export type FeeEntryView = z.infer<typeof FeeEntryView>;

export const FeeTotal = z.object({
  kind: z.enum(['performance', 'management', 'volume']),
  currency: z.string(),
  /** Charged and adjusted in the range. */
  charged: Money,
  /** Management accrued in the range and not charged in it. */
  accrued: Money,
});

export const FeesResponse = z.object({
  data: z.object({
    account: FeeAccount,
    from: z.string(),
    to: z.string(),
    entries: z.array(FeeEntryView),
    totals: z.array(FeeTotal),
  }),
});

/** An investor statement (docs/fees.md, "Statements"); the CSV and the PDF show the same figures. */
export const StatementTrade = z.object({
  symbol: z.string(),
  type: z.string(),
  quantity: z.number(),
  opened_at: EpochSeconds.nullable(),
  open_price: z.number().nullable(),
  closed_at: EpochSeconds,
  close_price: z.number().nullable(),
  profit: Money,
  swap: Money,
  commission: Money,
  fee: Money,
  net: Money,
});

export const StatementRiskEvent = z.object({
  at: EpochSeconds,
  /** warn, warn_rearmed, close_only, close_all, close (one copy closed, with its fill) or rearm. */
  kind: z.string(),
  message: z.string(),
});

export const StatementResponse = z.object({
  data: z.object({
    account: FeeAccount,
    from: z.string(),
    to: z.string(),
    opening_balance: Money,
    opening_equity: Money,
    deposits: Money,
    withdrawals: Money,
    closed_pl: Money,
    swap: Money,
    commissions: Money,
    broker_fees: Money,
    /** Rebates credited into the account; null for a caller without read_rebate (then counted in other_results). */
    rebates: Money.nullable(),
    other_results: Money,
    closing_balance: Money,
    closing_equity: Money,
    mark_start: Money,
    mark_end: Money,
    fees: z.array(FeeTotal),
    /** Time-weighted return over the period, %, daily valuations chained around cash flows; null without a valuation. */
    twr_pct: Percent.nullable(),
    /** Money-weighted return over the period, % (Modified Dietz); null when nothing was invested. */
    mwr_pct: Percent.nullable(),
    trades: z.array(StatementTrade),
    /** What the account's copy guards did in the period (a level reached, a copy closed, a re-arm), oldest first. */
    risk_events: z.array(StatementRiskEvent),
  }),
});
export type StatementData = z.infer<typeof StatementResponse>['data'];
