import { cellText, parseNumber, parseTicket, parseTime, type CellValue, type Grid, type GridRow } from './cells.ts';

/*
 * The shapes MetaTrader's reports are made of, whatever language they are written in: MetaTrader
 * translates headings and labels, never its data words (buy, sell, in, out, balance), its numbers or
 * its times, nor the order of its sections and columns. So a report is read by the shape of its rows.
 */

/** Non-empty cells of a row. */
export function filled(row: GridRow): number {
  let n = 0;
  for (const cell of row.cells) if (cellText(cell) !== '') n++;
  return n;
}

const isDatum = (cell: CellValue) => typeof cell === 'number' || cell instanceof Date || parseNumber(cell) !== null || parseTime(cell) !== null;

/** A section's title: one cell of text, the rest empty ("Deals", "Сделки", "約定"). */
export function isTitleRow(row: GridRow): boolean {
  return filled(row) === 1 && !isDatum(row.cells.find((cell) => cellText(cell) !== '') ?? null);
}

/** A table's header: at least `min` cells of text and not one number or time among them. */
export function isHeaderRow(row: GridRow, min = 8): boolean {
  let n = 0;
  for (const cell of row.cells) {
    if (cellText(cell) === '') continue;
    if (isDatum(cell)) return false;
    n++;
  }
  return n >= min;
}

/** Positions of a header's non-empty cells: a data row is read at these, so blank spacer columns drop out. */
export function namedColumns(header: GridRow): number[] {
  const named: number[] = [];
  header.cells.forEach((cell, index) => {
    if (cellText(cell) !== '') named.push(index);
  });
  return named;
}

/** A label (text ending in a colon, in any script) and the value after it, as a summary block prints them. */
export interface Pair {
  label: string;
  /** The value's cell, as text. */
  raw: string;
  /** The value read as a number (null for "2 (196.51)" and the like: see countOf). */
  value: number | null;
}

const LABEL = /[:：]$/;

/** The label/value pairs of a row, left to right ("Balance:", "", "", "50.94" → one pair). */
export function pairsOf(row: GridRow): Pair[] {
  const pairs: Pair[] = [];
  let label: string | null = null;
  for (const cell of row.cells) {
    const text = cellText(cell);
    if (text === '') continue;
    if (label === null) {
      if (LABEL.test(text) && !isDatum(cell)) label = text;
      continue;
    }
    if (LABEL.test(text) && !isDatum(cell)) {
      // A label with no value ("Balance Drawdown:"), then the next label.
      label = text;
      continue;
    }
    pairs.push({ label, raw: text, value: parseNumber(cell) });
    label = null;
  }
  return pairs;
}

/** The leading count of "370 (56.23%)" or "9.000000": a whole number, else null. */
export function countOf(pair: Pair | undefined): number | null {
  if (!pair) return null;
  const lead = pair.value ?? parseNumber(/^\s*([-\d\s.,\u00a0]+?)\s*\(/.exec(pair.raw)?.[1] ?? '');
  return lead !== null && Number.isInteger(lead) ? lead : null;
}

/** The percentage in "8 (25.00%)". */
export function percentOf(pair: Pair | undefined): number | null {
  const match = /\(\s*(-?[\d.,\s]+)\s*%\s*\)/.exec(pair?.raw ?? '');
  return match ? parseNumber(match[1]) : null;
}

/** The rows after `from` that print label/value pairs, with their positions. */
export function pairRows(grid: Grid, from: number): { index: number; pairs: Pair[] }[] {
  const found: { index: number; pairs: Pair[] }[] = [];
  for (let index = from; index < grid.rows.length; index++) {
    const pairs = pairsOf(grid.rows[index]!);
    if (pairs.length > 0) found.push({ index, pairs });
  }
  return found;
}

/** A data row's first cells: a time, then a ticket (MT5), or a ticket, then a time (MT4). */
export const startsMt5 = (row: GridRow, named: readonly number[]) =>
  parseTime(row.cells[named[0] ?? 0]) !== null && parseTicket(row.cells[named[1] ?? 1]) !== null;
export const startsMt4 = (row: GridRow) => parseTicket(row.cells[0]) !== null && parseTime(row.cells[1]) !== null;
