/**
 * The table a statement is read into, whatever its file format, and how its cells are read:
 * MetaTrader prints numbers with a space (or a no-break space) between thousands (`4 709.76`),
 * times as `2024.03.15 14:22:07` in the broker's server time, and leaves a cell empty for "none".
 */

/** A cell as the file gives it: text from HTML; text, a number or a date from a spreadsheet. */
export type CellValue = string | number | Date | null;

export interface GridRow {
  cells: CellValue[];
  /** The row's number in its file where that is not its place in `rows` (a spreadsheet's row number). */
  line?: number;
  /** HTML `title` attributes by cell index (MT4 keeps a trade's comment in its ticket cell's title). */
  titles?: (string | undefined)[];
}

export interface Grid {
  rows: GridRow[];
  /** The HTML document's <title> ('' for a spreadsheet). */
  title: string;
  /** Whether the file reached its own end (HTML's `</html>`, a zip's central directory): a file cut short does not. */
  whole: boolean;
}

const SPACES = /[\s\u00a0\u2007\u202f]+/g;

/** A cell as trimmed text with its runs of white space (no-break ones included) made one space. */
export function cellText(value: CellValue | undefined): string {
  if (value === null || value === undefined) return '';
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? '' : value.toISOString();
  return String(value).replace(SPACES, ' ').trim();
}

/** A header cell as a lookup key: lower case without any space, so `S / L` is `s/l` and `Open Time` is `opentime`. */
export function headerKey(value: CellValue | undefined): string {
  return cellText(value).toLowerCase().replace(/ /g, '');
}

/**
 * A number as MetaTrader prints it: `4 709.76`, `-1 250.00`, `0.10 / 0.10` (filled / requested: the first),
 * with a Unicode minus or a decimal comma. null for an empty cell or one that holds no number.
 */
export function parseNumber(value: CellValue | undefined): number | null {
  if (typeof value === 'number') return Number.isFinite(value) ? value : null;
  if (typeof value !== 'string') return null;
  let text = value.split('/')[0]!.replace(SPACES, '').replace(/[\u2212\u2012\u2013]/g, '-');
  if (text === '') return null;
  if (text.includes(',')) {
    // 1,234.56 → thousands commas; 1,234,567 → thousands; 12,5 → a decimal comma.
    text = text.includes('.') || /^[-+]?\d{1,3}(,\d{3})+$/.test(text) ? text.replace(/,/g, '') : text.replace(',', '.');
  }
  if (!/^[-+]?(\d+\.?\d*|\.\d+)$/.test(text)) return null;
  const number = Number(text);
  return Number.isFinite(number) ? number : null;
}

/** A ticket, deal, order or position number: a non-negative whole number, else null. */
export function parseTicket(value: CellValue | undefined): number | null {
  if (typeof value === 'number') return Number.isSafeInteger(value) && value >= 0 ? value : null;
  if (typeof value !== 'string') return null;
  const text = value.replace(SPACES, '').replace(/^#/, '');
  if (!/^\d{1,16}$/.test(text)) return null;
  const ticket = Number(text);
  return Number.isSafeInteger(ticket) ? ticket : null;
}

const TIME = /^(\d{4})[./-](\d{1,2})[./-](\d{1,2})[ T]+(\d{1,2}):(\d{2})(?::(\d{2}))?(?:\.\d+)?$/;
/** Excel's serial day numbers between 1954 and 2119: what an unformatted date cell holds. */
const EXCEL_SERIAL = { min: 20_000, max: 80_000 } as const;

/**
 * A time as broker server time in epoch seconds: the printed wall time read as if it were UTC, which is
 * what the ingest contract's BrokerTime means. A spreadsheet date cell is read the same way (its wall time
 * as UTC). null for anything that is not a time.
 */
export function parseTime(value: CellValue | undefined): number | null {
  if (value instanceof Date) {
    const ms = value.getTime();
    return Number.isNaN(ms) ? null : Math.round(ms / 1000);
  }
  if (typeof value === 'number') {
    if (value < EXCEL_SERIAL.min || value > EXCEL_SERIAL.max) return null;
    return Math.round((value - 25_569) * 86_400);
  }
  if (typeof value !== 'string') return null;
  const match = TIME.exec(value.replace(SPACES, ' ').trim());
  if (!match) return null;
  const [year, month, day, hour, minute, second] = match.slice(1).map((part) => Number(part ?? 0)) as [
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  if (month < 1 || month > 12 || day < 1 || day > 31 || hour > 23 || minute > 59 || second > 59) return null;
  const ms = Date.UTC(year, month - 1, day, hour, minute, second);
  // Date.UTC rolls 2024.02.31 over into March: refuse a day the month does not have.
  if (new Date(ms).getUTCDate() !== day) return null;
  return ms / 1000;
}

/** Column positions by header key; a key that repeats (MT5's Time, Price) keeps each position in order. */
export type Columns = Map<string, number[]>;

export function columnsOf(row: GridRow): Columns {
  const columns: Columns = new Map();
  row.cells.forEach((cell, index) => {
    const key = headerKey(cell);
    if (key === '') return;
    const list = columns.get(key);
    if (list) list.push(index);
    else columns.set(key, [index]);
  });
  return columns;
}

/** Whether a header row has every one of these keys (each repeated key at least that often). */
export function hasColumns(columns: Columns, keys: readonly string[]): boolean {
  const needed = new Map<string, number>();
  for (const key of keys) needed.set(key, (needed.get(key) ?? 0) + 1);
  for (const [key, count] of needed) if ((columns.get(key)?.length ?? 0) < count) return false;
  return true;
}

/** The cell under a header (its nth occurrence), undefined where the report has no such column. */
export function cellAt(row: GridRow, columns: Columns, key: string, occurrence = 0): CellValue | undefined {
  const index = columns.get(key)?.[occurrence];
  return index === undefined ? undefined : row.cells[index];
}

/** Whether a row has nothing in any cell. */
export function isBlank(row: GridRow): boolean {
  return row.cells.every((cell) => cellText(cell) === '');
}
