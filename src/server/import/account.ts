import { cellText, type Grid } from './cells.ts';

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

const LABEL = /^(name|account|a\/c no|login|company|server|currency|leverage)\s*:\s*(.*)$/i;
/** The header block is at the top; later labels (Balance:, Results) are none of these, but stop early. */
const HEADER_ROWS = 60;

/**
 * Label → value from the header block: MT5 puts `Account:` in one cell and its value in the next,
 * MT4 puts `Account: 12345678` in a single cell. The first occurrence of a label wins.
 */
export function headerFields(grid: Grid): Map<string, string> {
  const fields = new Map<string, string>();
  for (const row of grid.rows.slice(0, HEADER_ROWS)) {
    row.cells.forEach((cell, index) => {
      const match = LABEL.exec(cellText(cell));
      if (!match) return;
      const label = match[1]!.toLowerCase();
      if (fields.has(label)) return;
      let value = match[2]!.trim();
      if (value === '') value = row.cells.slice(index + 1).map(cellText).find((text) => text !== '') ?? '';
      if (value !== '') fields.set(label, value);
    });
  }
  return fields;
}

export function currencyOf(text: string | undefined): string | null {
  const code = text?.trim().toUpperCase();
  return code && /^[A-Z]{3}$/.test(code) ? code : null;
}

export function textOrNull(text: string | undefined): string | null {
  const trimmed = text?.trim();
  return trimmed ? trimmed : null;
}
