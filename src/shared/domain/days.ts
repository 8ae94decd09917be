/**
 * Days as the books count them: UTC days, numbered from 1970-01-01 (day 0), written 'YYYY-MM-DD';
 * months keyed by their first day; fee and statement periods named '2026-03' (a month) or
 * '2026-Q1' (a quarter).
 */

export const DAY_S = 86_400;
export const DAY_MS = DAY_S * 1000;

/** The day of an instant (epoch seconds). */
export const dayOf = (epochSeconds: number): number => Math.floor(epochSeconds / DAY_S);

/** A day as 'YYYY-MM-DD', and back. */
export const isoOfDay = (day: number): string => new Date(day * DAY_MS).toISOString().slice(0, 10);
export const dayOfIso = (iso: string): number => Date.parse(`${iso}T00:00:00Z`) / DAY_MS;

/** Days from one to another, both included. */
export interface DayRange {
  fromDay: number;
  toDay: number;
}

/** The days of a period: '2026-03' is 1–31 March 2026, '2026-Q1' is 1 January–31 March 2026. */
export function periodDays(period: string): DayRange {
  const [y, p] = period.split('-') as [string, string];
  const year = Number(y);
  const [month0, months] = p.startsWith('Q') ? [(Number(p.slice(1)) - 1) * 3, 3] : [Number(p) - 1, 1];
  return { fromDay: Date.UTC(year, month0, 1) / DAY_MS, toDay: Date.UTC(year, month0 + months, 1) / DAY_MS - 1 };
}

/** The month of an instant, as its first day ('YYYY-MM-01'): the key of a month's rebate row. */
export function monthOf(epochSeconds: number): string {
  const d = new Date(epochSeconds * 1000);
  return `${d.getUTCFullYear()}-${String(d.getUTCMonth() + 1).padStart(2, '0')}-01`;
}

/** Is `day` the last day of its month (its end settles the month)? */
export const endsMonth = (day: number): boolean => monthOf((day + 1) * DAY_S) !== monthOf(day * DAY_S);
