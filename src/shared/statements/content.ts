import type { IngestDeal, IngestPosition } from '#shared/contract/ingest.ts';
import type { StatementAccount } from './account.ts';
import type { StatedFigures } from './stated.ts';

/** What a report reader (MT5's or MT4's) reads off a statement, whatever its format. */
export interface ReportContent {
  account: StatementAccount;
  /** Every deal the report lists, each passing `IngestDeal.parse`, in the report's order, each ticket once. */
  deals: IngestDeal[];
  /** Open positions, where the report lists them (MT5 "Open Positions", MT4 "Open Trades"); else empty. */
  positions: IngestPosition[];
  /** Rows that were left out or read with a guess, and figures the report contradicts, one sentence each. */
  warnings: string[];
  /** What the report states of itself (balance, equity, results), null where it does not. */
  stated: StatedFigures;
  /** The balance the report's rows add up to, from the opening balance: what importing them books. */
  rowsBalance: number;
}
