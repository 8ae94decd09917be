/**
 * What reading one statement file may cost. A file is untrusted: a small zip can claim to hold a
 * gigabyte, and markup can nest or repeat without end. The readers count what they produce against
 * these limits and stop with ReadBudgetError as soon as one is passed; the route also reads in a
 * worker thread whose memory and time are capped (read-in-worker.ts). docs/statements.md lists them.
 */
export const READ_BUDGET = {
  /** Bytes inflated out of an .xlsx, all parts together (counted while inflating, whatever the zip claims). */
  inflatedBytes: 192 * 1024 * 1024,
  /** Bytes inflated out of one part of an .xlsx. */
  partBytes: 128 * 1024 * 1024,
  /** Entries in an .xlsx's zip. */
  zipEntries: 2_000,
  /** Cells of all tables together, a colspan counting as the cells it spans. */
  cells: 4_000_000,
  /** Cells in one row (MetaTrader's widest table has 15 columns). */
  rowCells: 256,
  /** Time a worker may spend on one file before it is stopped. */
  seconds: 20,
  /** Heap of the worker that reads one file. */
  heapMb: 768,
} as const;

const MB = 1024 * 1024;

/** The file is past one of READ_BUDGET's limits: `message` says which, fit to show the uploader. */
export class ReadBudgetError extends Error {
  override readonly name = 'ReadBudgetError';
  constructor(readonly limit: string) {
    super(`This file is too large or too complex to read (limit: ${limit}).`);
  }
}

export const LIMITS = {
  inflated: `${READ_BUDGET.inflatedBytes / MB} MB unpacked from a spreadsheet`,
  part: `${READ_BUDGET.partBytes / MB} MB unpacked for one part of a spreadsheet`,
  entries: `${READ_BUDGET.zipEntries} files in a spreadsheet`,
  cells: `${READ_BUDGET.cells.toLocaleString('en-US')} table cells`,
  rowCells: `${READ_BUDGET.rowCells} cells in a row`,
  seconds: `${READ_BUDGET.seconds} s of reading`,
  heap: `${READ_BUDGET.heapMb} MB of memory while reading`,
} as const;

/** Counts cells as a reader makes them, and stops it past the budget. */
export class CellCounter {
  private count = 0;
  add(n = 1): void {
    this.count += n;
    if (this.count > READ_BUDGET.cells) throw new ReadBudgetError(LIMITS.cells);
  }
}
