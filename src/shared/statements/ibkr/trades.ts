import type { CurrencyConversion, FillEffect, Memo, TradeFill } from '#shared/domain/broker-events.ts';
import type { Side } from '#shared/domain/side.ts';
import type { StatementBook } from './book.ts';
import { amountOf, assetClassOf, describeRow, isFutureLike, momentOf, notesOf, numberOf, positionOf } from './fields.ts';
import { idOf } from './refs.ts';
import type { FlexRow } from './walk.ts';
import { counted } from './warnings.ts';

/*
 * The Trades section → fills and currency conversions. IB can list one trade at several levels of
 * detail at once (EXECUTION rows, the ORDER they add up to, the CLOSED_LOT rows a closing trade closed):
 * one level is booked, executions where the query has them, so no fill is counted twice. Cancelled
 * trades are not booked and a correction replaces its original; the lots are read only for IB's cost
 * basis of an assigned or exercised position.
 */

const EXECUTION = 'EXECUTION';
const ORDER = 'ORDER';
const DEFAULT_LEVEL: Record<string, string> = {
  Trade: EXECUTION,
  TradeCancel: EXECUTION,
  Order: ORDER,
  Lot: 'CLOSED_LOT',
  SymbolSummary: 'SYMBOL_SUMMARY',
  AssetSummary: 'ASSET_SUMMARY',
  WashSale: 'WASH_SALE',
};
const BOOKABLE = new Set(['Trade', 'Order', 'TradeCancel']);
/** Notes of a stock fill that comes from an option: assignment, exercise (also automatic, manual, offsetting). */
const FROM_OPTION = ['A', 'Ex', 'AEx', 'MEx', 'GEA'];

interface TradeRow {
  row: FlexRow;
  at: number;
  day: string;
  notes: Set<string>;
  ref: number;
  /** A row that cancels an earlier trade (a TradeCancel element, notes Ca, buySell "BUY (Ca.)"). */
  cancels: boolean;
}

/** IB's cost basis of the lots a closing trade closed, by the transactionID of the trade that opened them. */
type LotBasis = Map<number, { cost: number; quantity: number }>;

/** Books a statement's Trades section. */
export function bookTrades(rows: readonly FlexRow[], book: StatementBook): void {
  const section = rows.filter((r) => r.section === 'Trades');
  const level = bookedLevel(section, book);
  if (level === null) return;
  const read = section.filter((r) => BOOKABLE.has(r.tag) && levelOf(r) === level).flatMap((r) => readRow(r, book) ?? []);
  const { booked, removed, unmatched } = settleCancellations(dropRepeats(read, book), book);
  const lots = lotBasis(section);
  for (const [original, note] of removed) addMemo(original, note, book);
  for (const cancel of unmatched) addMemo(cancel, 'Cancellation of a trade that is not in this statement', book);
  for (const t of booked) {
    if ((t.row.attrs.assetCategory ?? '').trim().toUpperCase() === 'CASH') bookConversion(t, book);
    else bookFill(t, lots, book);
  }
}

const levelOf = (row: FlexRow): string => (row.attrs.levelOfDetail ?? '').trim().toUpperCase() || (DEFAULT_LEVEL[row.tag] ?? '');

/** EXECUTION where the section has executions, else ORDER; null (with a warning) when it only summarises. */
function bookedLevel(section: readonly FlexRow[], book: StatementBook): string | null {
  const levels = new Set(section.filter((r) => BOOKABLE.has(r.tag)).map(levelOf));
  if (levels.has(EXECUTION)) return EXECUTION;
  if (levels.has(ORDER)) return ORDER;
  const summaries = section.filter((r) => r.tag !== 'Lot').length;
  if (summaries > 0) {
    book.warnings.add(
      'trades-summarised',
      (n) => `${counted(n, 'trade row')} at summary level only (no EXECUTION or ORDER rows) not booked: set the Flex Query's Trades to Execution`,
      summaries,
    );
  }
  return null;
}

function readRow(row: FlexRow, book: StatementBook): TradeRow | null {
  const moment = momentOf(row, book.order);
  if (moment === null) {
    book.warnings.add('trade-date', (n) => `${counted(n, 'trade row')} without a readable date left out`);
    return null;
  }
  const notes = notesOf(row, book.warnings);
  const cancels = row.tag === 'TradeCancel' || notes.has('Ca') || /\(Ca\.?\)/.test(row.attrs.buySell ?? '');
  return { row, at: moment.at, day: moment.day, notes, ref: book.refs.of(row.tag, row.attrs), cancels };
}

/** The same execution listed twice (the same id at the same level): booked once. */
function dropRepeats(rows: readonly TradeRow[], book: StatementBook): TradeRow[] {
  const seen = new Set<string>();
  return rows.filter((t) => {
    const id = idOf(t.row.attrs.transactionID) ?? idOf(t.row.attrs.tradeID);
    if (id === null) return true;
    const key = `${t.cancels}:${id}`;
    if (!seen.has(key)) {
      seen.add(key);
      return true;
    }
    book.warnings.add('trade-repeat', (n) => `${counted(n, 'trade row')} listed again with the same id booked once`);
    return false;
  });
}

/**
 * Cancellations and corrections. A cancelling row takes its original out (named by origTransactionID or
 * origTradeID, else the same tradeID, else the latest earlier trade of the same contract, quantity and
 * price); a correcting row (notes Co, or one naming an original) is booked and takes its original out.
 * The originals become memos under their own refs, so a file imported again changes nothing.
 */
function settleCancellations(rows: readonly TradeRow[], book: StatementBook) {
  const byTransaction = new Map<number, TradeRow>();
  const byTrade = new Map<number, TradeRow>();
  for (const t of rows) {
    if (t.cancels) continue;
    const tx = idOf(t.row.attrs.transactionID);
    const trade = idOf(t.row.attrs.tradeID);
    if (tx !== null && !byTransaction.has(tx)) byTransaction.set(tx, t);
    if (trade !== null && !byTrade.has(trade)) byTrade.set(trade, t);
  }
  const named = (t: TradeRow): TradeRow | undefined => {
    const tx = idOf(t.row.attrs.origTransactionID);
    const trade = idOf(t.row.attrs.origTradeID);
    return (tx !== null ? byTransaction.get(tx) : undefined) ?? (trade !== null ? byTrade.get(trade) : undefined);
  };
  const removed = new Map<TradeRow, string>();
  const unmatched: TradeRow[] = [];
  for (const t of rows) {
    if (t.cancels) {
      const sameTrade = idOf(t.row.attrs.tradeID);
      const original = named(t) ?? (sameTrade !== null ? byTrade.get(sameTrade) : undefined) ?? mirrored(t, rows, removed);
      if (original && original !== t && !removed.has(original)) removed.set(original, `Trade cancelled by Interactive Brokers (${describeRow(original.row)})`);
      else if (!original) {
        unmatched.push(t);
        book.warnings.add(
          'cancel-unmatched',
          (n) => `${counted(n, 'cancellation')} of a trade not in this statement kept as a memo: remove the cancelled trade from the statement it came in`,
        );
      }
      continue;
    }
    const original = named(t);
    if (original && original !== t && !removed.has(original)) removed.set(original, `Trade replaced by its correction ${t.ref}`);
    else if (!original && t.notes.has('Co')) {
      book.warnings.add('correction-unmatched', (n) => `${counted(n, 'correction')} of a trade not in this statement booked as a trade of its own`);
    }
  }
  return { booked: rows.filter((t) => !t.cancels && !removed.has(t)), removed, unmatched };
}

/** The latest trade before a cancellation of the same contract, quantity and price not yet taken out. */
function mirrored(cancel: TradeRow, rows: readonly TradeRow[], removed: ReadonlyMap<TradeRow, string>): TradeRow | undefined {
  const a = cancel.row.attrs;
  const quantity = Math.abs(amountOf(a.quantity));
  let found: TradeRow | undefined;
  for (const t of rows) {
    const b = t.row.attrs;
    if (t.cancels || removed.has(t) || t.at > cancel.at) continue;
    if (b.conid !== a.conid || Math.abs(amountOf(b.quantity)) !== quantity || amountOf(b.tradePrice) !== amountOf(a.tradePrice)) continue;
    if (!found || t.at >= found.at) found = t;
  }
  return found;
}

function lotBasis(section: readonly FlexRow[]): LotBasis {
  const lots: LotBasis = new Map();
  for (const row of section) {
    if (levelOf(row) !== 'CLOSED_LOT') continue;
    const opening = idOf(row.attrs.transactionID);
    const cost = numberOf(row.attrs.cost);
    const quantity = numberOf(row.attrs.quantity);
    if (opening === null || cost === null || quantity === null || quantity === 0) continue;
    const lot = lots.get(opening) ?? { cost: 0, quantity: 0 };
    lot.cost += Math.abs(cost);
    lot.quantity += Math.abs(quantity);
    lots.set(opening, lot);
  }
  return lots;
}

function bookFill(t: TradeRow, lots: LotBasis, book: StatementBook): void {
  const a = t.row.attrs;
  const signed = numberOf(a.quantity) ?? 0;
  if (signed === 0) {
    book.warnings.add('trade-quantity', (n) => `${counted(n, 'trade row')} without a quantity left out`);
    return;
  }
  const currency = (a.currency ?? '').trim();
  const assetClass = assetClassOf(a);
  const commission = amountOf(a.ibCommission);
  const commissionCurrency = (a.ibCommissionCurrency ?? '').trim() || currency;
  const taxes = amountOf(a.taxes);
  const netCash = numberOf(a.netCash);
  // The money as IB books it: futures settle their variation (netCash, commission included), the rest their proceeds.
  if (isFutureLike(assetClass) && netCash !== null) book.move(currency, netCash - (commissionCurrency === currency ? commission : 0));
  else book.move(currency, amountOf(a.proceeds) + taxes);
  book.commission(commissionCurrency, commission);

  const rate = book.rate(currency, t.day, a.fxRateToBase);
  if (rate === null) return book.leftOut(currency);
  const converted = inCurrency(commission, commissionCurrency, currency, rate, t.day, book);
  if (converted === null) return book.leftOut(commissionCurrency);

  const quantity = Math.abs(signed);
  const multiplier = numberOf(a.multiplier) || 1;
  const effect = effectOf(a.openCloseIndicator);
  const realized = isFutureLike(assetClass) ? null : numberOf(a.fifoPnlRealized);
  const fill: TradeFill = {
    kind: 'fill',
    ref: t.ref,
    at: t.at,
    currency,
    rate,
    position: positionOf(a),
    symbol: (a.symbol ?? '').trim(),
    assetClass,
    side: sideOf(a.buySell, signed),
    quantity,
    price: fromOptionBasis(t, lots, converted, quantity * multiplier) ?? amountOf(a.tradePrice),
    multiplier,
    effect: effect ?? 'open',
    commission: converted,
    fee: taxes,
    swap: 0,
    profit: null,
    realizedNet: effect === null || effect === 'open' ? null : realized,
  };
  book.add(fill, t.row);
  if (effect === null) book.pending.set(fill, { realized });
}

/**
 * A currency trade (assetCategory CASH, symbol BASE.QUOTE): `quantity` of the base leg against `proceeds`
 * of the quote leg (the row's currency), booked as a conversion in the base leg's currency.
 */
function bookConversion(t: TradeRow, book: StatementBook): void {
  const a = t.row.attrs;
  const legs = /^([A-Z]{3})\.([A-Z]{3})$/.exec((a.symbol ?? '').trim());
  const amount = numberOf(a.quantity);
  if (!legs || amount === null || amount === 0) {
    book.warnings.add('conversion-symbol', (n) => `${counted(n, 'currency trade')} not of the form BASE.QUOTE left out`);
    return;
  }
  const currency = legs[1] ?? '';
  const counter = (a.currency ?? '').trim() || (legs[2] ?? '');
  const proceeds = amountOf(a.proceeds);
  const commission = amountOf(a.ibCommission);
  const commissionCurrency = (a.ibCommissionCurrency ?? '').trim() || counter;
  book.move(currency, amount);
  book.move(counter, proceeds);
  book.commission(commissionCurrency, commission);

  const counterRate = book.rate(counter, t.day, a.fxRateToBase);
  // The base leg's rate: the statement's own, else the trade's price times the quote leg's rate.
  const price = Math.abs(proceeds / amount);
  const rate = book.rate(currency, t.day) ?? (counterRate === null ? null : price * counterRate);
  if (rate === null) return book.leftOut(currency);
  const converted = inCurrency(commission, commissionCurrency, currency, rate, t.day, book);
  if (converted === null) return book.leftOut(commissionCurrency);
  const event: CurrencyConversion = {
    kind: 'conversion',
    ref: t.ref,
    at: t.at,
    currency,
    rate,
    amount,
    counter: { currency: counter, amount: proceeds },
    commission: converted,
  };
  book.add(event, t.row);
}

/** Money of one currency in another, through the base: amount × rate(from) / rate(to), rates of the day. */
function inCurrency(amount: number, from: string, to: string, toRate: number, day: string, book: StatementBook): number | null {
  if (from === to || amount === 0) return amount;
  const fromRate = book.rate(from, day);
  return fromRate === null ? null : (amount * fromRate) / toRate;
}

/**
 * An assigned or exercised position opens at IB's cost basis, which folds the option's premium into the
 * strike (tradePrice is the strike): the closed lots of the fill give it (their cost, commission
 * included), so the books' open price is IB's. Null when the statement has no lot of the fill.
 */
function fromOptionBasis(t: TradeRow, lots: LotBasis, commission: number, units: number): number | null {
  if (!FROM_OPTION.some((code) => t.notes.has(code))) return null;
  const id = idOf(t.row.attrs.transactionID);
  const lot = id === null ? undefined : lots.get(id);
  if (!lot || lot.quantity === 0) return null;
  const basis = lot.cost / lot.quantity;
  // The lot's cost holds the opening commission: a buyer paid it on top, a seller received less.
  const share = Math.abs(commission) / units;
  const bought = amountOf(t.row.attrs.quantity) > 0;
  return bought ? basis - share : basis + share;
}

function effectOf(indicator: string | undefined): FillEffect | null {
  const codes = new Set((indicator ?? '').split(';').map((c) => c.trim().toUpperCase()));
  if (codes.has('C') && codes.has('O')) return 'reverse';
  if (codes.has('C')) return 'close';
  if (codes.has('O')) return 'open';
  return null;
}

function sideOf(buySell: string | undefined, quantity: number): Side {
  const text = (buySell ?? '').trim().toUpperCase();
  if (text.startsWith('BUY')) return 'Buy';
  if (text.startsWith('SELL')) return 'Sell';
  return quantity < 0 ? 'Sell' : 'Buy';
}

function addMemo(t: TradeRow, note: string, book: StatementBook): void {
  const a = t.row.attrs;
  const currency = (a.currency ?? '').trim();
  const rate = book.rate(currency, t.day, a.fxRateToBase);
  // A memo moves nothing: without a rate it is simply not kept.
  if (rate === null) return;
  const memo: Memo = { kind: 'memo', ref: t.ref, at: t.at, currency, rate, note };
  book.add(memo, t.row);
}
