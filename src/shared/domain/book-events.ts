import type { IncomeKind } from './broker-events.ts';
import type { Market } from './market.ts';
import type { Side } from './side.ts';

/*
 * What a broker reports and the ledger books (src/server/ledger/): each becomes one deal on the
 * books (src/shared/domain/deal.ts). Times are epoch seconds, money in the account currency.
 */

/** A trade as the broker reports it when it closes (prices, costs and rebate in the account currency). */
export interface ClosedTrade {
  accountId: number;
  symbol: string;
  type: Side;
  category: Market;
  quantity: number;
  openPrice: number;
  closePrice: number;
  /** epoch seconds */
  openedAt: number;
  /** epoch seconds */
  closedAt: number;
  profit: number;
  swap: number;
  commission: number;
  fee: number;
  /** The introducing broker's rebate earned by the round trip. */
  rebate: number;
  /** Lowest and highest price seen while open (for MAE/MFE); null when the broker does not say. */
  low: number | null;
  high: number | null;
  execMs: number | null;
  /** The broker's ticket of the closing deal (real accounts): the deal row is stored once per ticket. */
  ticket?: number;
  /** The position the trade closed, and the master position it copies (the copy engine's link). */
  positionId?: number | null;
  copyOf?: number | null;
}

/** A deposit (positive) or withdrawal (negative). */
export interface CashFlow {
  accountId: number;
  /** epoch seconds */
  at: number;
  amount: number;
  /** A transfer between the portfolio's own accounts, hidden when rebalancing is filtered out. */
  rebalancing: boolean;
  /** The broker's ticket of the balance deal (real accounts). */
  ticket?: number;
  /** An imported statement's opening balance (the balance before its period), not money the user moved. */
  opening?: boolean;
  /** Where the money is no plain deposit or withdrawal: the broker's bonus (capital brought in, named apart). */
  reason?: 'bonus';
}

/**
 * The introducing broker's rebate paid into the account (MetaTrader's agent commission deals): income,
 * like a trade's result, not a deposit (docs/architecture.md, "Rebates credited as deals").
 */
export interface RebateCredit {
  kind: 'rebate';
  accountId: number;
  /** epoch seconds */
  at: number;
  amount: number;
  /** The broker's ticket of the agent commission deal. */
  ticket?: number;
}

/**
 * A result of the account booked by the broker as a deal of its own, not a trade: a charge, a
 * correction, a commission (per deal, daily or monthly), interest, a dividend, withholding or other
 * tax, a fee. It moves the balance as a trade's result does, not as a deposit (docs/architecture.md,
 * "Deal types on the books").
 */
export interface AccountResult {
  kind: 'result';
  accountId: number;
  /** epoch seconds */
  at: number;
  amount: number;
  /** What it is (src/shared/domain/broker-events.ts), which names the row in the deal list. */
  reason: Exclude<IncomeKind, 'rebate' | 'credit'>;
  /** The broker's ticket of the deal. */
  ticket?: number;
}

/** What the ledger books: a closed trade, a cash flow, a rebate credited or a result of the account. */
export type BookEvent = ClosedTrade | CashFlow | RebateCredit | AccountResult;
