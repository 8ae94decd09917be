import { cents } from '#shared/domain/money.ts';
import { DEAL_TYPE, type DealEntryType, type IngestDeal } from '#shared/contract/ingest.ts';
import type { AssetClass, BrokerEvent, FillEffect, IncomeKind } from './broker-events.ts';
import { balanceEffect, dealRole, mt5Reason } from './deal-types.ts';
import { instrumentSpec } from './instruments.ts';

/**
 * The MetaTrader mapping onto the neutral deal model (src/shared/domain/broker-events.ts): a deal of
 * MetaTrader 5 (or MT4 as the statement reader writes it in MT5's terms), as the Ingest API carries
 * it and the statement readers read it, becomes one neutral event. MT5's type numbers and in/out
 * entries stop here.
 */

/** A MetaTrader deal as the books read it: its symbol canonical and its time in UTC (epoch seconds), without the order and comment. */
export type Mt5Deal = Omit<IngestDeal, 'order' | 'comment'>;

const EFFECTS: Readonly<Record<DealEntryType, FillEffect>> = { in: 'open', out: 'close', inout: 'reverse', out_by: 'close' };

/** What a MetaTrader symbol trades as: a currency pair is forex, the rest contracts for difference. */
export function mt5AssetClass(symbol: string): AssetClass {
  return instrumentSpec(symbol).category === 'Forex' ? 'forex' : 'cfd';
}

/** A MetaTrader deal as a neutral event, its money in the account's `currency`. */
export function mt5Event(d: Mt5Deal, currency: string): BrokerEvent {
  const base = { ref: d.ticket, at: d.time, currency, rate: 1 };
  const role = dealRole(d.type);
  if (role === 'trade') {
    return {
      ...base,
      kind: 'fill',
      position: d.position_id,
      symbol: d.symbol,
      assetClass: mt5AssetClass(d.symbol),
      side: d.type === DEAL_TYPE.buy ? 'Buy' : 'Sell',
      quantity: d.volume,
      price: d.price,
      multiplier: instrumentSpec(d.symbol).contract,
      effect: EFFECTS[d.entry],
      commission: d.commission,
      fee: d.fee,
      swap: d.swap,
      profit: d.profit,
    };
  }
  const amount = cents(d.profit + d.commission + d.fee + d.swap);
  if (role === 'flow') {
    if (d.type === DEAL_TYPE.bonus) return { ...base, kind: 'cash', flow: 'bonus', amount };
    return { ...base, kind: 'cash', flow: amount >= 0 ? 'deposit' : 'withdrawal', amount };
  }
  if (role === 'rebate') return { ...base, kind: 'income', income: 'rebate', amount };
  if (role === 'result') return { ...base, kind: 'income', income: mt5Reason(d.type) as IncomeKind, amount: balanceEffect(d) };
  if (d.type === DEAL_TYPE.credit) return { ...base, kind: 'income', income: 'credit', amount };
  return { ...base, kind: 'memo', note: d.type === DEAL_TYPE.buyCanceled || d.type === DEAL_TYPE.sellCanceled ? 'canceled order' : `MT5 deal type ${d.type}` };
}

/** A MetaTrader account's deals as neutral events. */
export const mt5Events = (deals: readonly Mt5Deal[], currency: string): BrokerEvent[] => deals.map((d) => mt5Event(d, currency));
