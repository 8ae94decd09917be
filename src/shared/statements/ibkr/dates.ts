import { NotAStatementError } from '../errors.ts';

/*
 * Dates and times as a Flex Query writes them. The query's owner picks the shapes (yyyyMMdd, yyyy-MM-dd,
 * MM/dd/yyyy, dd/MM/yyyy, dd-MMM-yy; a time after `;`, `,`, a space or `T`, as HHmmss or HH:mm:ss; older
 * queries put the time in an attribute of its own, tradeTime). Times are the statement's own clock, read
 * as given and returned as epoch seconds as if UTC: the caller applies the account's offset.
 */

/** Which slash date a file writes: day first (dd/MM/yyyy) or month first (MM/dd/yyyy). */
export type SlashOrder = 'day-first' | 'month-first';

/** A date, and a time when one was written. */
export interface Moment {
  /** 'YYYY-MM-DD'. */
  day: string;
  /** Epoch seconds as if the statement's clock were UTC (midnight when no time was written). */
  at: number;
}

const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];
/** The values IB writes for "no date". */
const NONE = new Set(['', '--', 'MULTI', 'N/A']);
const SLASH = /^(\d{1,2})\/(\d{1,2})\/(\d{2}|\d{4})(?![\d/])/;

/**
 * What the slash dates of a file tell about their order. A day above 12 in the first place means
 * dd/MM, in the second MM/dd; a file whose every slash date reads both ways cannot be told and is
 * refused, never guessed (docs of the Flex Query: its Date Format setting).
 */
export class SlashEvidence {
  private seen = false;
  private dayFirst = false;
  private monthFirst = false;

  /** Looks at one attribute value: cheap for values that are no slash date. */
  look(value: string): void {
    if (value.length < 6 || value.indexOf('/') < 0) return;
    const m = SLASH.exec(value.trim());
    if (!m) return;
    this.seen = true;
    if (Number(m[1]) > 12) this.dayFirst = true;
    if (Number(m[2]) > 12) this.monthFirst = true;
  }

  /** The order the file's slash dates are in (null when it writes none), or the refusal. */
  order(fileName?: string): SlashOrder | null {
    if (!this.seen) return null;
    if (this.dayFirst && this.monthFirst) {
      throw new NotAStatementError(
        'This Interactive Brokers Flex statement writes some dates as dd/MM/yyyy and others as MM/dd/yyyy, so its dates ' +
          'cannot be read. In Client Portal, set the Flex Query\'s Date Format to yyyyMMdd, run it again and upload the new file.',
        fileName,
      );
    }
    if (this.dayFirst) return 'day-first';
    if (this.monthFirst) return 'month-first';
    throw new NotAStatementError(
      'This Interactive Brokers Flex statement writes its dates with slashes (dd/MM/yyyy or MM/dd/yyyy) and no date in it ' +
        'tells which: every day and month is 12 or less, so 03/04 could be the 3rd of April or the 4th of March. In Client ' +
        "Portal, set the Flex Query's Date Format to yyyyMMdd (Performance & Reports, Flex Queries, edit the query), run it " +
        'again and upload the new file.',
      fileName,
    );
  }
}

/**
 * Reads a date with an optional time; `time` is a separate time attribute (tradeTime) used when the
 * value has none. Null for IB's "no date" values; undefined for a value that is no date at all.
 */
export function readMoment(value: string | undefined, order: SlashOrder | null, time?: string): Moment | null | undefined {
  const text = (value ?? '').trim();
  if (NONE.has(text)) return null;
  const split = splitDate(text, order);
  if (!split) return undefined;
  const [year, month, dayOfMonth, rest] = split;
  if (!validDay(year, month, dayOfMonth)) return undefined;
  const clock = rest !== '' ? rest : (time ?? '').trim();
  const seconds = clock === '' || NONE.has(clock) ? 0 : readTime(clock);
  if (seconds === undefined) return undefined;
  const day = `${year}-${pad(month)}-${pad(dayOfMonth)}`;
  return { day, at: Date.UTC(year, month - 1, dayOfMonth) / 1000 + seconds };
}

/** The ISO day of a date value (its time, if any, left aside). */
export function readDay(value: string | undefined, order: SlashOrder | null): string | null {
  return readMoment(value, order)?.day ?? null;
}

/** [year, month, day, what follows the date (a time, or '')]. */
function splitDate(text: string, order: SlashOrder | null): [number, number, number, string] | null {
  let m = /^(\d{4})(\d{2})(\d{2})(.*)$/.exec(text);
  if (m) return [Number(m[1]), Number(m[2]), Number(m[3]), timePart(m[4])];
  m = /^(\d{4})-(\d{2})-(\d{2})(.*)$/.exec(text);
  if (m) return [Number(m[1]), Number(m[2]), Number(m[3]), timePart(m[4])];
  m = /^(\d{1,2})\/(\d{1,2})\/(\d{4}|\d{2})(.*)$/.exec(text);
  if (m) {
    // A slash date is read only once the file has told its order (SlashEvidence).
    if (!order) return null;
    const [first, second] = [Number(m[1]), Number(m[2])];
    const [month, day] = order === 'day-first' ? [second, first] : [first, second];
    return [fullYear(m[3]), month, day, timePart(m[4])];
  }
  m = /^(\d{1,2})-([A-Za-z]{3})-(\d{2}|\d{4})(.*)$/.exec(text);
  if (m) {
    const month = MONTHS.indexOf((m[2] ?? '').toLowerCase()) + 1;
    if (month === 0) return null;
    return [fullYear(m[3]), month, Number(m[1]), timePart(m[4])];
  }
  return null;
}

/** What follows a date: nothing, or a separator (`;`, `,`, spaces, `T`) and a time. '!' marks anything else. */
function timePart(rest: string | undefined): string {
  if (!rest) return '';
  const m = /^(?:[;,T]\s*|\s+)(.+)$/.exec(rest);
  return m?.[1]?.trim() ?? '!';
}

/** Seconds since midnight of HHmmss, HH:mm:ss or HH:mm, a time zone after it left aside (the statement's clock is kept). */
function readTime(text: string): number | undefined {
  const m = /^(\d{2}):?(\d{2})(?::?(\d{2}))?(?:\s*(?:[+-]\d{2}:?\d{2}|[A-Z]{2,5}))?$/.exec(text);
  if (!m) return undefined;
  const [hours, minutes, seconds] = [Number(m[1]), Number(m[2]), Number(m[3] ?? 0)];
  if (hours > 23 || minutes > 59 || seconds > 59) return undefined;
  return hours * 3600 + minutes * 60 + seconds;
}

function fullYear(text: string | undefined): number {
  const year = Number(text);
  if ((text ?? '').length === 4) return year;
  // dd-MMM-yy and MM/dd/yy: IB's accounts date from 1993 on.
  return year < 70 ? 2000 + year : 1900 + year;
}

function validDay(year: number, month: number, day: number): boolean {
  if (month < 1 || month > 12 || day < 1 || day > 31) return false;
  const date = new Date(Date.UTC(year, month - 1, day));
  return date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

const pad = (n: number) => String(n).padStart(2, '0');
