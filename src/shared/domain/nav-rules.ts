/**
 * Row rules of the NAV page (docs/product.md#validation) and its month keys ('M.YYYY', M from 1 to 12).
 */
import { CATEGORY_OF, type Portfolio } from './portfolios.ts';
import { compareValues } from './sorting.ts';
import { formatMonthYear } from '../format/dates.ts';

export interface MonthKey {
  month: number;
  year: number;
}

/** Real-time NAV hides rows with a zero balance (docs/product.md#validation). */
export function filterRealtimeNav<T extends { balance: number }>(rows: readonly T[]): T[] {
  return rows.filter((row) => row.balance !== 0);
}

/** Historical NAV keeps the rows of one month key and one day (docs/product.md#validation); days compare as text, so 5 matches '5'. */
export function filterHistoricalNav<T extends { date_id: string; date_day: string | number }>(
  rows: readonly T[],
  monthKey: string,
  day: string | number,
): T[] {
  return rows.filter((row) => row.date_id === monthKey && String(row.date_day) === String(day));
}

/**
 * NAV row membership (docs/product.md#validation). Consolidated: rows of category 'consolidate', or 'global forex' /
 * 'global equity' rows with a non-zero balance. Other portfolios: rows of the selection's own
 * category, or, when the selection is Global FX or Global Equity, 'consolidate' rows with a
 * non-zero balance. We read "with non-zero balance" as binding the borrowed rows only, as in the
 * Consolidated sentence: a portfolio's own account stays listed even when empty. No portfolio
 * (undefined: what 'All' and unknown names parse to) keeps nothing.
 */
export function navRowInPortfolio(row: { teiko_category: string; balance: number }, portfolio: Portfolio | undefined): boolean {
  if (portfolio === undefined) return false;
  const category = row.teiko_category;
  const nonZero = row.balance !== 0;
  if (portfolio === 'Consolidated Portfolio') {
    return category === 'consolidate' || ((category === 'global forex' || category === 'global equity') && nonZero);
  }
  const isGlobal = portfolio === 'Global FX' || portfolio === 'Global Equity';
  return category === CATEGORY_OF[portfolio] || (isGlobal && category === 'consolidate' && nonZero);
}

/** Client-side id of a NAV row, built from account_id, date_id and date_day (docs/product.md#fields). */
export function navRowId(account_id: string | number, date_id: string, date_day: string | number): string {
  return `${account_id}|${date_id}|${date_day}`;
}

const MONTH_KEY = /^([1-9]|1[0-2])\.(\d{4})$/;

/** Parses a month key 'M.YYYY' (M 1 to 12, no leading zero, four-digit year); null otherwise. */
export function parseMonthKey(key: string): MonthKey | null {
  const match = MONTH_KEY.exec(key);
  if (match === null) return null;
  return { month: Number(match[1]), year: Number(match[2]) };
}

/** Label of a month key, e.g. '3.2026' → 'March 2026'; a key not of the form M.YYYY is returned raw (docs/product.md#screens). */
export function monthKeyLabel(key: string, locale = 'en-US'): string {
  const parsed = parseMonthKey(key);
  if (parsed === null) return key;
  const date = new Date(0);
  date.setUTCFullYear(parsed.year, parsed.month - 1, 1);
  return formatMonthYear(date, locale, 'UTC');
}

const ISO_MONTH = /^(\d{4})-(0[1-9]|1[0-2])(?:-\d{2})?(?:T.*)?$/;

/** Months since year 0 for 'M.YYYY' or ISO 'YYYY-MM[-DD]' (rebate rows may carry either); null for anything else. */
export function monthOrdinal(key: string): number | null {
  const parsed = parseMonthKey(key);
  if (parsed !== null) return parsed.year * 12 + parsed.month - 1;
  const iso = ISO_MONTH.exec(key);
  if (iso === null) return null;
  return Number(iso[1]) * 12 + Number(iso[2]) - 1;
}

/** Chronological comparison of month keys; unparseable keys sort before parseable ones, then as text. */
export function compareMonths(a: string, b: string): number {
  const oa = monthOrdinal(a);
  const ob = monthOrdinal(b);
  if (oa !== null && ob !== null) return oa - ob;
  if (oa === null && ob === null) return compareValues(a, b);
  return oa === null ? -1 : 1;
}

/** Month keys newest first (the NAV selector, docs/product.md#screens); unparseable keys go last in their original order. */
export function sortMonthKeysNewestFirst(keys: readonly string[]): string[] {
  return [...keys].sort((a, b) => {
    const oa = monthOrdinal(a);
    const ob = monthOrdinal(b);
    if (oa === null || ob === null) return oa === ob ? 0 : oa === null ? 1 : -1;
    return ob - oa;
  });
}

/** The day a month selection starts on: the first day listed for it in available_dates (docs/product.md#screens, §4). */
export function firstAvailableDay<D extends string | number>(
  availableDates: Readonly<Record<string, readonly D[]>>,
  monthKey: string,
): D | undefined {
  return Object.hasOwn(availableDates, monthKey) ? availableDates[monthKey]?.[0] : undefined;
}

/** Default NAV order (docs/product.md#states): broker name, then account name. */
export function defaultNavSort(
  a: { broker_name: string; account_name: string },
  b: { broker_name: string; account_name: string },
): number {
  return compareValues(a.broker_name, b.broker_name) || compareValues(a.account_name, b.account_name);
}
