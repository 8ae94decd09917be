import type { Side } from './side.ts';

/*
 * The broker-neutral deal model: what any broker reports of an account, before the books. Each
 * broker's own format is mapped onto these events at its edge (MetaTrader 5 and 4 deals in
 * src/shared/domain/mt5-events.ts, Interactive Brokers Flex statements in src/shared/statements/ibkr/), and
 * the books are made from them alone (src/shared/domain/round-trips.ts, the ledger). Nothing past
 * the edge knows a broker's type numbers or field names (docs/decisions/0014-neutral-deal-model.md).
 *
 * Times are UTC epoch seconds. Money (commission, fee, swap, profit, amounts, proceeds) is in the
 * event's `currency`, the one the broker booked it in, and `rate` turns it into the account's currency
 * (the broker's own rate of that day; 1 where they are the same): the books convert with it, and
 * figures per currency (a statement's cash and realized result) group by it. Prices are in the
 * instrument's currency, as quoted. `ref` is the broker's id of the event (a ticket, a transaction id),
 * unique within the account: the books keep each event once by it.
 */

/** What an instrument is, as far as the books care (quantity units, how a price becomes money). */
export type AssetClass = 'forex' | 'cfd' | 'stock' | 'etf' | 'option' | 'future' | 'future_option' | 'bond' | 'fund' | 'other';
export const ASSET_CLASSES: readonly AssetClass[] = ['forex', 'cfd', 'stock', 'etf', 'option', 'future', 'future_option', 'bond', 'fund', 'other'];

/**
 * What a fill does to its position: `open` adds to it (or starts it), `close` takes from it, `reverse`
 * closes what is open and opens the rest the other way (MetaTrader's in/out).
 */
export type FillEffect = 'open' | 'close' | 'reverse';

interface EventBase {
  ref: number;
  /** UTC epoch seconds. */
  at: number;
  /** The currency of the event's money (ISO 4217). */
  currency: string;
  /** One unit of `currency` in the account's currency, as the broker booked the event (1 where the same). */
  rate: number;
}

/** A trade fill: part of a position, opening or closing it. */
export interface TradeFill extends EventBase {
  kind: 'fill';
  /** The position it belongs to (MetaTrader's position id; a broker's contract id where positions net by instrument). */
  position: number;
  symbol: string;
  assetClass: AssetClass;
  side: Side;
  /** Lots for forex and CFDs; shares or contracts otherwise. Positive. */
  quantity: number;
  price: number;
  /** What one unit of price move is worth per unit of quantity, in the instrument's currency (1 for a share; 100 for most options; the contract size for futures). */
  multiplier: number;
  effect: FillEffect;
  commission: number;
  fee: number;
  swap: number;
  /**
   * The broker's own result of a closing fill, before commissions (MetaTrader's deal profit). Null
   * where the broker does not state it: the books compute it from the prices.
   */
  profit: number | null;
  /**
   * The broker's own realized result of a closing fill after the commissions of the lots it closes and
   * of the fill itself (Interactive Brokers' FIFO realized P/L, on its own cost basis). Null where not stated.
   */
  realizedNet?: number | null;
}

/** Money brought into the account or taken out of it. `bonus`: the broker's money, counted as capital brought in. */
export type CashFlowKind = 'deposit' | 'withdrawal' | 'transfer' | 'bonus';
export interface CashMovement extends EventBase {
  kind: 'cash';
  flow: CashFlowKind;
  /** Signed: positive into the account. */
  amount: number;
  /** A transfer between the portfolio's own accounts (shown apart when rebalancing is filtered out). */
  rebalancing?: boolean;
}

/**
 * What the account earned or paid beside its trades. `rebate` is an introducing broker's rebate paid
 * into the account (income, not a deposit); the others are results of the account. `credit` is money
 * lent by the broker, kept apart from the balance: it is recorded and moves nothing.
 */
export type IncomeKind =
  | 'dividend'
  | 'dividend_franked'
  | 'withholding_tax'
  | 'tax'
  | 'interest'
  | 'fee'
  | 'charge'
  | 'correction'
  | 'commission'
  | 'commission_daily'
  | 'commission_monthly'
  | 'rebate'
  | 'credit';
export const INCOME_KINDS: readonly IncomeKind[] = [
  'dividend', 'dividend_franked', 'withholding_tax', 'tax', 'interest', 'fee', 'charge', 'correction', 'commission',
  'commission_daily', 'commission_monthly', 'rebate', 'credit',
];
export interface IncomeOrCharge extends EventBase {
  kind: 'income';
  income: IncomeKind;
  /** Signed: positive into the account. */
  amount: number;
  /** The instrument it is about (a dividend's share), where there is one. */
  symbol?: string | null;
}

/**
 * A corporate action on a position: `split` (or reverse split) changes the quantity and keeps the
 * cost; `merger` and `tender` for cash close the position at `proceeds`; a `tender`, `merger` or
 * `spinoff` into another instrument moves the position (or part of its cost, `costShare`) to
 * `intoPosition`. Quantities are signed changes of the position named.
 */
export type CorporateActionKind = 'split' | 'merger' | 'tender' | 'spinoff' | 'other';
export interface CorporateAction extends EventBase {
  kind: 'corporate_action';
  action: CorporateActionKind;
  position: number;
  symbol: string;
  assetClass: AssetClass;
  /** The change of the position's quantity (−12 000 leaving, +480 after a 1-for-25 split). */
  quantity: number;
  /** Cash received for the quantity leaving (a merger for cash), in the event's currency; 0 otherwise. */
  proceeds: number;
  /** The broker's realized result of it after costs, where it states one. */
  realizedNet?: number | null;
  /** Where the quantity (and its cost) goes: the new instrument's position, with the quantity it receives. */
  into?: { position: number; symbol: string; quantity: number; costShare: number } | null;
  multiplier: number;
}

/**
 * Money changed from one currency into another inside the account (a currency trade, an automatic
 * conversion): `amount` of the event's currency left (negative) or came in, against `counter` of
 * another. Its commission (in the event's currency, negative) is a cost of the account.
 */
export interface CurrencyConversion extends EventBase {
  kind: 'conversion';
  amount: number;
  counter: { currency: string; amount: number };
  commission: number;
}

/**
 * A row the broker lists that moves nothing on the books (a canceled order, a type the mapping does
 * not know): kept by its ref so that the same file or batch again is seen as unchanged.
 */
export interface Memo extends EventBase {
  kind: 'memo';
  note: string;
}

export type BrokerEvent = TradeFill | CashMovement | IncomeOrCharge | CorporateAction | CurrencyConversion | Memo;
export type BrokerEventKind = BrokerEvent['kind'];

/**
 * The money an event moves on the balance by itself, not through a position, in the event's currency:
 * a cash flow's or an income's amount (0 for a credit), a conversion's commission; 0 for the rest.
 */
export function balanceMoney(e: BrokerEvent): number {
  if (e.kind === 'cash') return e.amount;
  if (e.kind === 'income') return e.income === 'credit' ? 0 : e.amount;
  if (e.kind === 'conversion') return e.commission;
  return 0;
}
