import { IngestDeal, IngestPosition } from '#shared/contract/ingest.ts';
import { currencyOf, headerFields, textOrNull, type StatementAccount } from './account.ts';
import {
  cellAt,
  cellText,
  columnsOf,
  hasColumns,
  parseNumber,
  parseTicket,
  parseTime,
  type Columns,
  type Grid,
  type GridRow,
} from './cells.ts';

/**
 * MetaTrader 4's Statement.htm: the broker's name above a header row (Account, Name, Currency, Leverage),
 * then Closed Transactions (one row per round trip: Ticket, Open Time, Type, Size, Item, Price, S / L,
 * T / P, Close Time, Price, Commission, Taxes, Swap, Profit; balance and credit rows in between), Open
 * Trades (the same columns, the second Price being the market price), Working Orders and a Summary.
 *
 * MT4 has no deals, so each closed trade becomes the two deals MT5 would have recorded: an `in` deal at
 * the open time and price, and an `out` deal at the close time and price carrying the commission, taxes
 * (as fee), swap and profit; an open trade gets its `in` deal too, as MT5 lists the opening deal of a
 * position still open. Deal tickets are ticket × 2 and ticket × 2 + 1 (a balance row: ticket × 2), and
 * position_id is the MT4 ticket. A partial close shows in MT4 as the closed part under the old ticket
 * ("to #new") and the rest under a new ticket ("from #old"): both belong to the first ticket's position,
 * as one MT5 position with two closing deals would (an open rest keeps that identifier, its own ticket).
 */

type Section = 'closed' | 'open' | 'other';
type Side = 'buy' | 'sell';

const TRADE_HEADER = ['ticket', 'opentime', 'type', 'item', 'price', 'price', 'profit'];

function sectionOf(columns: Columns): Section | null {
  if (!hasColumns(columns, ['ticket', 'opentime', 'type', 'item'])) return null;
  if (columns.has('marketprice')) return 'other'; // Working Orders
  if (!hasColumns(columns, TRADE_HEADER)) return null;
  return columns.has('closetime') ? 'closed' : 'open';
}

/** Whether the table has MT4's Closed Transactions header. */
export function hasMt4Trades(grid: Grid): boolean {
  return grid.rows.some((row) => row.cells.length >= TRADE_HEADER.length && sectionOf(columnsOf(row)) === 'closed');
}

export interface Mt4Statement {
  account: StatementAccount;
  deals: IngestDeal[];
  positions: IngestPosition[];
  warnings: string[];
}

export function parseMt4(grid: Grid): Mt4Statement {
  const warnings: string[] = [];
  const deals: IngestDeal[] = [];
  const positions: IngestPosition[] = [];
  let section: Section | null = null;
  let columns: Columns = new Map();

  /** Ticket → the ticket it was split from ("from #…" in its comment). */
  const splitFrom = new Map<number, number>();

  grid.rows.forEach((row, index) => {
    const header = row.cells.length >= TRADE_HEADER.length ? columnsOf(row) : null;
    const next = header ? sectionOf(header) : null;
    if (header && next) {
      section = next;
      columns = header;
      return;
    }
    const line = index + 1;
    if (section !== 'closed' && section !== 'open') return;
    const ticket = parseTicket(cellAt(row, columns, 'ticket'));
    const from = /\bfrom #(\d+)/i.exec(titleAt(row, columns, 'ticket') ?? '')?.[1];
    if (ticket !== null && from !== undefined) splitFrom.set(ticket, Number(from));
    if (section === 'closed') deals.push(...closedRow(row, columns, line, warnings));
    else {
      const opened = openRow(row, columns, line, warnings);
      if (opened) {
        positions.push(opened.position);
        deals.push(opened.deal);
      }
    }
  });

  const rootOf = (ticket: number) => {
    let root = ticket;
    for (let hops = 0; hops < 1000 && splitFrom.has(root); hops++) root = splitFrom.get(root)!;
    return root;
  };
  for (const deal of deals) if (deal.position_id !== 0) deal.position_id = rootOf(deal.position_id);
  for (const position of positions) position.identifier = rootOf(position.identifier);
  return { account: mt4Account(grid), deals, positions, warnings };
}

function mt4Account(grid: Grid): StatementAccount {
  const fields = headerFields(grid);
  // The title reads "Statement: 2100123 - José Müller".
  const titled = /^Statement:\s*(\d+)\s*(?:-\s*(.*))?$/i.exec(grid.title);
  const login = /\d+/.exec(fields.get('account') ?? fields.get('a/c no') ?? fields.get('login') ?? '')?.[0];
  // The broker's name is the line of text above the header row.
  const headerRow = grid.rows.findIndex((row) => row.cells.some((cell) => /^(account|a\/c no)\s*:/i.test(cellText(cell))));
  const above = headerRow > 0 ? grid.rows.slice(0, headerRow).filter((row) => row.cells.length === 1) : [];
  return {
    login: login ?? titled?.[1] ?? null,
    name: textOrNull(fields.get('name')) ?? textOrNull(titled?.[2]),
    currency: currencyOf(fields.get('currency')),
    server: textOrNull(fields.get('server')),
    company: textOrNull(cellText(above.at(-1)?.cells[0])),
  };
}

function sideOf(text: string): Side | null {
  return text === 'buy' ? 'buy' : text === 'sell' ? 'sell' : null;
}

/** A cell's title attribute: MT4 keeps a trade's comment there. */
function titleAt(row: GridRow, columns: Columns, key: string): string | undefined {
  const index = columns.get(key)?.[0];
  return index === undefined ? undefined : row.titles?.[index]?.slice(0, 64);
}

const volumeAt = (row: GridRow, columns: Columns) =>
  parseNumber(cellAt(row, columns, 'size') ?? cellAt(row, columns, 'volume') ?? cellAt(row, columns, 'lots'));

function closedRow(row: GridRow, columns: Columns, line: number, warnings: string[]): IngestDeal[] {
  const ticket = parseTicket(cellAt(row, columns, 'ticket'));
  const openTime = parseTime(cellAt(row, columns, 'opentime'));
  // A comment line under a trade, the totals, Closed P/L: no ticket and time.
  if (ticket === null || openTime === null) return [];
  const typeText = cellText(cellAt(row, columns, 'type')).toLowerCase();
  const comment = titleAt(row, columns, 'ticket');

  if (typeText === 'balance' || typeText === 'credit') {
    // "<td>balance</td><td colspan=10>Deposit</td><td>1 000.00</td>": the text between is the comment.
    const typeIndex = columns.get('type')![0]!;
    const profitIndex = columns.get('profit')!.at(-1)!;
    const text = row.cells.slice(typeIndex + 1, profitIndex).map(cellText).find((cell) => cell !== '');
    return valid(line, warnings, [
      {
        ticket: ticket * 2,
        position_id: 0,
        time: openTime,
        type: typeText === 'balance' ? 2 : 3,
        entry: 'in',
        symbol: '',
        volume: 0,
        price: 0,
        commission: 0,
        fee: 0,
        swap: 0,
        profit: parseNumber(cellAt(row, columns, 'profit')) ?? 0,
        ...(text || comment ? { comment: (text ?? comment)!.slice(0, 64) } : {}),
      },
    ]);
  }

  const side = sideOf(typeText);
  if (side === null) {
    // A pending order that was cancelled or expired ("buy limit" … "cancelled") never traded.
    if (!/^(buy|sell) (limit|stop)$/.test(typeText)) {
      warnings.push(`Row ${line}: ticket ${ticket} of unknown type "${typeText}" was skipped.`);
    }
    return [];
  }
  const closeTime = parseTime(cellAt(row, columns, 'closetime'));
  if (closeTime === null) {
    warnings.push(`Row ${line}: closed ticket ${ticket} has no close time and was skipped.`);
    return [];
  }
  const volume = volumeAt(row, columns);
  const symbol = cellText(cellAt(row, columns, 'item'));
  const common = {
    position_id: ticket,
    order: ticket,
    symbol,
    volume,
    ...(comment ? { comment } : {}),
  };
  return valid(line, warnings, [
    {
      ...common,
      ticket: ticket * 2,
      time: openTime,
      type: side === 'buy' ? 0 : 1,
      entry: 'in',
      price: parseNumber(cellAt(row, columns, 'price', 0)),
      commission: 0,
      fee: 0,
      swap: 0,
      profit: 0,
    },
    {
      ...common,
      ticket: ticket * 2 + 1,
      time: closeTime,
      type: side === 'buy' ? 1 : 0,
      entry: 'out',
      price: parseNumber(cellAt(row, columns, 'price', 1)),
      commission: parseNumber(cellAt(row, columns, 'commission')) ?? 0,
      fee: parseNumber(cellAt(row, columns, 'taxes')) ?? 0,
      swap: parseNumber(cellAt(row, columns, 'swap')) ?? 0,
      profit: parseNumber(cellAt(row, columns, 'profit')) ?? 0,
    },
  ]);
}

/** The deals if each passes the ingest contract, else none of the row's (with a warning). */
function valid(line: number, warnings: string[], records: unknown[]): IngestDeal[] {
  const deals: IngestDeal[] = [];
  for (const record of records) {
    const parsed = IngestDeal.safeParse(record);
    if (!parsed.success) {
      warnings.push(`Row ${line}: skipped (${parsed.error.issues[0]?.message ?? 'invalid'}).`);
      return [];
    }
    deals.push(parsed.data);
  }
  return deals;
}

function openRow(
  row: GridRow,
  columns: Columns,
  line: number,
  warnings: string[],
): { position: IngestPosition; deal: IngestDeal } | null {
  const ticket = parseTicket(cellAt(row, columns, 'ticket'));
  const time = parseTime(cellAt(row, columns, 'opentime'));
  const type = sideOf(cellText(cellAt(row, columns, 'type')).toLowerCase());
  if (ticket === null || time === null || type === null) return null;
  const comment = titleAt(row, columns, 'ticket');
  const commission = parseNumber(cellAt(row, columns, 'commission'));
  const symbol = cellText(cellAt(row, columns, 'item'));
  const volume = volumeAt(row, columns);
  const priceOpen = parseNumber(cellAt(row, columns, 'price', 0));
  const position = IngestPosition.safeParse({
    identifier: ticket,
    ticket,
    symbol,
    type,
    volume,
    price_open: priceOpen,
    price_current: parseNumber(cellAt(row, columns, 'price', 1)),
    sl: parseNumber(cellAt(row, columns, 's/l')) ?? 0,
    tp: parseNumber(cellAt(row, columns, 't/p')) ?? 0,
    profit: parseNumber(cellAt(row, columns, 'profit')) ?? 0,
    swap: parseNumber(cellAt(row, columns, 'swap')) ?? 0,
    ...(commission === null ? {} : { commission }),
    time,
    ...(comment ? { comment } : {}),
  });
  if (!position.success) {
    warnings.push(`Row ${line}: open ticket ${ticket} skipped (${position.error.issues[0]?.message ?? 'invalid'}).`);
    return null;
  }
  const [deal] = valid(line, warnings, [
    {
      ticket: ticket * 2,
      position_id: ticket,
      order: ticket,
      time,
      type: type === 'buy' ? 0 : 1,
      entry: 'in',
      symbol,
      volume,
      price: priceOpen,
      commission: 0,
      fee: 0,
      swap: 0,
      profit: 0,
      ...(comment ? { comment } : {}),
    },
  ]);
  return deal ? { position: position.data, deal } : null;
}
