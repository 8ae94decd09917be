/**
 * What a screen hands to the CSV export: its table's columns, with the raw values behind each
 * cell, and a file name. This module is small and imported by the screens; the CSV writer and
 * its library (`./csv.ts`, papaparse) load only when a CSV is asked for.
 */
import { fileSegment } from '#shared/domain/reports.ts';
import { toFiniteNumber } from '#shared/format/numbers.ts';

export type { CsvColumn, CsvTable, CsvValue } from '#shared/reports/csv.ts';

/** A number as the API gave it, or null (empty field) when it is missing or not finite. */
export const csvNumber = (value: unknown): number | null => toFiniteNumber(value);

/**
 * Epoch seconds as ISO 8601 in UTC, to the second ('2026-03-05T13:07:00Z'); null when missing. The
 * screen shows the reader's local time; a file travels, so it says which instant, unambiguously.
 */
export function csvDateTime(epochSeconds: number | null | undefined): string | null {
  if (epochSeconds == null || !Number.isFinite(epochSeconds)) return null;
  const date = new Date(epochSeconds * 1000);
  if (Number.isNaN(date.getTime())) return null;
  return date.toISOString().replace(/\.\d{3}Z$/, 'Z');
}

/** Local calendar date 'YYYY-MM-DD' of an epoch in ms: the day the reader exported the file. */
export function localIsoDate(ms: number): string {
  const d = new Date(ms);
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
}

/**
 * A table's file name after the PDF reports' rule (#shared/domain/reports.ts): segments joined by
 * '_', spaces as '_', e.g. csvFileName('live_trades', 'Pepperstone', '2026-03-05') →
 * 'live_trades_Pepperstone_2026-03-05.csv'.
 */
export function csvFileName(...segments: readonly string[]): string {
  return `${segments.map(fileSegment).join('_')}.csv`;
}

/** The CSV twin of a PDF report's file name: same name, '.csv'. */
export function csvNameOfPdf(pdfFileName: string): string {
  return pdfFileName.replace(/\.pdf$/i, '') + '.csv';
}
