import { feeTotals, rangeIso, statementFigures, type StatementDeal } from '#shared/analytics/statement.ts';
import { DAY_S, type DayRange } from '#shared/domain/days.ts';
import type { StatementData } from '#shared/contract/fees.ts';
import type { FeeEntry } from '#shared/domain/fees.ts';
import { markAt } from '#server/ledger/fees.ts';
import type { TermsVersion } from '#server/ledger/port.ts';

/**
 * What a statement is made from, as the server read it (fees-service.ts): only the range's deals,
 * and the sums and cash flows the opening figures and the marks need. Plain data, handed to the
 * worker thread that makes the statement (statement-worker.ts).
 */
export interface StatementInput {
  account: StatementData['account'];
  range: DayRange;
  /** Days since 1970-01-01, UTC. */
  today: number;
  /**
   * The range's deals up to its last day or today, whichever comes first, oldest first: pages of JSON
   * text as the database made them (deals-repo.ts, statementDealsPage), decoded by decodeDealPages.
   */
  dealPages: string[];
  /** The balance of the deals before the range, and of all the account's deals, in cents. */
  openingCents: number;
  totalCents: number;
  nav: { day: number; balance: number; equity: number }[];
  /** The range's fee entries. */
  entries: FeeEntry[];
  /** The performance entries before the range's end: where the mark stood after each. */
  marks: { at: number; markAfter: number }[];
  /**
   * The deposits and withdrawals from the last mark before the range (from the first deal when there
   * is none) to the range's end, each with the balance before it (0 where no proportional rule needs it).
   */
  cashFlows: { at: number; money: number; before: number }[];
  versions: TermsVersion[] | undefined;
  category: string;
  /** The account's figures now, from the market; null when it has none (its balance is then its deals' sum). */
  live: { balance: number; equity: number } | null;
  /** The mark now (a range reaching today ends at it). */
  hwm: number;
  showRebates: boolean;
  risks: StatementData['risk_events'];
}

/** A deal in a page's JSON: kind, at, amount, profit, swap, commission, fee, net, symbol, type, quantity, open price, close price, opened at. */
type DealRow = [StatementDeal['kind'], number, number, number, number, number, number, number, string | null, StatementDeal['type'], number, number | null, number | null, number | null];

/** The deals of the pages, oldest first. */
export function decodeDealPages(pages: readonly string[]): StatementDeal[] {
  const deals: StatementDeal[] = [];
  for (const page of pages) {
    for (const [kind, at, amount, profit, swap, commission, fee, net, symbol, type, quantity, openPrice, closePrice, openedAt] of JSON.parse(page) as DealRow[]) {
      deals.push({ kind, at, amount, profit, swap, commission, fee, net, symbol, type, quantity, openPrice, closePrice, openedAt });
    }
  }
  return deals;
}

/**
 * markAt's balance moves from the cash flows alone: before each, one move that brings the balance to
 * what it was just before it (the deals between two cash flows, summed by the database), then the
 * cash flow itself. markAt reads the balance only at cash flows, so it sees what all the deals gave it.
 */
function cashFlowMoves(flows: StatementInput['cashFlows']): { at: number; money: number; cashFlow: boolean }[] {
  const moves: { at: number; money: number; cashFlow: boolean }[] = [];
  let balance = 0;
  for (const f of flows) {
    moves.push({ at: f.at, money: f.before - balance, cashFlow: false }, { at: f.at, money: f.money, cashFlow: true });
    balance = f.before + f.money;
  }
  return moves;
}

/** The statement's figures (the JSON answer; the PDF and the CSV show the same). */
export function buildStatementData(input: StatementInput): StatementData {
  const { range, today } = input;
  const endS = (Math.min(range.toDay, today) + 1) * DAY_S;
  const balanceNow = input.totalCents / 100;
  const figures = statementFigures({
    range,
    today,
    deals: decodeDealPages(input.dealPages),
    openingCents: input.openingCents,
    nav: input.nav,
    live: { balance: input.live?.balance ?? balanceNow, equity: input.live?.equity ?? balanceNow },
    showRebates: input.showRebates,
  });
  const moves = cashFlowMoves(input.cashFlows);
  return {
    account: input.account,
    ...rangeIso(range),
    ...figures,
    mark_start: markAt(range.fromDay * DAY_S, input.marks, moves, input.versions, input.category),
    mark_end: range.toDay >= today ? input.hwm : markAt(endS, input.marks, moves, input.versions, input.category),
    fees: feeTotals(input.entries),
    risk_events: input.risks,
  };
}
