import type { IngestDeal, IngestPosition } from '#shared/contract/ingest.ts';
import type { StatementAccount } from './account.ts';
import type { Grid } from './cells.ts';
import { decodeText } from './decode.ts';
import { htmlGrid } from './html-grid.ts';
import { hasMt4Trades, parseMt4 } from './mt4.ts';
import { hasMt5Deals, isTesterReport, parseMt5 } from './mt5.ts';
import { xlsxGrids } from './xlsx-grid.ts';

/**
 * Reads the trade history files investors already have — MetaTrader 5's Trade History Report (HTML in
 * UTF-16 or UTF-8, or its Excel .xlsx export) and MetaTrader 4's Statement.htm — into the ingest
 * contract's deal and position records, so a history can be imported without a terminal agent.
 *
 * The format is told by content, never by the file's name: a zip (`PK`) is a workbook; otherwise the
 * bytes are decoded as text (UTF-16 by its byte-order mark, UTF-8, else the declared or Windows code
 * page) and the tables' header rows say which report it is. Times are broker server time, as the
 * report prints them, in epoch seconds read as if UTC (the contract's BrokerTime).
 */

export type StatementFormat = 'mt5-html' | 'mt5-xlsx' | 'mt4-html';
export type { StatementAccount } from './account.ts';

export interface ParsedStatement {
  format: StatementFormat;
  account: StatementAccount;
  /** Every deal the report lists, each passing `IngestDeal.parse`, in the report's order. */
  deals: IngestDeal[];
  /** Open positions, where the report lists them (MT5 "Open Positions", MT4 "Open Trades"); else empty. */
  positions: IngestPosition[];
  /** Rows that were left out or read with a guess, one sentence each ("Row 41: …", counting table rows from the top). */
  warnings: string[];
}

const NOT_A_STATEMENT = 'This file is not a MetaTrader 4 or 5 trade history report.';

/** The file is not a statement this importer reads; `message` is fit to show the person who uploaded it. */
export class NotAStatementError extends Error {
  override readonly name = 'NotAStatementError';
  constructor(
    message: string = NOT_A_STATEMENT,
    readonly fileName?: string,
  ) {
    super(message);
  }
}

/**
 * Parses a statement file's bytes. Rejects with NotAStatementError for anything that is not an MT5 Trade
 * History Report (HTML or .xlsx) or an MT4 Statement. Asynchronous because the .xlsx reader is.
 */
export async function parseStatement(bytes: Uint8Array, fileName?: string): Promise<ParsedStatement> {
  const refuse = (message?: string) => new NotAStatementError(message, fileName);
  if (isZip(bytes)) {
    let grids: Grid[];
    try {
      grids = await xlsxGrids(bytes);
    } catch {
      throw refuse('This file is a zip archive or a damaged spreadsheet, not a MetaTrader 5 trade history report.');
    }
    const grid = grids.find(hasMt5Deals);
    if (!grid) throw refuse();
    if (isTesterReport(grid)) throw refuse(TESTER);
    return { format: 'mt5-xlsx', ...parseMt5(grid) };
  }
  if (isOldExcel(bytes)) {
    throw refuse('This is an old-style Excel (.xls) file. Save the report from MetaTrader as HTML or as Excel (.xlsx) and upload that.');
  }
  const text = decodeText(bytes);
  if (text === null || !/<t[dh][\s>]/i.test(text)) throw refuse();
  return parseHtmlStatement(text, fileName);
}

/** The synchronous half of parseStatement for a report already decoded to text (HTML). */
export function parseHtmlStatement(html: string, fileName?: string): ParsedStatement {
  const grid = htmlGrid(html);
  if (hasMt5Deals(grid)) {
    if (isTesterReport(grid)) throw new NotAStatementError(TESTER, fileName);
    return { format: 'mt5-html', ...parseMt5(grid) };
  }
  if (hasMt4Trades(grid)) return { format: 'mt4-html', ...parseMt4(grid) };
  throw new NotAStatementError(NOT_A_STATEMENT, fileName);
}

const TESTER = "This is a Strategy Tester report (a backtest), not an account's trade history.";

/** A zip's local-file (PK 03 04) or, for an empty archive, end-of-directory (PK 05 06) signature. */
function isZip(bytes: Uint8Array): boolean {
  if (bytes.length < 4 || bytes[0] !== 0x50 || bytes[1] !== 0x4b) return false;
  return (bytes[2] === 0x03 && bytes[3] === 0x04) || (bytes[2] === 0x05 && bytes[3] === 0x06);
}

/** The compound-file header of a legacy .xls workbook. */
function isOldExcel(bytes: Uint8Array): boolean {
  const magic = [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1];
  return bytes.length >= magic.length && magic.every((byte, i) => bytes[i] === byte);
}
