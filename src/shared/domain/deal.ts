import type { IncomeKind } from './broker-events.ts';
import type { Market } from './market.ts';
import type { Side } from './side.ts';

/**
 * What a deal on the books is: a closed trade, a cash flow (a deposit or withdrawal, a broker's bonus
 * among them), a rebate credited to the balance (an MT5 agent commission deal), or a result of the
 * account booked as a deal of its own (a charge, commission, interest, dividend, tax or correction).
 * The money of a trade is its `net`; of the others, `amount`.
 */
export type DealKind = 'trade' | 'deposit' | 'withdrawal' | 'rebate' | 'result';

/** What a bonus or a result of the account is (the deal list names the row by it). */
export type DealReason = 'bonus' | Exclude<IncomeKind, 'rebate' | 'credit'>;

/**
 * A deal on an account's books, as the ledger books it and the deals table stores it (times in epoch
 * seconds, money in the account currency). The wire has its own shapes (src/shared/contract/deals.ts,
 * ingest.ts); the repository maps its rows to this at its edge (src/server/db/deals-repo.ts).
 */
export interface Deal {
  accountId: number;
  kind: DealKind;
  symbol: string | null;
  type: Side | null;
  category: Market | null;
  quantity: number;
  openPrice: number | null;
  closePrice: number | null;
  openedAt: number | null;
  at: number;
  amount: number;
  profit: number;
  swap: number;
  commission: number;
  fee: number;
  /** A trade's rebate earned (simulated brokers: not on the balance); a rebate row's credit (= amount). */
  rebate: number;
  /** profit + swap + commission + fee of a trade; 0 for a cash flow or a rebate (their money is `amount`). */
  net: number;
  mae: number | null;
  mfe: number | null;
  execMs: number | null;
  rebalancing: boolean;
  /** The broker's ticket (real accounts); null for the simulated market's deals. */
  ticket: number | null;
  /** The position the trade closed (null for cash flows and generated history). */
  positionId: number | null;
  /** The master position this trade copies, as the copy engine linked it; null when not known. */
  copyOf: number | null;
  /** An imported statement's opening balance (a cash flow): the balance before the statement's period. */
  opening?: boolean;
  /**
   * What a balance row is, where its kind does not name it: a bonus (a cash flow) or a result of the
   * account (charge, interest, dividend, …); null otherwise.
   */
  reason?: DealReason | null;
}

/**
 * The money a deal moves on the balance: a trade's net, the amount of anything else. The deals
 * table holds it as its generated column `money`, which every query reads.
 */
export const dealMoney = (d: Pick<Deal, 'kind' | 'net' | 'amount'>): number => (d.kind === 'trade' ? d.net : d.amount);

/** A deposit or a withdrawal: money moved in or out by its owner, which splits the growth, never a result. */
export const isCashFlow = (d: { kind: DealKind }): boolean => d.kind === 'deposit' || d.kind === 'withdrawal';

const REASON_LABELS: Readonly<Record<DealReason, string>> = {
  bonus: 'Bonus',
  charge: 'Charge',
  correction: 'Correction',
  commission: 'Commission',
  commission_daily: 'Daily commission',
  commission_monthly: 'Monthly commission',
  interest: 'Interest',
  dividend: 'Dividend',
  dividend_franked: 'Franked dividend',
  tax: 'Tax',
  withholding_tax: 'Withholding tax',
  fee: 'Fee',
};

/** The deal list's type of a balance row whose reason names it ('Bonus', 'Charge', 'Interest' …); null without a reason. */
export const dealReasonLabel = (reason: DealReason | null | undefined): string | null => (reason ? REASON_LABELS[reason] : null);
