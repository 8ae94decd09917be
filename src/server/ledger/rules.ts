import { excursion } from '#shared/analytics/excursions.ts';
import { marginLevel } from '#shared/analytics/margin.ts';
import { cents } from '#shared/domain/money.ts';
import { netResult } from '#shared/analytics/trade-stats.ts';
import type { Category } from '#shared/domain/portfolios.ts';
import type { AccountResult, BookEvent, CashFlow, ClosedTrade, RebateCredit } from '#shared/domain/book-events.ts';
import type { Deal } from '#shared/domain/deal.ts';
import type { NewAlert } from './port.ts';

/** Profit sharing rate per account category, charged at month end on the high-water mark (docs/figures.md H1). */
export const PROFIT_SHARING_RATE: Record<Category, number> = {
  consolidate: 0.25,
  'global forex': 0.25,
  'global equity': 0.2,
  SMA: 0.2,
  AMC: 0.2,
};
export const DEFAULT_PROFIT_SHARING_RATE = 0.2;

export const profitSharingRate = (category: string): number =>
  PROFIT_SHARING_RATE[category as Category] ?? DEFAULT_PROFIT_SHARING_RATE;

/** A margin level under this (equity / margin, %) raises an alert, at most once an hour per account. */
export const MARGIN_ALERT_LEVEL = 150;
export const MARGIN_ALERT_REPEAT_S = 3600;
/** An account silent this long raises a 'no update' alert; it is re-armed once it reports again. */
export const SILENCE_ALERT_S = 180;
/** A real account (a terminal agent's) is alerted on after 10 minutes of silence; its dot is red after 2. */
export const AGENT_SILENCE_ALERT_S = 600;
export const SILENCE_REARM_S = 60;
/** Equity this far (%) under its peak is a drawdown breach; the alert re-arms once back within 3 %. */
export const DRAWDOWN_BREACH_PCT = 6;
export const DRAWDOWN_REARM_PCT = 3;

export const marginAlertMessage = (accountName: string, level: number): string =>
  `Margin level on ${accountName} fell to ${Math.round(level)} % (alert below ${MARGIN_ALERT_LEVEL} %).`;

export const silenceAlertMessage = (accountName: string, minutes: number, brokerName: string): string =>
  `No update from ${accountName} for ${minutes} minutes (${brokerName}).`;

/** What a threshold check reads of an account. */
export interface WatchedAccount {
  id: number;
  name: string;
  brokerName: string;
  equity: number;
  margin: number;
  /** epoch seconds of its last report */
  lastUpdate: number;
}

/** A margin level under MARGIN_ALERT_LEVEL raises an alert, unless one was raised in the last hour. */
export function marginAlert(a: WatchedAccount, nowS: number, lastAlertAt: number | undefined): NewAlert | null {
  const level = marginLevel(a.equity, a.margin);
  if (level === null || level >= MARGIN_ALERT_LEVEL || nowS - (lastAlertAt ?? 0) <= MARGIN_ALERT_REPEAT_S) return null;
  return { type: 'margin', message: marginAlertMessage(a.name, level), at: nowS, accountId: a.id };
}

/**
 * An account silent past SILENCE_ALERT_S raises one alert per silence; once it reports again (within
 * SILENCE_REARM_S) the next silence raises another.
 */
export function silenceAlert(
  a: WatchedAccount,
  nowS: number,
  alerted: boolean,
  after = SILENCE_ALERT_S,
): { alert: NewAlert | null; alerted: boolean } {
  const silent = nowS - a.lastUpdate;
  if (silent > after && !alerted) {
    return {
      alert: { type: 'ping', message: silenceAlertMessage(a.name, Math.round(silent / 60), a.brokerName), at: nowS, accountId: a.id },
      alerted: true,
    };
  }
  return { alert: null, alerted: alerted && silent >= SILENCE_REARM_S };
}

export const drawdownAlertMessage = (accountName: string, drawdownPct: number): string =>
  `Drawdown breach on ${accountName}: equity ${drawdownPct.toFixed(1)} % below its peak.`;

/** The deal row of a closed trade: its net result and its excursions (docs/figures.md). */
export function tradeEntry(t: ClosedTrade): Deal {
  const ex =
    t.low !== null && t.high !== null
      ? excursion(t.type, t.openPrice, Math.min(t.low, t.openPrice, t.closePrice), Math.max(t.high, t.openPrice, t.closePrice))
      : null;
  return {
    accountId: t.accountId,
    kind: 'trade',
    symbol: t.symbol,
    type: t.type,
    category: t.category,
    quantity: t.quantity,
    openPrice: t.openPrice,
    closePrice: t.closePrice,
    openedAt: t.openedAt,
    at: t.closedAt,
    amount: 0,
    profit: t.profit,
    swap: t.swap,
    commission: t.commission,
    fee: t.fee,
    rebate: t.rebate,
    net: cents(netResult(t)),
    mae: ex?.mae ?? null,
    mfe: ex?.mfe ?? null,
    execMs: t.execMs,
    rebalancing: false,
    ticket: t.ticket ?? null,
    positionId: t.positionId ?? null,
    copyOf: t.copyOf ?? null,
  };
}

/** The deal row of a rebate credited: its money is `amount`, and `rebate` says the same (net is a trade's). */
export function rebateEntry(r: RebateCredit): Deal {
  return { ...cashFlowEntry({ accountId: r.accountId, at: r.at, amount: r.amount, rebalancing: false, ticket: r.ticket }), kind: 'rebate', rebate: cents(r.amount) };
}

/** The deal row of a result of the account: its money is `amount` (net is a trade's), its reason names it. */
export function resultEntry(r: AccountResult): Deal {
  return { ...cashFlowEntry({ accountId: r.accountId, at: r.at, amount: r.amount, rebalancing: false, ticket: r.ticket }), kind: 'result', reason: r.reason };
}

/** The deal row of any event the ledger books. */
export function entryOf(e: BookEvent): Deal {
  if ('closedAt' in e) return tradeEntry(e);
  if ('kind' in e) return e.kind === 'rebate' ? rebateEntry(e) : resultEntry(e);
  return cashFlowEntry(e);
}

/** The deal row of a cash flow. */
export function cashFlowEntry(f: CashFlow): Deal {
  return {
    accountId: f.accountId,
    kind: f.amount >= 0 ? 'deposit' : 'withdrawal',
    symbol: null,
    type: null,
    category: null,
    quantity: 0,
    openPrice: null,
    closePrice: null,
    openedAt: null,
    at: f.at,
    amount: cents(f.amount),
    profit: 0,
    swap: 0,
    commission: 0,
    fee: 0,
    rebate: 0,
    net: 0,
    mae: null,
    mfe: null,
    execMs: null,
    rebalancing: f.rebalancing,
    ticket: f.ticket ?? null,
    positionId: null,
    copyOf: null,
    ...(f.opening ? { opening: true } : {}),
    ...(f.reason === undefined ? {} : { reason: f.reason }),
  };
}
