import { categoryOfSymbol, canonicalSymbol } from '#shared/domain/instruments.ts';
import type { AccountResult, BookEvent, CashFlow, ClosedTrade, RebateCredit } from '#shared/domain/book-events.ts';
import { mt5Events, type Mt5Deal } from '#shared/domain/mt5-events.ts';
import { balanceOperations as neutralOperations, marketOf, roundTrips as neutralTrips } from '#shared/domain/round-trips.ts';

/**
 * A MetaTrader deal (src/shared/contract/ingest.ts) as the books read it: its symbol canonical and its
 * time in UTC (epoch seconds), without the order and comment.
 */
export type BrokerDeal = Mt5Deal;

/** The product's market of a symbol (docs/instruments.md). */
export const categoryOf = categoryOfSymbol;

/**
 * A broker's symbol names → ours: the operator's symbol map first (`npm run admin -- symbol map`),
 * else the classifier's canonical name (`audusd` → AUDUSD, `EURUSD.m` → EURUSD).
 */
export const symbolNamer =
  (map: ReadonlyMap<string, string>) =>
  (symbol: string): string =>
    map.get(symbol) ?? canonicalSymbol(symbol);

/*
 * MetaTrader deals through the neutral model (src/shared/domain/mt5-events.ts, round-trips.ts): what
 * the books make of an account's MetaTrader deals. The money is the account's own (rate 1).
 */

/** The round trips of an account's MetaTrader deals, position by position, in the order they closed. */
export function roundTrips(accountId: number, deals: readonly BrokerDeal[]): ClosedTrade[] {
  return neutralTrips(accountId, mt5Events(deals, ''), marketOf).map((t) => t.trade);
}

/** Every deal that moves the balance by itself, not as part of a position: cash flows, rebates credited and results of the account. */
export function balanceOperations(accountId: number, deals: readonly BrokerDeal[]): BookEvent[] {
  return neutralOperations(accountId, mt5Events(deals, ''));
}

/** Balance deals and bonuses: deposits (money in) and withdrawals, by their tickets; a bonus is named by its reason. */
export const cashFlows = (accountId: number, deals: readonly BrokerDeal[]): CashFlow[] =>
  balanceOperations(accountId, deals).filter((e): e is CashFlow => !('kind' in e));

/** Agent commission deals: the introducing broker's rebate, which MT5 credits to the balance, by their tickets. */
export const rebateCredits = (accountId: number, deals: readonly BrokerDeal[]): RebateCredit[] =>
  balanceOperations(accountId, deals).filter((e): e is RebateCredit => 'kind' in e && e.kind === 'rebate');

/** Results of the account the broker books as deals of their own (charges, commissions, interest, dividends, tax), by their tickets. */
export const accountResults = (accountId: number, deals: readonly BrokerDeal[]): AccountResult[] =>
  balanceOperations(accountId, deals).filter((e): e is AccountResult => 'kind' in e && e.kind === 'result');
