/**
 * Names and labels of the PDF reports (docs/product.md#constants): nav_report_{portfolio}_{date}.pdf and
 * rebates_report_{portfolio}_{grouping}_{month}.pdf. Spaces in a portfolio name become '_' and
 * characters a file system may refuse are dropped, so 'Consolidated Portfolio' gives
 * nav_report_Consolidated_Portfolio_2026-03-05.pdf. A rebates report over every month says
 * 'All_Months'.
 */
import { formatMonthYear } from '../format/dates.ts';
import { monthOrdinal, parseMonthKey } from './nav-rules.ts';

/** A file-name segment: whitespace runs become '_', anything but letters, digits, '.', '_' and '-' is dropped. */
export function fileSegment(value: string): string {
  const segment = value
    .trim()
    .replace(/\s+/g, '_')
    .replace(/[^A-Za-z0-9._-]/g, '');
  return segment === '' ? 'report' : segment;
}

export function navReportFileName(portfolio: string, date: string): string {
  return `nav_report_${fileSegment(portfolio)}_${fileSegment(date)}.pdf`;
}

export const ALL_MONTHS_FILE_SEGMENT = 'All_Months';

export function rebatesReportFileName(portfolio: string, grouping: string, month: string | null): string {
  return `rebates_report_${fileSegment(portfolio)}_${fileSegment(grouping)}_${month === null ? ALL_MONTHS_FILE_SEGMENT : fileSegment(month)}.pdf`;
}

const pad2 = (n: number) => String(n).padStart(2, '0');

/** ISO date 'YYYY-MM-DD' of a NAV month key 'M.YYYY' and a day; null when the key is not of that form. */
export function navDayIso(monthKey: string, day: number): string | null {
  const parsed = parseMonthKey(monthKey);
  if (parsed === null || !Number.isInteger(day) || day < 1 || day > 31) return null;
  return `${parsed.year}-${pad2(parsed.month)}-${pad2(day)}`;
}

/** French date 'DD/MM/YYYY' of a NAV month key and day (docs/product.md#constants dates); the raw key and day otherwise. */
export function navDayLabel(monthKey: string, day: number): string {
  const parsed = parseMonthKey(monthKey);
  if (parsed === null) return `${day} ${monthKey}`;
  return `${pad2(day)}/${pad2(parsed.month)}/${parsed.year}`;
}

/** Month name and year of 'M.YYYY' or 'YYYY-MM' keys, e.g. '2026-03' → 'March 2026'; other keys raw. */
export function monthLabel(key: string, locale = 'en-US'): string {
  const ordinal = monthOrdinal(key);
  if (ordinal === null) return key;
  const date = new Date(0);
  date.setUTCFullYear(Math.floor(ordinal / 12), ordinal % 12, 1);
  return formatMonthYear(date, locale, 'UTC');
}
