import { money } from '../stated.ts';
import type { StatementBook } from './book.ts';
import { numberOf } from './fields.ts';
import { readDay, type SlashOrder } from './dates.ts';
import type { RateBook } from './rates.ts';
import type { FlexRow } from './walk.ts';
import type { Warnings } from './warnings.ts';

/*
 * A statement's cash, per currency and in base. IB states it in its Cash Report (CashReportCurrency: a
 * row per currency and a BASE_SUMMARY row in base) when the query includes it; otherwise it is the sum
 * of the money the booked rows move (book.ts), from a start of 0. Where IB states a figure the rows are
 * checked against it, to the cent.
 */

export interface CurrencyCash {
  currency: string;
  start: number;
  end: number;
  /** Whether start and end are IB's (CashReportCurrency) rather than summed from the rows. */
  stated: boolean;
  /** Σ of the round trips' results in this currency (the round-trip engine's net). */
  realized: number;
  /** Σ of the trades' commissions charged in this currency. */
  commissions: number;
}

export type BalanceRule = 'CashReport BASE_SUMMARY' | 'EquitySummary cash' | 'converted';
export interface Balance {
  amount: number;
  rule: BalanceRule;
}

const BASE_SUMMARY = 'BASE_SUMMARY';
/** IB writes money to nine or ten decimals: sums are rounded there, so float noise never shows as a difference. */
const DECIMALS = 1e10;
const TOLERANCE = 0.01;

const round = (value: number) => Math.round(value * DECIMALS) / DECIMALS;

/** Per currency: IB's stated start and end where the Cash Report has them, else summed from the rows; warned where they disagree. */
export function currencyCash(
  rows: readonly FlexRow[],
  book: StatementBook,
  realized: ReadonlyMap<string, number>,
  warnings: Warnings,
): CurrencyCash[] {
  const stated = statedCash(rows);
  const currencies = new Set([...stated.keys(), ...book.moved.keys(), ...book.commissions.keys(), ...realized.keys()]);
  return [...currencies].sort().map((currency) => {
    const own = stated.get(currency);
    const start = own?.start ?? 0;
    const summed = round(start + (book.moved.get(currency) ?? 0));
    if (own && Math.abs(summed - own.end) > TOLERANCE) {
      warnings.once(
        `cash:${book.accountId}:${currency}`,
        `Account ${book.accountId}: the statement states ${money(own.end, currency)} ${currency} of cash at the end, but its rows add up ` +
          `to ${money(summed, currency)} ${currency} (a difference of ${money(summed - own.end, currency)} ${currency}); the stated figure is kept.`,
      );
    }
    return {
      currency,
      start,
      end: own ? own.end : summed,
      stated: own !== undefined,
      realized: round(realized.get(currency) ?? 0),
      commissions: round(book.commissions.get(currency) ?? 0),
    };
  });
}

/** CashReportCurrency's starting and ending cash per currency (BASE_SUMMARY aside). */
function statedCash(rows: readonly FlexRow[]): Map<string, { start: number; end: number }> {
  const stated = new Map<string, { start: number; end: number }>();
  for (const { tag, attrs } of rows) {
    const currency = (attrs.currency ?? '').trim();
    if (tag !== 'CashReportCurrency' || currency === BASE_SUMMARY || currency === '') continue;
    const start = numberOf(attrs.startingCash);
    const end = numberOf(attrs.endingCash);
    if (start !== null && end !== null) stated.set(currency, { start, end });
  }
  return stated;
}

/**
 * The account's cash in base at the period's end: the Cash Report's BASE_SUMMARY, else the last day's
 * cash of the Equity Summary, else each currency's end at the statement's own rate of the last day (the
 * last rate before it). Null when a currency holding cash has no rate at all (it is never counted as 0),
 * or when the base currency is not known.
 */
export function balanceOf(
  rows: readonly FlexRow[],
  cash: readonly CurrencyCash[],
  rates: RateBook,
  day: string | null,
  order: SlashOrder | null,
): Balance | null {
  const summary = rows.find((r) => r.tag === 'CashReportCurrency' && (r.attrs.currency ?? '').trim() === BASE_SUMMARY);
  const stated = numberOf(summary?.attrs.endingCash);
  if (stated !== null) return { amount: stated, rule: 'CashReport BASE_SUMMARY' };
  const equity = lastEquityCash(rows, order);
  if (equity !== null) return { amount: equity, rule: 'EquitySummary cash' };
  // Converting needs to know into what: without a base currency there is no balance to state.
  if (rates.base === null) return null;
  const converted = convertedCash(cash, rates, day);
  return converted === null ? null : { amount: converted, rule: 'converted' };
}

/** Σ of each currency's end × its rate on `day`; null when a currency holding cash has no rate. */
export function convertedCash(cash: readonly CurrencyCash[], rates: RateBook, day: string | null): number | null {
  let total = 0;
  for (const { currency, end } of cash) {
    if (end === 0) continue;
    const rate = day === null ? (currency === rates.base ? 1 : null) : rates.on(currency, day);
    if (rate === null) return null;
    total += end * rate;
  }
  return round(total);
}

function lastEquityCash(rows: readonly FlexRow[], order: SlashOrder | null): number | null {
  let last: { day: string; cash: number } | null = null;
  for (const { tag, attrs } of rows) {
    if (tag !== 'EquitySummaryByReportDateInBase') continue;
    const day = readDay(attrs.reportDate, order);
    const cash = numberOf(attrs.cash);
    if (day === null || cash === null) continue;
    if (last === null || day >= last.day) last = { day, cash };
  }
  return last?.cash ?? null;
}
