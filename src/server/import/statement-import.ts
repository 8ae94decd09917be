import { cents } from '#shared/domain/money.ts';
import { latestBrokerTime } from '#shared/contract/ingest.ts';
import type { BrokerEvent } from '#shared/domain/broker-events.ts';
import { marketOf, roundTrips } from '#shared/domain/round-trips.ts';
import type { AccountStatement } from '#shared/statements/readers.ts';
import { readBooks } from '#server/db/accounts-repo.ts';
import type { StoredEvent } from '#server/db/broker-events-repo.ts';
import type { Queryable } from '#server/db/database.ts';
import { saveBrokerNav, saveStatedFigures } from '#server/db/statement-repo.ts';
import { replaceStatementPositions, type StatementPosition } from '#server/db/positions-repo.ts';
import { symbolMap } from '#server/db/symbol-map-repo.ts';
import { applyEvents, type EventsApplied } from '#server/books/event-books.ts';
import { symbolNamer } from '#server/ingest/mt5-books.ts';
import type { Ledger } from '#server/ledger/ledger.ts';
import { bookStatement } from './statement-books.ts';
import { InvalidRequest } from '#server/errors.ts';

/** The account a statement is booked into. */
export interface StatementTarget {
  id: number;
  account: string;
  currency: string;
  broker_id: number;
}

/** Cash and results of one currency of a booked statement, in that currency. */
export interface CurrencySummary {
  currency: string;
  cash_start: number | null;
  cash_end: number | null;
  realized: number;
  commissions: number;
}

/** What booking one account's statement did. */
export interface StatementBookedSummary extends EventsApplied {
  /** Fills booked from the statement. */
  trades: number;
  /** The opening balance entry booked before the statement's first event (null: none). */
  opening: number | null;
  cash: CurrencySummary[];
}

/** A statement the import refuses as it is: its message says why, for the uploader. */
export class StatementRefused extends InvalidRequest {}

/** Where a statement's positions and figures may be looked at from the books' side: every money figure to the cent. */
const sum = (xs: readonly number[]) => cents(xs.reduce((a, b) => a + b, 0));

/**
 * A statement's events as the books store them: times moved to UTC (the file prints the broker's
 * clock, `utcOffsetMinutes` ahead of it, which is kept as the broker's own reading), money in the
 * account's currency where the file names none, and MetaTrader symbols under the product's names
 * (the broker's symbol map, else the classifier's). Refused: a ref listed twice, or a time later
 * than the server's clock allows.
 */
export function storedEvents(
  statement: AccountStatement,
  target: StatementTarget,
  utcOffsetMinutes: number,
  nowMs: number,
  name: (symbol: string) => string,
): StoredEvent[] {
  const seen = new Set<number>();
  const latest = latestBrokerTime(nowMs);
  return statement.events.map((e): StoredEvent => {
    // Two rows under one ref would be stored over each other: refused, never a 500.
    if (seen.has(e.ref)) throw new StatementRefused(`The report lists deal ${e.ref} twice.`);
    seen.add(e.ref);
    if (e.at > latest) {
      throw new StatementRefused(
        `The report dates deal ${e.ref} ${new Date(e.at * 1000).toISOString().slice(0, 19).replace('T', ' ')} on the broker's clock, ` +
          `later than the server's clock allows: it cannot be imported.`,
      );
    }
    const moved: BrokerEvent = { ...e, at: e.at - utcOffsetMinutes * 60, currency: e.currency || target.currency };
    if (moved.kind === 'fill' && (moved.assetClass === 'forex' || moved.assetClass === 'cfd') && moved.symbol) {
      return { event: { ...moved, symbol: name(moved.symbol) }, brokerTime: e.at };
    }
    return { event: moved, brokerTime: e.at };
  });
}

const dayStart = (day: string) => Date.parse(`${day}T00:00:00Z`) / 1000;

/** A position a statement lists open at its end, as the positions table keeps it: its result in the account's currency. */
function positionOf(p: NonNullable<AccountStatement['positions']>[number]): StatementPosition {
  const quantity = Math.abs(p.quantity);
  const units = quantity * (p.multiplier || 1);
  const open = p.costBasis !== null && units > 0 ? Math.abs(p.costBasis) / units : p.markPrice;
  const unrealized = p.unrealized ?? (p.costBasis === null ? 0 : p.value - p.costBasis);
  return {
    identifier: p.conid,
    symbol: p.symbol,
    type: p.side,
    category: marketOf(p.symbol, p.assetClass),
    quantity,
    multiplier: p.multiplier || 1,
    quote: p.currency,
    priceOpen: open,
    priceCurrent: p.markPrice,
    profit: cents(unrealized * p.rate),
    asOf: dayStart(p.reportDate),
  };
}

/** Cash and results per currency: the file's where it keeps cash per currency, else the account's one currency from the books. */
function currencySummary(statement: AccountStatement, events: readonly BrokerEvent[], target: StatementTarget, opening: number | null, balance: number): CurrencySummary[] {
  if (statement.cash.length > 0) {
    return statement.cash.map((c) => ({
      currency: c.currency,
      cash_start: c.start,
      cash_end: c.end,
      realized: c.realized,
      commissions: c.commissions,
    }));
  }
  const trips = roundTrips(0, events, marketOf);
  return [
    {
      currency: target.currency,
      cash_start: opening,
      cash_end: balance,
      realized: sum(trips.map((t) => t.net)),
      commissions: sum(events.flatMap((e) => (e.kind === 'fill' ? [e.commission] : []))),
    },
  ];
}

/**
 * Books one account's part of a statement file, in the caller's transaction: its events by ref (a
 * file imported again changes nothing), its opening balance and equity where it states them, the
 * broker's net asset value by day, and its open positions as of its end.
 */
export async function bookAccountStatement(
  tx: Queryable,
  ledger: Ledger,
  target: StatementTarget,
  statement: AccountStatement,
  utcOffsetMinutes: number,
  nowMs: number,
): Promise<StatementBookedSummary> {
  const name = symbolNamer(await symbolMap(tx, target.broker_id));
  const events = storedEvents(statement, target, utcOffsetMinutes, nowMs, name);
  // Its books are locked before its events are read (the lock an agent's batch takes to book them):
  // a batch of the account's terminal is booked wholly before the import or after it.
  await readBooks(tx, [target.id]);
  const applied = await applyEvents(tx, ledger, target.id, events, [], nowMs / 1000);
  const booked = await bookStatement(
    tx,
    ledger,
    target.id,
    { opening: statement.opening && { before_ticket: statement.opening.beforeRef, balance: statement.opening.balance }, floating: statement.floating },
    nowMs / 1000,
  );
  // What the broker states of the account wins over the books' own figures (as a terminal's report does).
  if (statement.stated.balance !== null || statement.stated.equity !== null) {
    const balance = statement.stated.balance ?? booked.balance;
    await saveStatedFigures(tx, target.id, { balance, equity: statement.stated.equity ?? balance }, new Date(nowMs));
  }
  if (statement.nav.length) await saveBrokerNav(tx, target.id, statement.nav);
  // A statement that lists open positions replaces what the account held (one without the list says nothing of them).
  if (statement.positions) await replaceStatementPositions(tx, target.id, statement.positions.map(positionOf));
  const mine = events.map((e) => e.event);
  return {
    ...applied,
    trades: mine.filter((e) => e.kind === 'fill').length,
    opening: booked.opening,
    cash: currencySummary(statement, mine, target, booked.opening, booked.balance),
  };
}
