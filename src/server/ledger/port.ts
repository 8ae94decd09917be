import type { Deal } from '#shared/domain/deal.ts';
import type { FeeEntry, FeeTerms } from '#shared/domain/fees.ts';
import type { WriteContext } from '#server/broker/port.ts';

/**
 * The ledger's port: what it reads and writes, in its own vocabulary, and the storage it needs. The
 * database layer implements BooksStore (src/server/db/books-store.ts) and maps its rows to these
 * types at its edge; the ledger knows no SQL and no row. A write runs in one opaque WriteContext (the
 * broker port's: the database layer turns it into its transaction, src/server/db/write-context.ts).
 */

/** An account's books between events: what every bookkeeping step reads and moves on (stored on the account). */
export interface Book {
  accountId: number;
  accountName: string;
  category: string;
  currency: string;
  balance: number;
  /** The equity the account last reported (its balance where none was): a proportional withdrawal's share is of it. */
  equity: number;
  /** High-water mark of the performance fee (docs/figures.md H1). */
  hwm: number;
  /** Management fee accrued in the fee period under way, not yet charged. */
  accrued: number;
  /** Equity peak for drawdown alerts, moved by cash flows but not by trading; null before the first day end. */
  peak: number | null;
  inBreach: boolean;
}

/** An end-of-day NAV row (day: days since 1970-01-01, UTC). */
export interface NavEntry {
  accountId: number;
  day: number;
  balance: number;
  equity: number;
  /** epoch seconds the snapshot was taken */
  takenAt: number;
}

/** One account-month of rebates: added to the month's row (lots and rebate summed, balance replaced). */
export interface RebateEntry {
  accountId: number;
  /** 'YYYY-MM-01' */
  month: string;
  lots: number;
  rebate: number;
  balance: number;
}

/** A month's profit sharing of an account (the performance fee charged in it), with its closing balance. */
export interface ProfitSharingEntry {
  accountId: number;
  month: string;
  fee: number;
  balance: number;
}

/** `copy`: a missed or duplicated copy; `slippage`: a copy filled past the threshold; `equity_stop`: a follower's stop fired. */
/** `statement`: a broker's statement could not be fetched or booked, or its access is about to expire. */
export type AlertType = 'margin' | 'ping' | 'drawdown' | 'bridge' | 'copy' | 'slippage' | 'equity_stop' | 'guard' | 'statement';

/** An alert raised (by the ledger's thresholds, or the copy engine). */
export interface NewAlert {
  type: AlertType;
  message: string;
  /** epoch seconds */
  at: number;
  /** null: an alert about the whole system (the bridge) */
  accountId: number | null;
  /**
   * A master the message names (a copy alert): a reader who may not see that master reads
   * `outsideMessage` instead, which names it 'a master outside your portfolios' (alerts-repo's namingMaster).
   */
  master?: { accountId: number; outsideMessage: string };
}

/** A deal's effect on its account's balance, oldest first: its time, its money, its broker ticket, and whether it is a statement's opening balance. */
export interface BalanceMove {
  /** epoch seconds */
  at: number;
  money: number;
  ticket: number | null;
  opening: boolean;
}

/** The storage the ledger books into. Every method taking a WriteContext runs in that write. */
export interface BooksStore {
  /** Runs `fn` in one write (a transaction): all of it or nothing. */
  transaction<T>(fn: (ctx: WriteContext) => Promise<T>): Promise<T>;
  /** The books of these accounts (all when undefined), locked until the write ends. */
  readBooks(ctx: WriteContext, accountIds?: readonly number[]): Promise<Book[]>;
  writeBooks(ctx: WriteContext, books: readonly Book[]): Promise<void>;
  /** Stores deals in the order given. */
  insertDeals(ctx: WriteContext, deals: readonly Deal[]): Promise<void>;
  /** An account's deals of these broker tickets, locked until the write ends. */
  dealsByTickets(ctx: WriteContext, accountId: number, tickets: readonly number[]): Promise<Deal[]>;
  deleteDealsByTickets(ctx: WriteContext, accountId: number, tickets: readonly number[]): Promise<void>;
  /** An account's money movements, oldest first. */
  balanceMoves(ctx: WriteContext, accountId: number): Promise<BalanceMove[]>;
  /** The commission its broker charged as positions opened, at the entry, and each closing row's share of it taken back at its close; oldest first. */
  entryChargeMoves(ctx: WriteContext, accountId: number): Promise<{ at: number; money: number }[]>;
  /** Stores end-of-day NAV rows taken live (replacing a derived row of the day, never a live one). */
  insertNav(ctx: WriteContext, rows: readonly NavEntry[]): Promise<void>;
  /** Stores NAV rows derived from an account's deals (never over a live row); derived rows before `firstDay` (all when null) go. */
  saveDerivedNav(ctx: WriteContext, accountId: number, rows: readonly NavEntry[], firstDay: number | null): Promise<void>;
  /** The accounts whose `day` has ended already (a NAV row taken live for it). */
  accountsEnded(ctx: WriteContext, day: number): Promise<Set<number>>;
  /** The last day with a NAV row taken live, or null. */
  lastNavDay(): Promise<number | null>;
  addRebates(ctx: WriteContext, entries: readonly RebateEntry[]): Promise<void>;
  setProfitSharing(ctx: WriteContext, entries: readonly ProfitSharingEntry[]): Promise<void>;
  /** Every version of these accounts' fee terms, oldest first (none: the category's default terms). */
  feeTerms(ctx: WriteContext, accountIds: readonly number[]): Promise<Map<number, TermsVersion[]>>;
  /** Books fee entries; one already booked (same account, kind, type and ref) is left as it is. */
  insertFees(ctx: WriteContext, entries: readonly FeeEntry[]): Promise<void>;
  /** The account's last performance charge, with the adjustments booked against it; null before any. */
  lastPerformanceCharge(ctx: WriteContext, accountId: number): Promise<ChargedPerformance | null>;
  /** Records alerts, in this write, or on their own when `ctx` is null. */
  insertAlerts(ctx: WriteContext | null, alerts: readonly NewAlert[]): Promise<void>;
}

/** The last performance charge of an account, with the basis changes adjusted into it since. */
export interface ChargedPerformance {
  period: string;
  at: number;
  basis: number;
  markBefore: number;
  rate: number;
  /** Σ of the basis changes already booked as adjustments against this charge. */
  adjusted: number;
}

/** A version of an account's terms: in force from `fromDay` (days since 1970-01-01) until the next. */
export interface TermsVersion {
  fromDay: number;
  terms: FeeTerms;
}
