import type { AssetClass, BrokerEvent } from '#shared/domain/broker-events.ts';
import { replay } from '#shared/domain/round-trips.ts';
import { StatementBook } from './book.ts';
import { bookCashTransactions } from './cash-transactions.ts';
import { balanceOf, currencyCash, type Balance, type CurrencyCash } from './cash.ts';
import { bookCorporateActions } from './corporate-actions.ts';
import { readDay, type SlashOrder } from './dates.ts';
import { inferEffects } from './effects.ts';
import { assetClassOf, momentOf, numberOf, RATED_ROWS } from './fields.ts';
import { baseOf, RateBook, type BaseRule } from './rates.ts';
import { bookTrades } from './trades.ts';
import type { FlexRow, RawStatement } from './walk.ts';
import { counted, type Warnings } from './warnings.ts';

/** One account's statement as read from a Flex file. */
export interface FlexStatementRead {
  /** FlexStatement@accountId (rows naming another account are warned about and kept here). */
  accountId: string;
  /** ISO days 'YYYY-MM-DD' of the statement period. */
  from: string | null;
  to: string | null;
  /** Null: could not be told (the warnings say why). */
  base: { currency: string; rule: BaseRule } | null;
  /** Every booked row once, in time order. */
  events: BrokerEvent[];
  /** Per currency (BASE_SUMMARY aside). */
  cash: CurrencyCash[];
  /** The account's cash in base at the period end. */
  balance: Balance | null;
  /** Currencies that had cash or events but no rate to base at all (named, never counted as 0). */
  missingRates: string[];
  /** EquitySummaryByReportDateInBase@total by reportDate: IB's net asset value in base. */
  nav: { day: string; total: number }[];
  /** OpenPositions, summary level only, as of their reportDate. */
  positions: StatementPosition[];
  /** The statement has an OpenPositions section (empty: nothing open); without one it says nothing of positions. */
  positionsListed: boolean;
  /** ConversionRate rows. */
  rates: { day: string; from: string; to: string; rate: number }[];
}

export interface StatementPosition {
  symbol: string;
  description: string;
  assetClass: AssetClass;
  conid: number;
  side: 'Buy' | 'Sell';
  quantity: number;
  multiplier: number;
  markPrice: number;
  /** positionValue. */
  value: number;
  costBasis: number | null;
  unrealized: number | null;
  currency: string;
  rate: number;
  reportDate: string;
}

/*
 * One FlexStatement, read: its rows booked into events (trades.ts, cash-transactions.ts,
 * corporate-actions.ts) at the statement's own rates (rates.ts), the realized results from the books'
 * round-trip engine (src/shared/domain/round-trips.ts), and its cash (cash.ts). Each statement is an
 * account of its own: nothing moves between them.
 */

/** Rows booked as events, checked against the statement's period. */
const DATED = new Set(['Trade', 'TradeCancel', 'CashTransaction', 'CorporateAction']);

export function readStatement(raw: RawStatement, order: SlashOrder | null, warnings: Warnings): FlexStatementRead {
  const { rows } = raw;
  const accountId = (raw.attrs.accountId ?? '').trim();
  const from = readDay(raw.attrs.fromDate, order);
  const to = readDay(raw.attrs.toDate, order);
  checkAccounts(rows, accountId, warnings);
  checkPeriod(rows, accountId, from, to, order, warnings);

  const base = baseOf(rows, accountId, warnings);
  const rates = new RateBook(base?.currency ?? null);
  const conversionRates = feedRates(rows, rates, order);
  const book = new StatementBook(accountId, order, rates, warnings);
  bookTrades(rows, book);
  bookCashTransactions(rows, book);
  bookCorporateActions(rows, book);
  warnTransfers(rows, accountId, warnings);

  const events = inTimeOrder(book.events);
  inferEffects(events, book.pending);
  const { trips } = replay(0, events, () => 'Equities');
  const realized = new Map<string, number>();
  for (const trip of trips) realized.set(trip.currency, (realized.get(trip.currency) ?? 0) + trip.net);

  const cash = currencyCash(rows, book, realized, warnings);
  const positions = positionsOf(rows, book, order);
  const missingRates = [...new Set([...book.missing.keys(), ...cash.map((c) => c.currency).filter((c) => !rates.has(c))])].sort();
  const lastDay = to ?? events.reduce<string | null>((day, e) => maxDay(day, isoDay(e.at)), null);
  return {
    accountId,
    from,
    to,
    base,
    events,
    cash,
    balance: balanceOf(rows, cash, rates, lastDay, order),
    missingRates,
    nav: navOf(rows, order),
    positions,
    positionsListed: raw.sections.has('OpenPositions'),
    rates: conversionRates,
  };
}

/** The statement's rates: each row's fxRateToBase for its currency and day, and the ConversionRate rows (returned as read). */
function feedRates(rows: readonly FlexRow[], rates: RateBook, order: SlashOrder | null): FlexStatementRead['rates'] {
  const listed: FlexStatementRead['rates'] = [];
  for (const row of rows) {
    const { attrs } = row;
    if (row.tag === 'ConversionRate') {
      const day = readDay(attrs.reportDate, order);
      const rate = numberOf(attrs.rate);
      const [from, to] = [(attrs.fromCurrency ?? '').trim(), (attrs.toCurrency ?? '').trim()];
      if (day === null || rate === null || from === '' || to === '') continue;
      listed.push({ day, from, to, rate });
      rates.addConversion(from, to, day, rate);
    } else if (RATED_ROWS.has(row.tag)) {
      const rate = numberOf(attrs.fxRateToBase);
      const day = momentOf(row, order)?.day;
      if (rate !== null && day) rates.addStated((attrs.currency ?? '').trim(), day, rate);
    }
  }
  return listed;
}

/** Events by time; at one time, shares leaving before those arriving, actions before fills, then by ref (as the round-trip engine orders them). */
function inTimeOrder(events: readonly BrokerEvent[]): BrokerEvent[] {
  const rank = (e: BrokerEvent) => (e.kind === 'corporate_action' ? (e.into || e.quantity < 0 ? 0 : 1) : 2);
  return [...events].sort((a, b) => a.at - b.at || rank(a) - rank(b) || a.ref - b.ref);
}

/** Rows naming another account than their statement's (anonymised files, sub-accounts): kept in the statement, counted. */
function checkAccounts(rows: readonly FlexRow[], accountId: string, warnings: Warnings): void {
  for (const { attrs } of rows) {
    const other = (attrs.accountId ?? '').trim();
    if (other === '' || other === accountId || other === '-') continue;
    warnings.add(
      `account:${accountId}:${other}`,
      (n) => `${counted(n, 'row')} of the statement of account ${accountId} name account ${other}: they are read as ${accountId}'s`,
    );
  }
}

function checkPeriod(rows: readonly FlexRow[], accountId: string, from: string | null, to: string | null, order: SlashOrder | null, warnings: Warnings): void {
  if (from === null || to === null) return;
  for (const row of rows) {
    if (!DATED.has(row.tag)) continue;
    const day = readDay(row.attrs.reportDate, order) ?? momentOf(row, order)?.day;
    if (!day || (day >= from && day <= to)) continue;
    warnings.add(
      `period:${accountId}`,
      (n) => `${counted(n, 'row')} of account ${accountId} dated outside its statement's period (${from} to ${to}) booked as they are`,
    );
  }
}

function warnTransfers(rows: readonly FlexRow[], accountId: string, warnings: Warnings): void {
  const transfers = rows.filter((r) => r.tag === 'Transfer').length;
  if (transfers === 0) return;
  warnings.add(
    `transfers:${accountId}`,
    (n) => `${counted(n, 'position transfer')} (Transfers) of account ${accountId} not booked: the positions they move in or out are not in the events`,
    transfers,
  );
}

/** EquitySummaryByReportDateInBase@total by day: IB's own net asset value in base. */
function navOf(rows: readonly FlexRow[], order: SlashOrder | null): FlexStatementRead['nav'] {
  const byDay = new Map<string, number>();
  for (const { tag, attrs } of rows) {
    if (tag !== 'EquitySummaryByReportDateInBase') continue;
    const day = readDay(attrs.reportDate, order);
    const total = numberOf(attrs.total);
    if (day !== null && total !== null) byDay.set(day, total);
  }
  return [...byDay].sort(([a], [b]) => (a < b ? -1 : 1)).map(([day, total]) => ({ day, total }));
}

/** OpenPositions at their summary level (lots aside), as of their reportDate. */
function positionsOf(rows: readonly FlexRow[], book: StatementBook, order: SlashOrder | null): StatementPosition[] {
  const positions: StatementPosition[] = [];
  for (const { tag, attrs } of rows) {
    if (tag !== 'OpenPosition') continue;
    const level = (attrs.levelOfDetail ?? '').trim().toUpperCase();
    if (level !== '' && level !== 'SUMMARY') continue;
    const reportDate = readDay(attrs.reportDate, order);
    const held = numberOf(attrs.position);
    const currency = (attrs.currency ?? '').trim();
    if (reportDate === null || held === null) continue;
    const rate = book.rate(currency, reportDate, attrs.fxRateToBase);
    if (rate === null) {
      book.leftOut(currency);
      continue;
    }
    const side = (attrs.side ?? '').trim().toLowerCase();
    positions.push({
      symbol: (attrs.symbol ?? '').trim(),
      description: (attrs.description ?? '').trim(),
      assetClass: assetClassOf(attrs),
      conid: Number(attrs.conid) || 0,
      side: side === 'short' || (side === '' && held < 0) ? 'Sell' : 'Buy',
      quantity: Math.abs(held),
      multiplier: numberOf(attrs.multiplier) || 1,
      markPrice: numberOf(attrs.markPrice) ?? 0,
      value: numberOf(attrs.positionValue) ?? 0,
      costBasis: numberOf(attrs.costBasisMoney),
      unrealized: numberOf(attrs.fifoPnlUnrealized),
      currency,
      rate,
      reportDate,
    });
  }
  return positions;
}

const isoDay = (at: number) => new Date(at * 1000).toISOString().slice(0, 10);
const maxDay = (a: string | null, b: string) => (a === null || b > a ? b : a);
