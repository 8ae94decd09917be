import { cents } from '#shared/analytics/stats.ts';
import { categoryOfSymbol, canonicalSymbol } from '#shared/domain/instruments.ts';
import { DEAL_TYPE, type IngestDeal } from '#shared/contract/ingest.ts';
import { balanceEffect, dealRole } from '#shared/domain/deal-types.ts';
import type { AccountResult, BookEvent, CashFlow, ClosedTrade, RebateCredit } from '#shared/domain/book-events.ts';
import { oppositeSide, type Side } from '#shared/domain/side.ts';

/**
 * An ingest deal (src/shared/contract/ingest.ts) as the books read it and broker_deals stores it: its
 * symbol canonical and its time in UTC (epoch seconds), without the order and comment.
 */
export type BrokerDeal = Omit<IngestDeal, 'order' | 'comment'>;

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
const isTrade = (d: BrokerDeal) => dealRole(d.type) === 'trade';
const sideOf = (d: BrokerDeal): Side => (d.type === DEAL_TYPE.buy ? 'Buy' : 'Sell');
const EPSILON = 1e-9;

/**
 * The round trips of an account's deals, position by position (MT5 keeps each position's deals under
 * its identifier; two positions open at once are never netted together), in the order they closed.
 */
export function roundTrips(accountId: number, deals: readonly BrokerDeal[]): ClosedTrade[] {
  const byPosition = new Map<number, BrokerDeal[]>();
  for (const d of deals) byPosition.set(d.position_id, [...(byPosition.get(d.position_id) ?? []), d]);
  return [...byPosition.values()]
    .flatMap((group) => positionRoundTrips(accountId, group))
    .sort((a, b) => a.closedAt - b.closedAt || (a.ticket ?? 0) - (b.ticket ?? 0));
}

/**
 * The round trips of one position's deals (MT5 netting of a position by its identifier): each out
 * deal closes part or all of what the in deals opened, at their volume-weighted price, and carries
 * its share of their commission; an in/out deal (a reversal) closes everything open and opens the
 * rest the other way; out by closes like out. An out deal without its in deals (history that starts
 * mid-position) is a round trip opened at its own price and time. Each round trip keeps the ticket
 * of the deal that closed it.
 */
function positionRoundTrips(accountId: number, deals: readonly BrokerDeal[]): ClosedTrade[] {
  const trades: ClosedTrade[] = [];
  let side: Side | null = null;
  let openVolume = 0;
  let openValue = 0;
  let openCommission = 0;
  let openedAt = 0;
  const close = (d: BrokerDeal, volume: number, commission: number, profit: number) => {
    const openPrice = openVolume > EPSILON ? openValue / openVolume : d.price;
    const share = openVolume > EPSILON ? (openCommission * Math.min(volume, openVolume)) / openVolume : 0;
    trades.push({
      accountId,
      ticket: d.ticket,
      symbol: d.symbol,
      type: side ?? oppositeSide(sideOf(d)),
      category: categoryOf(d.symbol),
      quantity: volume,
      openPrice,
      closePrice: d.price,
      openedAt: openVolume > EPSILON ? openedAt : d.time,
      closedAt: d.time,
      profit,
      swap: d.swap,
      commission: cents(commission + share),
      fee: d.fee,
      rebate: 0,
      low: null,
      high: null,
      execMs: null,
    });
    const closed = Math.min(volume, openVolume);
    openValue -= openPrice * closed;
    openVolume -= closed;
    openCommission -= share;
    if (openVolume <= EPSILON) {
      side = null;
      openVolume = 0;
      openValue = 0;
      openCommission = 0;
    }
  };
  const sorted = deals.filter(isTrade).sort((a, b) => a.time - b.time || a.ticket - b.ticket);
  for (const d of sorted) {
    if (d.entry === 'in') {
      if (side === null) {
        side = sideOf(d);
        openedAt = d.time;
      }
      openVolume += d.volume;
      openValue += d.price * d.volume;
      openCommission += d.commission;
    } else if (d.entry === 'inout') {
      const closing = openVolume > EPSILON ? openVolume : d.volume;
      close(d, closing, d.commission, d.profit);
      const rest = d.volume - closing;
      if (rest > EPSILON) {
        side = sideOf(d);
        openVolume = rest;
        openValue = d.price * rest;
        openedAt = d.time;
      }
    } else {
      close(d, d.volume, d.commission, d.profit);
    }
  }
  return trades;
}

/** The deals of one role (src/shared/domain/deal-types.ts) that move the balance, with the money each moves. */
const moving = (deals: readonly BrokerDeal[], role: ReturnType<typeof dealRole>) =>
  deals.flatMap((d) => {
    const amount = dealRole(d.type) === role ? balanceEffect(d) : 0;
    return amount === 0 ? [] : [{ d, amount }];
  });

/**
 * Balance deals (type 2) and bonuses (type 6): deposits (money in) and withdrawals, by their tickets. A
 * bonus is the broker's money brought into the account, a cash flow like a deposit; its type names it.
 */
export function cashFlows(accountId: number, deals: readonly BrokerDeal[]): CashFlow[] {
  return moving(deals, 'flow').map(({ d, amount }) => ({
    accountId,
    ticket: d.ticket,
    at: d.time,
    amount,
    rebalancing: false,
    ...(d.type === DEAL_TYPE.balance ? {} : { dealType: d.type }),
  }));
}

/**
 * MT5 agent commission deals (types 10 daily and 11 monthly): the introducing broker's rebate, which
 * MT5 credits to the balance, by their tickets.
 */
export function rebateCredits(accountId: number, deals: readonly BrokerDeal[]): RebateCredit[] {
  return moving(deals, 'rebate').map(({ d, amount }) => ({ kind: 'rebate', accountId, ticket: d.ticket, at: d.time, amount }));
}

/**
 * Results of the account the broker books as deals of their own: charges (4), corrections (5),
 * commissions (7, daily 8, monthly 9), interest (12), dividends (15, franked 16) and tax (17), by their
 * tickets. Each moves the balance by its money, as MT5 does.
 */
export function accountResults(accountId: number, deals: readonly BrokerDeal[]): AccountResult[] {
  return moving(deals, 'result').map(({ d, amount }) => ({ kind: 'result', accountId, ticket: d.ticket, at: d.time, amount, dealType: d.type }));
}

/**
 * Every deal that moves the balance by itself, not as part of a position: cash flows, rebates credited
 * and results of the account. A credit (3) and a canceled order (13, 14) move none.
 */
export function balanceOperations(accountId: number, deals: readonly BrokerDeal[]): BookEvent[] {
  return [...cashFlows(accountId, deals), ...rebateCredits(accountId, deals), ...accountResults(accountId, deals)];
}
