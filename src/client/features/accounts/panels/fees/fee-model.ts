/*
 * What the Fees & statement panel works out without drawing: the days and periods of a statement
 * (in UTC like the server's: a fee day is a UTC day), the rates (fractions on the wire, percent on
 * screen and in the form) and the terms in words.
 */
import type { z } from 'zod';
import type { FeeEntryView, FeesResponse, FeeTerms, FeeTermsResponse } from '#shared/contract/fees.ts';
import { isoOfDay, periodDays } from '#shared/domain/days.ts';
import { formatDayFr } from '#shared/format/dates.ts';
import { numberFormat } from '#shared/format/numbers.ts';
import type { FeeRange } from '#client/api/queries/fees.ts';

export type Terms = z.output<typeof FeeTerms>;
export type TermsData = z.output<typeof FeeTermsResponse>['data'];
export type FeesData = z.output<typeof FeesResponse>['data'];
export type FeeKind = FeeEntryView['kind'];

export interface FeesAccount {
  account_id: string;
  account_name: string;
  currency: string;
}

/* ---- Days and periods, in UTC like the server's (a fee day is a UTC day) ---- */

export const pad = (n: number) => String(n).padStart(2, '0');
export const isoOf = (date: Date) => date.toISOString().slice(0, 10);
/** Today, 'YYYY-MM-DD' (UTC). */
export const todayIso = (now = new Date()) => isoOf(now);
/** The first day of next month: the default start of new terms. */
export const firstOfNextMonth = (now = new Date()) => isoOf(new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1)));
export const monthPeriod = (year: number, month0: number) => {
  const d = new Date(Date.UTC(year, month0, 1));
  return `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}`;
};
export const ISO_DAY = /^\d{4}-\d{2}-\d{2}$/;
export const isIsoDay = (s: string) => ISO_DAY.test(s) && !Number.isNaN(Date.parse(`${s}T00:00:00Z`)) && isoOf(new Date(`${s}T00:00:00Z`)) === s;
/** 'YYYY-MM-DD' as the app writes days: dd/mm/yyyy. */
export const dayText = (iso: string) => formatDayFr(Date.parse(`${iso}T00:00:00Z`) / 1000, 'UTC');

export type PeriodChoice = 'this-month' | 'last-month' | 'last-quarter' | 'custom';
export const PERIOD_OPTIONS: readonly { value: PeriodChoice; label: string }[] = [
  { value: 'this-month', label: 'This month' },
  { value: 'last-month', label: 'Last month' },
  { value: 'last-quarter', label: 'Last quarter' },
  { value: 'custom', label: 'Custom' },
];

/** The range a choice names: a month or a quarter, or the custom days (null while they are not a range). */
export function rangeOf(choice: PeriodChoice, custom: { from: string; to: string }, now = new Date()): FeeRange | null {
  const year = now.getUTCFullYear();
  const month0 = now.getUTCMonth();
  switch (choice) {
    case 'this-month':
      return { period: monthPeriod(year, month0) };
    case 'last-month':
      return { period: monthPeriod(year, month0 - 1) };
    case 'last-quarter': {
      const quarter = Math.floor(month0 / 3); // the previous quarter, 1-based
      return { period: quarter === 0 ? `${year - 1}-Q4` : `${year}-Q${quarter}` };
    }
    case 'custom':
      if (!isIsoDay(custom.from) || (custom.to !== '' && (!isIsoDay(custom.to) || custom.to < custom.from))) return null;
      return custom.to === '' ? { from: custom.from } : { from: custom.from, to: custom.to };
  }
}

/** The first and last day of a range, as the server reads it ('to' of a custom range defaults to today). */
export function rangeDays(range: FeeRange, now = new Date()): { from: string; to: string } {
  if (range.period === undefined) return { from: range.from, to: range.to ?? todayIso(now) };
  const days = periodDays(range.period);
  return { from: isoOfDay(days.fromDay), to: isoOfDay(days.toDay) };
}

/* ---- Rates: fractions on the wire, percent on screen and in the form ---- */

export const rateNumber = numberFormat('fr-FR', { minimumFractionDigits: 0, maximumFractionDigits: 4 });
/** 0.25 → 25 (to 6 decimals, so that 0.07 is 7 and not 7.000000000000001). */
export const toPercent = (fraction: number) => Math.round(fraction * 1e8) / 1e6;
/** 25 → 0.25, exactly as typed. */
export const toFraction = (percent: number) => Math.round(percent * 1e6) / 1e8;
/** 0.25 → '25 %' (a no-break space before the sign). */
export const percentText = (fraction: number) => `${rateNumber.format(toPercent(fraction))}\u00a0%`;

export const PERIOD_LABEL = { monthly: 'monthly', quarterly: 'quarterly' } as const;
export const BASIS_LABEL = { equity: 'equity', balance: 'closed balance' } as const;
export const WITHDRAWAL_LABEL = { amount: 'lowers the mark by the amount', proportional: 'lowers the mark in proportion' } as const;
export const KIND_LABEL: Record<FeeKind, string> = { performance: 'Performance fee', management: 'Management fee', volume: 'Volume fee' };
export const KINDS: readonly FeeKind[] = ['performance', 'management', 'volume'];
export const capitalised = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

/** Terms in one line, e.g. '20 % performance fee on closed balance, 2 % a year management fee, charged quarterly'. */
export function termsSummary(terms: Terms): string {
  const parts: string[] = [];
  if (terms.performance) parts.push(`${percentText(terms.performance.rate)} performance fee on ${BASIS_LABEL[terms.performance.basis]}`);
  if (terms.management) parts.push(`${percentText(terms.management.annual_rate)} a year management fee`);
  if (terms.volume) parts.push(`${rateNumber.format(terms.volume.usd_per_million)} USD per million volume fee`);
  return parts.length === 0 ? `No fee, ${PERIOD_LABEL[terms.period]}` : `${parts.join(', ')}, charged ${PERIOD_LABEL[terms.period]}`;
}

/** 'Default: 25 % performance fee, monthly, on equity': the category's profit sharing, when nobody set terms. */
export function defaultText(terms: Terms): string {
  const p = terms.performance;
  return p
    ? `Default: ${percentText(p.rate)} performance fee, ${PERIOD_LABEL[terms.period]}, on ${BASIS_LABEL[p.basis]}`
    : `Default: no performance fee, ${PERIOD_LABEL[terms.period]}`;
}
