import { cellText, type Grid, type GridRow } from './cells.ts';
import { filled } from './structure.ts';

/** The account a statement belongs to, as its header block prints it (null where it does not). */
export interface StatementAccount {
  /** The account number (MT5 "Account:", MT4 "Account:" / "A/C No:"). */
  login: string | null;
  name: string | null;
  /** ISO code of the deposit currency. */
  currency: string | null;
  /** The trade server (MT5 prints it beside the login; MT4's statement does not). */
  server: string | null;
  /** The broker's company name. */
  company: string | null;
}

/** How the account keeps positions: one per symbol (netting, exchange) or any number (hedging). */
export type Accounting = 'hedge' | 'netting';

export function currencyOf(text: string | undefined): string | null {
  const code = text?.trim().toUpperCase();
  return code && /^[A-Z]{3}$/.test(code) ? code : null;
}

export function textOrNull(text: string | undefined): string | null {
  const trimmed = text?.trim();
  return trimmed ? trimmed : null;
}

/** The header block is at the top: stop looking after this many rows. */
const HEADER_ROWS = 40;

/** MT5's account line in any language: "51234567 (USD, Broker-Server, real, Hedge)". */
const MT5_ACCOUNT = /^(\d{1,20})\s*\(\s*([A-Za-z]{3})\s*,\s*([^,()]*?)\s*(?:,\s*([^,()]*?)\s*)?(?:,\s*([^,()]*?)\s*)?\)$/;

export interface Mt5Header {
  account: StatementAccount;
  accounting: Accounting | null;
  /** Index of the row holding the account line. */
  row: number;
}

/**
 * MetaTrader 5's header block, read by its pattern rather than its labels: the account line (login,
 * then currency, server, account type and accounting mode in brackets) is the value of one label row;
 * the label row above it is the name, the one below it the company. The title ("51234567: Jane Example
 * - Trade History Report", in the report's language) gives login and name where the block does not.
 */
export function mt5Header(grid: Grid): Mt5Header | null {
  const top = grid.rows.slice(0, HEADER_ROWS);
  let row = -1;
  let match: RegExpExecArray | null = null;
  for (let i = 0; i < top.length && !match; i++) {
    for (const cell of top[i]!.cells) {
      match = MT5_ACCOUNT.exec(cellText(cell));
      if (match) {
        row = i;
        break;
      }
    }
  }
  if (!match) return null;
  const valueOf = (index: number) => {
    const candidate = top[index];
    return candidate && isLabelRow(candidate) ? labelValue(candidate) : undefined;
  };
  const titled = /^(\d+)\s*:\s*(.*?)\s+-\s+[^-]+$/.exec(grid.title);
  const mode = `${match[4] ?? ''} ${match[5] ?? ''}`;
  return {
    account: {
      login: match[1]!,
      name: textOrNull(valueOf(row - 1)) ?? textOrNull(titled?.[1] === match[1] ? titled?.[2] : undefined),
      currency: currencyOf(match[2]),
      server: textOrNull(match[3]),
      company: textOrNull(valueOf(row + 1)),
    },
    accounting: /hedg/i.test(mode) ? 'hedge' : /netting|exchange/i.test(mode) ? 'netting' : null,
    row,
  };
}

/** A header-block row: a label (ending in a colon) and, further right, its value. */
function isLabelRow(row: GridRow): boolean {
  return filled(row) === 2 && /[:：]$/.test(cellText(row.cells.find((cell) => cellText(cell) !== '')));
}

function labelValue(row: GridRow): string | undefined {
  return row.cells.map(cellText).filter((text) => text !== '')[1];
}

/**
 * MetaTrader 4's header row, by its pattern: "Account: 2100123", "Name: José Müller", "Currency: USD",
 * "Leverage: 1:500" and the date, each a label and its value in one cell (in the terminal's language).
 * The broker's company is the line of text above it. The title ("Statement: 2100123 - José Müller")
 * gives login and name where the row does not.
 */
export function mt4Header(grid: Grid): { account: StatementAccount; row: number } | null {
  const top = grid.rows.slice(0, HEADER_ROWS);
  for (let i = 0; i < top.length; i++) {
    const values = top[i]!.cells.map(cellText).filter((text) => text !== '');
    const parts = values.map((text) => /^([^:]{1,40}):\s*(.*)$/.exec(text)).filter((m) => m !== null);
    if (parts.length < 3) continue;
    const login = /^\d{1,20}$/.exec(parts[0]![2]!.trim())?.[0];
    if (!login) continue;
    const currency = parts.map((m) => currencyOf(m[2])).find((code) => code !== null) ?? null;
    const above = top.slice(0, i).filter((row) => filled(row) === 1);
    const titled = /^[^:]+:\s*(\d+)\s*(?:-\s*(.*))?$/.exec(grid.title);
    return {
      account: {
        login,
        name: textOrNull(parts[1]![2]) ?? textOrNull(titled?.[1] === login ? titled?.[2] : undefined),
        currency,
        server: null,
        company: textOrNull(cellText(above.at(-1)?.cells.find((cell) => cellText(cell) !== ''))),
      },
      row: i,
    };
  }
  return null;
}
