/*
 * A follower account's fee terms, and the fee entries the ledger books from them (docs/fees.md). The
 * rules that compute them are src/server/ledger/fees.ts; the wire schemas, src/shared/contract/fees.ts.
 */

/** How often fees are charged: at the end of each month, or of each calendar quarter (March, June, September, December). */
export type FeePeriod = 'monthly' | 'quarterly';
/** What a performance fee is measured on: equity (closed plus floating) or the closed balance. */
export type FeeBasis = 'equity' | 'balance';
/** How a withdrawal lowers the high-water mark: by the amount withdrawn, or in proportion to the equity withdrawn. */
export type WithdrawalRule = 'amount' | 'proportional';

export interface PerformanceTerms {
  /** Share of the profit above the mark, 0–1 (0.25 is 25 %). */
  rate: number;
  basis: FeeBasis;
  withdrawals: WithdrawalRule;
}

export interface ManagementTerms {
  /** Annual rate on end-of-day equity, 0–1 (0.02 is 2 % a year), accrued daily on actual/365. */
  annual_rate: number;
}

export interface VolumeTerms {
  /** USD per million USD of notional, on the open and on the close of each copied trade. */
  usd_per_million: number;
}

/** What a follower pays its manager; a kind left null is not charged. */
export interface FeeTerms {
  period: FeePeriod;
  performance: PerformanceTerms | null;
  management: ManagementTerms | null;
  volume: VolumeTerms | null;
}

export type FeeKind = 'performance' | 'management' | 'volume';
/**
 * `accrual`: a day's management fee, owed and charged at the period's end; `charge`: a fee charged (the
 * period's performance and management fees, a volume fee at each leg); `adjustment`: a charged
 * period's performance fee corrected in a later period after the broker changed one of its deals.
 */
export type FeeEntryType = 'accrual' | 'charge' | 'adjustment';

/** One fee entry with its arithmetic: what it was computed on (`basis`), the mark around it, the rate and the amount. */
export interface FeeEntry {
  accountId: number;
  kind: FeeKind;
  entry: FeeEntryType;
  /** The period it belongs to: '2026-03' (monthly) or '2026-Q1' (quarterly). */
  period: string;
  /** What makes it unique within its account, kind and type (a day, a period, a deal's leg): booking it again is a no-op. */
  ref: string;
  /** epoch seconds */
  at: number;
  /**
   * performance charge: the equity or balance at the period's end; management: the end-of-day equity;
   * volume: the leg's notional in USD; adjustment: the change of the charged period's basis.
   */
  basis: number;
  /** The high-water mark before and after (performance fees only; null otherwise). */
  markBefore: number | null;
  markAfter: number | null;
  /** performance: 0–1; management: annual 0–1; volume: USD per million. */
  rate: number;
  /** In `currency`; an accrual keeps fractions of a cent, a charge is to the cent. */
  amount: number;
  currency: string;
  /** Readable arithmetic, e.g. '25 % × (108,000.00 − 100,000.00)'. */
  note: string;
}
