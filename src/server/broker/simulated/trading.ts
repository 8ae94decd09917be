import type { Side } from '#shared/domain/side.ts';
import { convertAtMids, roundPrice, type Instrument, type Mids } from './instruments.ts';

export interface BrokerTerms {
  spread_pips: number;
  latency_ms: number;
  commission_per_lot: number;
  rebate_per_lot: number;
}

/** Raw interbank spread before the broker's mark-up, in pips. */
const RAW_SPREAD_PIPS = 0.3;

export const direction = (type: Side): 1 | -1 => (type === 'Buy' ? 1 : -1);

/** The broker's bid and ask around the market mid. */
export function quote(inst: Instrument, mid: number, broker: BrokerTerms): { bid: number; ask: number } {
  const half = ((RAW_SPREAD_PIPS + broker.spread_pips) * inst.pip) / 2;
  return { bid: roundPrice(mid - half, inst.digits), ask: roundPrice(mid + half, inst.digits) };
}

/** Price a position opens at (buy at the ask, sell at the bid), plus slippage in pips. */
export function entryPrice(inst: Instrument, mid: number, broker: BrokerTerms, type: Side, slippagePips = 0): number {
  const q = quote(inst, mid, broker);
  const base = type === 'Buy' ? q.ask : q.bid;
  return roundPrice(base + direction(type) * slippagePips * inst.pip, inst.digits);
}

/** Price a position is valued or closed at (buy closes at the bid, sell at the ask). */
export function exitPrice(inst: Instrument, mid: number, broker: BrokerTerms, type: Side): number {
  const q = quote(inst, mid, broker);
  return type === 'Buy' ? q.bid : q.ask;
}

/** P/L in the instrument's quote currency: (close − open) × contract × quantity × direction (docs/figures.md). */
export function pnlInQuote(inst: Instrument, type: Side, open: number, close: number, quantity: number): number {
  return (close - open) * inst.contract * quantity * direction(type);
}

export function pnlInCurrency(
  inst: Instrument,
  type: Side,
  open: number,
  close: number,
  quantity: number,
  currency: string,
  mids: Mids,
): number {
  return convertAtMids(pnlInQuote(inst, type, open, close, quantity), inst.quote, currency, mids);
}

/** Round-trip commission (negative), in the account currency. */
export function commissionFor(inst: Instrument, broker: BrokerTerms, quantity: number, currency: string, mids: Mids): number {
  const usd = inst.category === 'Forex' ? broker.commission_per_lot * quantity : Math.max(1, 0.005 * quantity);
  return -convertAtMids(usd, 'USD', currency, mids);
}

/** Exchange and regulatory fees (negative): equities only. */
export function feeFor(inst: Instrument, quantity: number, price: number, currency: string, mids: Mids): number {
  if (inst.category === 'Forex') return 0;
  return -convertAtMids(0.0001 * quantity * price, 'USD', currency, mids);
}

/** IB rebate earned by a round trip: lots × rate per lot (docs/figures.md); equities per 100 shares at a tenth of the rate. */
export function rebateFor(inst: Instrument, broker: BrokerTerms, quantity: number, currency: string, mids: Mids): number {
  const usd = inst.category === 'Forex' ? quantity * broker.rebate_per_lot : (quantity / 100) * broker.rebate_per_lot * 0.1;
  return convertAtMids(usd, 'USD', currency, mids);
}

function symbolHash(symbol: string): number {
  let h = 7;
  for (const c of symbol) h = (h * 31 + c.charCodeAt(0)) % 9973;
  return h;
}

/** Swap for holding one night, in the account currency: forex by a per-symbol table, equities by financing. */
export function nightlySwap(
  inst: Instrument,
  type: Side,
  quantity: number,
  price: number,
  currency: string,
  mids: Mids,
): number {
  let usd: number;
  if (inst.category === 'Forex') {
    const h = symbolHash(inst.symbol);
    const perLot = type === 'Buy' ? -(2 + (h % 6)) : (h % 4) - 1.5;
    usd = perLot * quantity;
  } else {
    usd = (-quantity * price * (type === 'Buy' ? 0.06 : 0.03)) / 360;
  }
  return convertAtMids(usd, 'USD', currency, mids);
}

