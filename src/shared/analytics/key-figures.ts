/**
 * A portfolio's key numbers at a glance (Summary, first thing on a phone): equity, floating P/L and
 * the realised P/L of the last 24 hours and 7 days, all in EUR so accounts in several currencies add
 * up. Pure; the inputs are the accounts/info rows and the historical-losses rows of the portfolio.
 */
import { finiteOrZero, sum } from './stats.ts';
import { cents } from '#shared/domain/money.ts';

export interface KeyFigureAccount {
  account_id: string;
  equity_currency: number;
  pnl_currency: number;
}

export interface KeyFigureLoss {
  account_id: string;
  pnl_24_hours_currency: number;
  pnl_7_days_currency: number;
}

export interface KeyFigures {
  equity: number;
  floatingPnl: number;
  /** null until the losses are known (they come from another call). */
  pnl24Hours: number | null;
  pnl7Days: number | null;
}

/** Sums over the portfolio's accounts; the loss windows count only the accounts listed (the portfolio's). */
export function portfolioKeyFigures(accounts: readonly KeyFigureAccount[], losses: readonly KeyFigureLoss[] | undefined): KeyFigures {
  const ids = new Set(accounts.map((a) => a.account_id));
  const mine = losses?.filter((l) => ids.has(l.account_id));
  return {
    equity: cents(sum(accounts.map((a) => finiteOrZero(a.equity_currency)))),
    floatingPnl: cents(sum(accounts.map((a) => finiteOrZero(a.pnl_currency)))),
    pnl24Hours: mine ? cents(sum(mine.map((l) => finiteOrZero(l.pnl_24_hours_currency)))) : null,
    pnl7Days: mine ? cents(sum(mine.map((l) => finiteOrZero(l.pnl_7_days_currency)))) : null,
  };
}
