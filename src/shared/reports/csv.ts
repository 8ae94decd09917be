/**
 * Tables as CSV files (RFC 4180), written by papaparse's `unparse`: the app's CSV buttons load it on
 * demand (dynamic import), so neither this module nor papaparse is in any screen's first load; the
 * server writes the investor statements with it.
 */
import Papa from 'papaparse';

/** A field of the file: text, a number written as it is (no grouping, '.' decimal), or nothing (an empty field). */
export type CsvValue = string | number | null | undefined;

export interface CsvColumn<T> {
  /** The column's title. */
  title: string;
  value: (row: T) => CsvValue;
}

export interface CsvTable<T> {
  fileName: string;
  columns: readonly CsvColumn<T>[];
  rows: readonly T[];
}

/** Lets Excel read the file as UTF-8 (accents, '€'); other readers skip it. */
export const UTF8_BOM = '\uFEFF';

/**
 * Text a spreadsheet would run as a formula (OWASP CSV injection): such a field gets a leading "'"
 * and quotes. papaparse's own pattern (/^[=+\-@\t\r].*$/) misses a field with a line break, as
 * '.' stops at it; this one looks at the first character only. Numbers are never touched, so a
 * negative amount stays a number.
 */
const FORMULA_START = /^[=+\-@\t\r]/;

function field(value: CsvValue): string | number | null {
  if (typeof value === 'number') return Number.isFinite(value) ? value : null;
  return value ?? null;
}

/** The table as CSV text: a header row of the column titles, then one record per row, CRLF between records. */
export function toCsv<T>(table: Pick<CsvTable<T>, 'columns' | 'rows'>): string {
  // One array of records, titles first: papaparse's { fields, data } form writes an empty record
  // after the header when there are no rows.
  const records: (string | number | null)[][] = [
    table.columns.map((column) => column.title),
    ...table.rows.map((row) => table.columns.map((column) => field(column.value(row)))),
  ];
  return Papa.unparse(records, {
    newline: '\r\n',
    quotes: false,
    quoteChar: '"',
    escapeChar: '"',
    delimiter: ',',
    escapeFormulae: FORMULA_START,
  });
}

/** The file's bytes as text: the BOM, the table, and a closing CRLF (RFC 4180 allows it; `cat` and Excel like it). */
export function csvFileText<T>(table: Pick<CsvTable<T>, 'columns' | 'rows'>): string {
  return `${UTF8_BOM}${toCsv(table)}\r\n`;
}

