import type { AssetClass } from '#shared/domain/broker-events.ts';
import { hashRef } from './refs.ts';
import { readMoment, type Moment, type SlashOrder } from './dates.ts';
import type { FlexRow } from './walk.ts';
import { NOTES_CODES } from './vocabulary.ts';
import { counted, type Warnings } from './warnings.ts';

/** A number attribute: null when absent or empty, NaN never escapes (a value that is no number is null). */
export function numberOf(value: string | undefined): number | null {
  if (value === undefined) return null;
  const text = value.trim();
  if (text === '' || text === '--' || text === 'N/A') return null;
  const n = Number(text);
  return Number.isFinite(n) ? n : null;
}

/** A number attribute where absent means 0 (money IB leaves empty when there is none). */
export const amountOf = (value: string | undefined): number => numberOf(value) ?? 0;

/** Rows that state their currency's rate into base (fxRateToBase) on their day. */
export const RATED_ROWS: ReadonlySet<string> = new Set(['Trade', 'Order', 'TradeCancel', 'CashTransaction', 'CorporateAction', 'OpenPosition']);

/** The books' asset class of IB's assetCategory (and subCategory for ETFs, where the query includes it). */
export function assetClassOf(attrs: Readonly<Record<string, string>>): AssetClass {
  switch ((attrs.assetCategory ?? '').trim().toUpperCase()) {
    case 'STK':
      return (attrs.subCategory ?? '').trim().toUpperCase() === 'ETF' ? 'etf' : 'stock';
    case 'OPT':
      return 'option';
    case 'FUT':
      return 'future';
    case 'FOP':
      return 'future_option';
    case 'BOND':
    case 'BILL':
      return 'bond';
    case 'FUND':
      return 'fund';
    case 'CFD':
      return 'cfd';
    case 'CASH':
      return 'forex';
    default:
      // WAR, IOPT, CMDTY, CRYPTO …: priced as units × price × multiplier like the rest.
      return 'other';
  }
}

/** Futures and options on futures: IB settles them daily and leaves fifoPnlRealized at 0 on their closing rows. */
export const isFutureLike = (assetClass: AssetClass): boolean => assetClass === 'future' || assetClass === 'future_option';

/** The position a row belongs to: IB's contract id, or a hash of symbol and currency for a row without one. */
export function positionOf(attrs: Readonly<Record<string, string>>): number {
  const conid = Number((attrs.conid ?? '').trim());
  if (Number.isSafeInteger(conid) && conid > 0) return conid;
  return hashRef(`position\u001f${attrs.symbol ?? ''}\u001f${attrs.currency ?? ''}`);
}

/**
 * When a row happened: dateTime, else tradeDate with tradeTime (older queries), else the date fields a
 * section uses instead (reportDate, settleDate). Null when it has no date, or one that cannot be read; the caller warns.
 */
export function momentOf(row: FlexRow, order: SlashOrder | null): Moment | null {
  const { attrs } = row;
  const candidates: [string | undefined, string | undefined][] = [
    [attrs.dateTime, undefined],
    [attrs.tradeDate, attrs.tradeTime],
    [attrs.date, undefined],
    [attrs.reportDate, undefined],
    [attrs.settleDate, undefined],
  ];
  for (const [value, time] of candidates) {
    const moment = readMoment(value, order, time);
    // The first date the row writes is its date: one that cannot be read is not replaced by another.
    if (moment !== null) return moment ?? null;
  }
  return null;
}

/** A row's `notes` codes ("P;", "C;O" → P; C, O), unknown ones counted in a warning and kept as they are. */
export function notesOf(row: FlexRow, warnings: Warnings): Set<string> {
  const codes = new Set<string>();
  for (const part of (row.attrs.notes ?? '').split(';')) {
    const code = part.trim();
    if (code === '') continue;
    codes.add(code);
    if (!NOTES_CODES.has(code)) {
      warnings.add(`notes:${code}`, (n) => `${counted(n, 'row')} with unknown notes code '${code}' kept as they are`);
    }
  }
  return codes;
}

/** A row's own text for messages: the element, symbol and date. */
export function describeRow(row: FlexRow): string {
  const { attrs } = row;
  const what = [attrs.symbol, attrs.type, attrs.description].find((v) => v !== undefined && v.trim() !== '') ?? '';
  const when = attrs.dateTime ?? attrs.tradeDate ?? attrs.reportDate ?? '';
  return `${row.tag}${what ? ` ${what.trim()}` : ''}${when ? ` of ${when}` : ''}`;
}
