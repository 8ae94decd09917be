/**
 * Date formatting of docs/product.md#constants. Every function takes an optional IANA time zone, defaulting to the
 * runtime's (the user's) zone; tests pass 'UTC'. A missing or invalid time shows '—'.
 */
import { MISSING_VALUE } from './numbers.ts';

const formatters = new Map<string, Intl.DateTimeFormat>();

function dateFormat(locale: string, options: Intl.DateTimeFormatOptions): Intl.DateTimeFormat {
  const key = `${locale}${JSON.stringify(options)}`;
  let formatter = formatters.get(key);
  if (formatter === undefined) {
    formatter = new Intl.DateTimeFormat(locale, options);
    formatters.set(key, formatter);
  }
  return formatter;
}

function toDate(epochSeconds: number | null | undefined): Date | null {
  if (epochSeconds == null || !Number.isFinite(epochSeconds)) return null;
  const date = new Date(epochSeconds * 1000);
  return Number.isNaN(date.getTime()) ? null : date;
}

/** French date and time, dd/mm/yyyy HH:mm on a 24-hour clock, e.g. '05/03/2026 14:07'. */
export function formatDateFr(epochSeconds: number | null | undefined, timeZone?: string): string {
  const date = toDate(epochSeconds);
  if (date === null) return MISSING_VALUE;
  return dateFormat('fr-FR', {
    day: '2-digit',
    month: '2-digit',
    year: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
    timeZone,
  }).format(date);
}

/** Time of day on a 24-hour clock with seconds, e.g. '14:07:05'. */
export function formatClock(epochSeconds: number | null | undefined, timeZone?: string): string {
  const date = toDate(epochSeconds);
  if (date === null) return MISSING_VALUE;
  return dateFormat('fr-FR', { hour: '2-digit', minute: '2-digit', second: '2-digit', hourCycle: 'h23', timeZone }).format(date);
}

/** French date without time, dd/mm/yyyy, e.g. '05/03/2026'. */
export function formatDayFr(epochSeconds: number | null | undefined, timeZone?: string): string {
  const date = toDate(epochSeconds);
  if (date === null) return MISSING_VALUE;
  return dateFormat('fr-FR', { day: '2-digit', month: '2-digit', year: 'numeric', timeZone }).format(date);
}

/** Chart-axis date, en-US short month and day, e.g. 'Mar 5' (docs/product.md#constants). */
export function formatAxisDate(epochSeconds: number | null | undefined, timeZone?: string): string {
  const date = toDate(epochSeconds);
  if (date === null) return MISSING_VALUE;
  return dateFormat('en-US', { month: 'short', day: 'numeric', timeZone }).format(date);
}

/** Month name and year, e.g. 'March 2026' (en-US) or 'mars 2026' (fr-FR). */
export function formatMonthYear(date: Date, locale = 'en-US', timeZone?: string): string {
  if (Number.isNaN(date.getTime())) return MISSING_VALUE;
  return dateFormat(locale, { month: 'long', year: 'numeric', timeZone }).format(date);
}
