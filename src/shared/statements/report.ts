import { cents } from '#shared/domain/money.ts';
import type { IngestPosition } from '#shared/contract/ingest.ts';
import { mt4Header, mt5Header, type Accounting } from './account.ts';
import type { Grid } from './cells.ts';
import type { ReportContent } from './content.ts';
import { decodeText } from './decode.ts';
import { NotAStatementError } from './errors.ts';
import { htmlGrid } from './html-grid.ts';
import { parseMt4 } from './mt4.ts';
import { isTesterReport, parseMt5 } from './mt5.ts';
import { DamagedZipError } from './zip.ts';
import { xlsxGrids } from './xlsx-grid.ts';

/**
 * Reads the trade history files investors already have — MetaTrader 5's Trade History Report (HTML in
 * UTF-16 or UTF-8, or its Excel .xlsx export) and MetaTrader 4's Statement.htm or DetailedStatement.htm,
 * in whatever language the terminal wrote them — into the ingest contract's deal and position records,
 * so a history can be imported without a terminal agent.
 *
 * The format is told by content, never by the file's name: a zip (`PK`) is a workbook; otherwise the
 * bytes are decoded as text (UTF-16 by its byte-order mark, UTF-8, else the declared or Windows code
 * page) and the report is told by its structure (docs/statements.md). Times are broker server time, as
 * the report prints them, in epoch seconds read as if UTC (the contract's BrokerTime).
 */

export type StatementFormat = 'mt5-html' | 'mt5-xlsx' | 'mt4-html';
export type { StatementAccount } from './account.ts';
export type { StatedFigures } from './stated.ts';
export { NotAStatementError } from './errors.ts';
export { ReadBudgetError } from './budget.ts';

export interface ParsedStatement extends ReportContent {
  format: StatementFormat;
  /** MT5 prints it in its account line (else it is told from the deals); MT4 accounts hedge. */
  accounting: Accounting;
  /**
   * The balance just before deal `ticket`, the report's first: what the account held before the
   * report's period (MT5 prints a running balance; MT4 does not, so null there).
   */
  opening: { ticket: number; balance: number } | null;
  /** The open positions' floating result: their profit, swap and commission (0 without any). */
  floating: number;
}

const NOT_A_STATEMENT = 'This file is not a MetaTrader 4 or 5 trade history report.';
const TESTER = "This is a Strategy Tester report (a backtest), not an account's trade history.";
const CUT_SHORT =
  'This report is incomplete: the file ends before the report does (it may have been cut off while copying or ' +
  'downloading). Save the report from MetaTrader again and upload the whole file.';
const DAMAGED_ZIP = 'This file is a zip archive or a damaged spreadsheet, not a MetaTrader 5 trade history report.';

/**
 * Parses a statement file's bytes. Rejects with NotAStatementError for anything that is not a whole MT5
 * Trade History Report (HTML or .xlsx) or MT4 statement, and with ReadBudgetError for a file past the
 * reading budget (budget.ts).
 */
export async function parseStatement(bytes: Uint8Array, fileName?: string): Promise<ParsedStatement> {
  const refuse = (message?: string) => new NotAStatementError(message, fileName);
  if (isZip(bytes)) {
    let grids: Grid[];
    try {
      grids = xlsxGrids(bytes);
    } catch (err) {
      if (err instanceof DamagedZipError) throw refuse(err.cut ? CUT_SHORT : DAMAGED_ZIP);
      throw err;
    }
    const grid = grids.find((candidate) => mt5Header(candidate) !== null);
    if (!grid) throw refuse();
    return fromMt5('mt5-xlsx', grid, fileName);
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
  if (isTesterReport(grid)) throw new NotAStatementError(TESTER, fileName);
  if (mt5Header(grid)) return fromMt5('mt5-html', grid, fileName);
  if (mt4Header(grid)) {
    const statement = parseMt4(grid, fileName);
    if (!statement.complete) throw new NotAStatementError(CUT_SHORT, fileName);
    return {
      format: 'mt4-html',
      account: statement.account,
      accounting: 'hedge',
      deals: statement.deals,
      positions: statement.positions,
      warnings: statement.warnings,
      stated: statement.stated,
      opening: null,
      rowsBalance: statement.rowsBalance,
      floating: floatingOf(statement.positions),
    };
  }
  throw new NotAStatementError(NOT_A_STATEMENT, fileName);
}

function fromMt5(format: 'mt5-html' | 'mt5-xlsx', grid: Grid, fileName?: string): ParsedStatement {
  if (isTesterReport(grid)) throw new NotAStatementError(TESTER, fileName);
  const statement = parseMt5(grid, fileName);
  if (!statement.complete) throw new NotAStatementError(CUT_SHORT, fileName);
  return {
    format,
    account: statement.account,
    accounting: statement.accounting,
    deals: statement.deals,
    positions: statement.positions,
    warnings: statement.warnings,
    stated: statement.stated,
    opening: statement.opening,
    rowsBalance: statement.rowsBalance,
    floating: floatingOf(statement.positions),
  };
}

function floatingOf(positions: readonly IngestPosition[]): number {
  return cents(positions.reduce((sum, p) => sum + p.profit + p.swap + (p.commission ?? 0), 0));
}

/** A zip's local-file (PK 03 04) or, for an empty archive, end-of-directory (PK 05 06) signature. */
/**
 * Whether these bytes may be a MetaTrader report: a workbook (a zip, or an old .xls to refuse with its
 * own message), or text with table cells anywhere (a report's tables may follow much markup).
 * parseStatement says for sure.
 */
export function isMetaTraderReport(bytes: Uint8Array): boolean {
  if (isZip(bytes) || isOldExcel(bytes)) return true;
  const text = decodeText(bytes);
  return text !== null && /<t[dh][\s>]/i.test(text);
}

/** MetaTrader's own refusal of a file that is none of its reports (the statement import names every format it reads instead). */
export const NOT_A_METATRADER_REPORT = NOT_A_STATEMENT;

function isZip(bytes: Uint8Array): boolean {
  if (bytes.length < 4 || bytes[0] !== 0x50 || bytes[1] !== 0x4b) return false;
  return (bytes[2] === 0x03 && bytes[3] === 0x04) || (bytes[2] === 0x05 && bytes[3] === 0x06);
}

/** The compound-file header of a legacy .xls workbook. */
function isOldExcel(bytes: Uint8Array): boolean {
  const magic = [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1];
  return bytes.length >= magic.length && magic.every((byte, i) => bytes[i] === byte);
}
