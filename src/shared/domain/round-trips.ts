import { cents } from '#shared/domain/money.ts';
import type { AccountResult, BookEvent, CashFlow, ClosedTrade, RebateCredit } from './book-events.ts';
import type { AssetClass, BrokerEvent, CorporateAction, TradeFill } from './broker-events.ts';
import { balanceMoney } from './broker-events.ts';
import { categoryOfSymbol } from './instruments.ts';
import type { Market } from './market.ts';
import { oppositeSide, type Side } from './side.ts';

/*
 * From a broker's neutral events (src/shared/domain/broker-events.ts) to what the ledger books: the
 * round trips of its positions, and the events that move the balance by themselves. Pure; the same
 * for every broker.
 */

const EPSILON = 1e-9;

/** The product's market of an instrument: forex and CFDs by their symbol (the classifier's), every other asset class Equities [ours]. */
export function marketOfAsset(assetClass: AssetClass, symbolMarket: Market): Market {
  if (assetClass === 'forex' || assetClass === 'cfd') return symbolMarket;
  return 'Equities';
}

/** The product's market of an instrument a broker reports (docs/instruments.md). */
export const marketOf = (symbol: string, assetClass: AssetClass): Market => marketOfAsset(assetClass, categoryOfSymbol(symbol));

/** A round trip, with its result in the currency its fills were booked in (a statement's realized result per currency). */
export interface RoundTrip {
  trade: ClosedTrade;
  currency: string;
  /** profit + commission + fee + swap in `currency`. */
  net: number;
}

type PositionEvent = TradeFill | CorporateAction;

/** The open part of a position: its side, quantity, price × quantity, commission and first fill's time. */
export interface OpenPart {
  side: Side;
  quantity: number;
  value: number;
  commission: number;
  openedAt: number;
  symbol: string;
  multiplier: number;
}

/**
 * The round trips of an account's fills and corporate actions, position by position (a position's
 * fills are kept under its reference; two positions open at once are never netted together), in the
 * order they closed, with money in the account's currency (each event's `rate`).
 *
 * Each closing fill closes part or all of what the opening fills opened, at their volume-weighted
 * price, and carries its share of their commission; a reversing fill closes everything open and
 * opens the rest the other way. A closing fill without its opening fills (a history that starts
 * mid-position) is a round trip opened at its own price and time. The result is the broker's where
 * it states one (`profit` before commissions; `realizedNet` after them, on the broker's own cost
 * basis), else price move × quantity × multiplier. A corporate action changes a position's quantity
 * and keeps its cost (a split), moves it or part of its cost into another position (a tender, a
 * merger or spin-off into new shares, a split under a new contract id), or closes it for cash (a
 * merger for cash). Each round trip keeps the ref of the event that closed it as its ticket.
 */
export function roundTrips(accountId: number, events: readonly BrokerEvent[], marketOf: (symbol: string, assetClass: AssetClass) => Market): RoundTrip[] {
  return replay(accountId, events, marketOf).trips;
}

/** roundTrips, and what is left open once every event is applied, by position. */
export function replay(
  accountId: number,
  events: readonly BrokerEvent[],
  marketOf: (symbol: string, assetClass: AssetClass) => Market,
): { trips: RoundTrip[]; open: ReadonlyMap<number, OpenPart> } {
  const items = events
    .filter((e): e is PositionEvent => e.kind === 'fill' || e.kind === 'corporate_action')
    .sort((a, b) => a.at - b.at || order(a) - order(b) || a.ref - b.ref);
  const open = new Map<number, OpenPart>();
  const trips: RoundTrip[] = [];

  const close = (
    position: number,
    e: PositionEvent,
    quantity: number,
    price: number,
    own: { commission: number; fee: number; swap: number; profit: number | null; realizedNet: number | null; side: Side },
  ) => {
    const o = open.get(position);
    const has = o !== undefined && o.quantity > EPSILON;
    const openPrice = has ? o.value / o.quantity : price;
    const closed = has ? Math.min(quantity, o.quantity) : quantity;
    const share = has ? (o.commission * closed) / o.quantity : 0;
    const side: Side = has ? o.side : oppositeSide(own.side);
    const multiplier = e.multiplier;
    const moved = (side === 'Buy' ? price - openPrice : openPrice - price) * quantity * multiplier;
    const profit = own.profit ?? (own.realizedNet != null ? own.realizedNet - own.commission - share - own.fee - own.swap : moved);
    const commission = own.commission + share;
    const trade: ClosedTrade = {
      accountId,
      ticket: e.ref,
      symbol: has ? o.symbol : e.symbol,
      type: side,
      category: marketOf(e.symbol, e.assetClass),
      quantity,
      openPrice,
      closePrice: price,
      openedAt: has ? o.openedAt : e.at,
      closedAt: e.at,
      profit: e.rate === 1 ? profit : profit * e.rate,
      swap: e.rate === 1 ? own.swap : own.swap * e.rate,
      commission: cents(commission * e.rate),
      fee: e.rate === 1 ? own.fee : own.fee * e.rate,
      rebate: 0,
      low: null,
      high: null,
      execMs: null,
      positionId: position,
    };
    trips.push({ trade, currency: e.currency, net: profit + commission + own.fee + own.swap });
    if (has) {
      o.value -= openPrice * closed;
      o.quantity -= closed;
      o.commission -= share;
      if (o.quantity <= EPSILON) open.delete(position);
    }
  };

  const add = (position: number, side: Side, quantity: number, value: number, commission: number, at: number, symbol: string, multiplier: number) => {
    const o = open.get(position);
    if (o && o.quantity > EPSILON) {
      o.quantity += quantity;
      o.value += value;
      o.commission += commission;
    } else {
      open.set(position, { side, quantity, value, commission, openedAt: at, symbol, multiplier });
    }
  };

  for (const e of items) {
    if (e.kind === 'fill') {
      const own = { commission: e.commission, fee: e.fee, swap: e.swap, profit: e.profit, realizedNet: e.realizedNet ?? null, side: e.side };
      if (e.effect === 'open') {
        add(e.position, e.side, e.quantity, e.price * e.quantity, e.commission, e.at, e.symbol, e.multiplier);
      } else if (e.effect === 'reverse') {
        const o = open.get(e.position);
        const closing = o && o.quantity > EPSILON ? o.quantity : e.quantity;
        close(e.position, e, closing, e.price, own);
        const rest = e.quantity - closing;
        if (rest > EPSILON) add(e.position, e.side, rest, e.price * rest, 0, e.at, e.symbol, e.multiplier);
      } else {
        close(e.position, e, e.quantity, e.price, own);
      }
      continue;
    }
    corporateAction(e);
  }

  function corporateAction(e: CorporateAction): void {
    const o = open.get(e.position);
    if (e.into) {
      // The quantity leaving (all of it, or the part the action names) takes its cost to the new position.
      if (o && o.quantity > EPSILON) {
        const leaving = e.quantity < 0 ? Math.min(-e.quantity, o.quantity) : 0;
        const part = e.action === 'spinoff' ? e.into.costShare : o.quantity > EPSILON ? leaving / o.quantity : 0;
        const value = o.value * part;
        const commission = o.commission * part;
        o.value -= value;
        o.commission -= commission;
        o.quantity -= leaving;
        // Emptied first: the new position may be the same one (a reverse split under one contract id).
        if (o.quantity <= EPSILON) open.delete(e.position);
        add(e.into.position, o.side, e.into.quantity, value, commission, o.openedAt, e.into.symbol, e.multiplier);
      } else if (e.into.quantity > 0) {
        // Nothing known of the position before it (a history that starts later): the new one opens at no cost.
        add(e.into.position, 'Buy', e.into.quantity, 0, 0, e.at, e.into.symbol, e.multiplier);
      }
      return;
    }
    if (e.quantity < 0) {
      // Leaving for cash (a merger or tender for cash): a round trip closed at the proceeds.
      const quantity = -e.quantity;
      const price = e.proceeds / (quantity * (e.multiplier || 1));
      const side: Side = o?.side ?? 'Buy';
      close(e.position, e, quantity, price, {
        commission: 0,
        fee: 0,
        swap: 0,
        profit: null,
        realizedNet: e.realizedNet ?? null,
        side: oppositeSide(side),
      });
      return;
    }
    if (o && o.quantity > EPSILON) {
      // A split within the same position: more (or fewer) units for the same cost.
      o.quantity += e.quantity;
      if (o.quantity <= EPSILON) open.delete(e.position);
    } else if (e.quantity > 0) {
      add(e.position, 'Buy', e.quantity, 0, 0, e.at, e.symbol, e.multiplier);
    }
  }

  trips.sort((a, b) => a.trade.closedAt - b.trade.closedAt || (a.trade.ticket ?? 0) - (b.trade.ticket ?? 0));
  return { trips, open };
}

/** At one time, quantity leaving an instrument is moved before what comes into another, and fills after corporate actions. */
function order(e: PositionEvent): number {
  if (e.kind === 'fill') return 2;
  return e.into || e.quantity < 0 ? 0 : 1;
}

/**
 * The events that move the balance by themselves, not through a position, as the ledger books them,
 * in the account's currency: cash flows (a bonus among them), rebates credited and results of the
 * account (an income or charge, a conversion's commission). Events that move nothing (a credit, a
 * memo, a zero amount) are left out.
 */
export function balanceOperations(accountId: number, events: readonly BrokerEvent[]): BookEvent[] {
  const out: BookEvent[] = [];
  for (const e of events) {
    const amount = cents(balanceMoney(e) * e.rate);
    if (amount === 0) continue;
    if (e.kind === 'cash') {
      const flow: CashFlow = { accountId, ticket: e.ref, at: e.at, amount, rebalancing: e.rebalancing ?? false, ...(e.flow === 'bonus' ? { reason: 'bonus' as const } : {}) };
      out.push(flow);
    } else if (e.kind === 'income' && e.income === 'rebate') {
      const credit: RebateCredit = { kind: 'rebate', accountId, ticket: e.ref, at: e.at, amount };
      out.push(credit);
    } else if (e.kind === 'income' || e.kind === 'conversion') {
      const reason = e.kind === 'conversion' ? 'commission' : e.income;
      if (reason === 'credit' || reason === 'rebate') continue;
      const result: AccountResult = { kind: 'result', accountId, ticket: e.ref, at: e.at, amount, reason };
      out.push(result);
    }
  }
  return out;
}
