import { cents } from '#shared/domain/money.ts';
import { IngestDeal, IngestPosition } from '#shared/contract/ingest.ts';
import { balanceEffect } from '#shared/domain/deal-types.ts';
import { mt4Header } from './account.ts';
import { cellText, headerKey, parseNumber, parseTicket, parseTime, type CellValue, type Grid, type GridRow } from './cells.ts';
import type { ReportContent } from './content.ts';
import { dedupe, type Keyed } from './dedupe.ts';
import { NotAStatementError } from './errors.ts';
import { NO_FIGURES, disagreement, mt4Figures } from './stated.ts';
import { isHeaderRow, isTitleRow, startsMt4 } from './structure.ts';

/**
 * MetaTrader 4's Statement.htm and DetailedStatement.htm, read by their structure: the broker's name
 * above a header row (Account, Name, Currency, Leverage, each "label: value"), then three tables in a
 * fixed order — Closed Transactions (one row per round trip, with balance and credit rows between),
 * Open Trades and Working Orders — each a title row, a header row of the same fourteen columns (Ticket,
 * Open Time, Type, Size, Item, Price, S / L, T / P, Close Time, Price, Commission, Taxes, Swap, Profit;
 * Open Trades leave Close Time's heading empty, Working Orders all after Market Price) and its rows;
 * then the Summary and, in a detailed statement, Details. Columns are read by their place; English
 * headings, where the statement has them, confirm it.
 *
 * MT4 has no deals, so each closed trade becomes the two deals MT5 would have recorded: an `in` deal at
 * the open time and price, and an `out` deal at the close time and price carrying the commission, taxes
 * (as fee), swap and profit; an open trade gets its `in` deal too, as MT5 lists the opening deal of a
 * position still open. Deal tickets are ticket × 2 and ticket × 2 + 1 (a balance row: ticket × 2), and
 * position_id is the MT4 ticket. A partial close shows in MT4 as the closed part under the old ticket
 * ("to #new") and the rest under a new ticket ("from #old"): both belong to the first ticket's position,
 * as one MT5 position with two closing deals would (an open rest keeps that identifier, its own ticket).
 */

/** A position's direction as the terminals report it (the ingest contract's lower-case spelling). */
type TerminalSide = IngestPosition['type'];
type Kind = 'closed' | 'open' | 'working';
type Columns = Map<string, number>;

const LEFT = ['ticket', 'opentime', 'type', 'size', 'item', 'price', 'sl', 'tp', 'closetime', 'closeprice'] as const;
const RIGHT = ['swap', 'profit'] as const;
const MIDDLE = [['commission'], ['commission', 'taxes']] as const;
const ENGLISH: Record<string, readonly string[]> = {
  ticket: ['ticket'],
  opentime: ['opentime'],
  type: ['type'],
  size: ['size', 'volume', 'lots'],
  item: ['item', 'symbol'],
  sl: ['s/l'],
  tp: ['t/p'],
  closetime: ['closetime'],
  commission: ['commission'],
  taxes: ['taxes'],
  swap: ['swap'],
  profit: ['profit'],
};

export interface Mt4Statement extends ReportContent {
  /** Whether the statement reaches its end (its Summary, and the file's own end). */
  complete: boolean;
}

/** A trades table's header: as wide as MT4's, and a table that is closed, open or working by which headings it leaves empty. */
function kindOf(header: GridRow): Kind | null {
  const width = header.cells.length;
  if (width < LEFT.length + RIGHT.length + 1) return null;
  const named = (i: number) => cellText(header.cells[i]) !== '';
  if (!named(0) || !named(1) || !named(2)) return null;
  if (!named(width - 1)) return 'working';
  return named(8) ? 'closed' : 'open';
}

/** The fourteen (or, without Taxes, thirteen) columns by place; English headings win where they are all there. */
function columnsOf(header: GridRow): Columns | null {
  const width = header.cells.length;
  const middle = MIDDLE.find((m) => LEFT.length + m.length + RIGHT.length === width);
  const english = new Map<string, number[]>();
  header.cells.forEach((cell, index) => {
    const key = headerKey(cell);
    if (key !== '') english.set(key, [...(english.get(key) ?? []), index]);
  });
  const byName: Columns = new Map();
  for (const [field, words] of Object.entries(ENGLISH)) {
    const index = words.map((word) => english.get(word)?.[0]).find((i) => i !== undefined);
    if (index !== undefined) byName.set(field, index);
  }
  const prices = english.get('price');
  if (prices && prices.length >= 2) {
    byName.set('price', prices[0]!);
    byName.set('closeprice', prices[1]!);
  }
  const needed = ['ticket', 'opentime', 'type', 'size', 'item', 'price', 'closeprice', 'profit'];
  if (needed.every((field) => byName.has(field))) {
    if (!byName.has('closetime') && middle) byName.set('closetime', 8);
    return byName;
  }
  if (!middle) return null;
  const columns: Columns = new Map();
  [...LEFT, ...middle, ...RIGHT].forEach((field, i) => columns.set(field, i));
  return columns;
}

const at = (row: GridRow, columns: Columns, field: string): CellValue | undefined => {
  const index = columns.get(field);
  return index === undefined ? undefined : row.cells[index];
};

/** What a statement row becomes: its deals, and an open trade's position. */
interface Row extends Keyed {
  deals: IngestDeal[];
  position?: IngestPosition;
  /** "from #…": the ticket it was split from. */
  from?: number;
}

export function parseMt4(grid: Grid, fileName?: string): Mt4Statement {
  const header = mt4Header(grid);
  if (!header) throw new Error('parseMt4 needs a statement with an MT4 header row');
  const warnings: string[] = [];
  const rows: Row[] = [];
  let kind: Kind | null = null;
  let columns: Columns | null = null;
  let end = header.row + 1;

  for (let index = header.row + 1; index < grid.rows.length; index++) {
    const row = grid.rows[index]!;
    if (isHeaderRow(row, 3)) {
      const next = kindOf(row);
      if (next) {
        kind = next;
        columns = columnsOf(row);
        if (!columns && kind !== 'working') {
          throw new NotAStatementError(
            `This statement's trades table has ${row.cells.length} columns, a layout of MetaTrader 4 this importer does not know.`,
            fileName,
          );
        }
        end = index + 1;
        continue;
      }
    }
    if (isTitleRow(row) && !startsMt4(row)) {
      // "Open Trades:", "Working Orders:", "Summary:": the table before it has ended.
      if (kind === 'working') kind = null;
      continue;
    }
    if (kind === null || kind === 'working' || !columns) continue;
    end = index + 1;
    if (!startsMt4(row)) continue;
    const line = row.line ?? index + 1;
    const read = kind === 'closed' ? closedRow(row, columns, line, warnings) : openRow(row, columns, line, warnings);
    if (read) rows.push(read);
  }

  const kept = dedupe(rows, 'ticket', warnings, fileName);
  const splitFrom = new Map<number, number>();
  for (const row of kept) if (row.from !== undefined) splitFrom.set(row.key, row.from);
  const rootOf = (ticket: number) => {
    let root = ticket;
    for (let hops = 0; hops < 1000 && splitFrom.has(root); hops++) root = splitFrom.get(root)!;
    return root;
  };
  const deals = kept.flatMap((row) => row.deals);
  const positions = kept.flatMap((row) => (row.position ? [row.position] : []));
  for (const deal of deals) if (deal.position_id !== 0) deal.position_id = rootOf(deal.position_id);
  for (const position of positions) position.identifier = rootOf(position.identifier);

  // What the imported deals move the balance by (a row skipped as invalid has none: it is not imported).
  const rowsBalance = cents(deals.reduce((sum, deal) => sum + balanceEffect(deal), 0));
  const { figures, complete } = mt4Figures(grid, end);
  const warning = disagreement(figures.balance, rowsBalance, header.account.currency);
  if (warning) warnings.push(warning);
  return {
    account: header.account,
    deals,
    positions,
    warnings,
    stated: complete ? figures : NO_FIGURES,
    rowsBalance,
    complete: complete && grid.whole,
  };
}

function sideOf(text: string): TerminalSide | null {
  return text === 'buy' ? 'buy' : text === 'sell' ? 'sell' : null;
}

/** A cell's title attribute: MT4 keeps a trade's comment there. */
function titleAt(row: GridRow, columns: Columns, field: string): string | undefined {
  const index = columns.get(field);
  return index === undefined ? undefined : row.titles?.[index]?.slice(0, 64);
}

function splitOf(comment: string | undefined): number | undefined {
  const from = /\bfrom #(\d+)/i.exec(comment ?? '')?.[1];
  return from === undefined ? undefined : Number(from);
}

function closedRow(row: GridRow, columns: Columns, line: number, warnings: string[]): Row | null {
  const ticket = parseTicket(at(row, columns, 'ticket'));
  const openTime = parseTime(at(row, columns, 'opentime'));
  if (ticket === null || openTime === null) return null;
  const typeText = cellText(at(row, columns, 'type')).toLowerCase();
  const comment = titleAt(row, columns, 'ticket');
  const from = splitOf(comment);

  if (typeText === 'balance' || typeText === 'credit') {
    // "<td>balance</td><td colspan=10>Deposit</td><td>1 000.00</td>": the text between is the comment.
    const typeIndex = columns.get('type')!;
    const profitIndex = columns.get('profit')!;
    const text = row.cells.slice(typeIndex + 1, profitIndex).map(cellText).find((cell) => cell !== '');
    const profit = parseNumber(at(row, columns, 'profit')) ?? 0;
    const deals = valid(line, warnings, [
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
        profit,
        ...(text || comment ? { comment: (text ?? comment)!.slice(0, 64) } : {}),
      },
    ]);
    // A credit is lent by the broker: it is not the account's balance (balanceEffect counts it as nothing).
    return { key: ticket, line, deals };
  }

  const side = sideOf(typeText);
  if (side === null) {
    // A pending order that was cancelled or expired ("buy limit" … "cancelled") never traded.
    if (!/^(buy|sell) (limit|stop)$/.test(typeText)) {
      warnings.push(`Row ${line}: ticket ${ticket} of unknown type "${typeText}" was skipped.`);
    }
    return null;
  }
  const closeTime = parseTime(at(row, columns, 'closetime'));
  if (closeTime === null) {
    warnings.push(`Row ${line}: closed ticket ${ticket} has no close time and was skipped.`);
    return null;
  }
  const volume = parseNumber(at(row, columns, 'size'));
  const symbol = cellText(at(row, columns, 'item'));
  const common = { position_id: ticket, order: ticket, symbol, volume, ...(comment ? { comment } : {}) };
  const commission = parseNumber(at(row, columns, 'commission')) ?? 0;
  const fee = parseNumber(at(row, columns, 'taxes')) ?? 0;
  const swap = parseNumber(at(row, columns, 'swap')) ?? 0;
  const profit = parseNumber(at(row, columns, 'profit')) ?? 0;
  const deals = valid(line, warnings, [
    {
      ...common,
      ticket: ticket * 2,
      time: openTime,
      type: side === 'buy' ? 0 : 1,
      entry: 'in',
      price: parseNumber(at(row, columns, 'price')),
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
      price: parseNumber(at(row, columns, 'closeprice')),
      commission,
      fee,
      swap,
      profit,
    },
  ]);
  return { key: ticket, line, deals, ...(from === undefined ? {} : { from }) };
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

function openRow(row: GridRow, columns: Columns, line: number, warnings: string[]): Row | null {
  const ticket = parseTicket(at(row, columns, 'ticket'));
  const time = parseTime(at(row, columns, 'opentime'));
  const type = sideOf(cellText(at(row, columns, 'type')).toLowerCase());
  if (ticket === null || time === null || type === null) return null;
  const comment = titleAt(row, columns, 'ticket');
  const commission = parseNumber(at(row, columns, 'commission'));
  const symbol = cellText(at(row, columns, 'item'));
  const volume = parseNumber(at(row, columns, 'size'));
  const priceOpen = parseNumber(at(row, columns, 'price'));
  const position = IngestPosition.safeParse({
    identifier: ticket,
    ticket,
    symbol,
    type,
    volume,
    price_open: priceOpen,
    price_current: parseNumber(at(row, columns, 'closeprice')),
    sl: parseNumber(at(row, columns, 'sl')) ?? 0,
    tp: parseNumber(at(row, columns, 'tp')) ?? 0,
    profit: parseNumber(at(row, columns, 'profit')) ?? 0,
    swap: parseNumber(at(row, columns, 'swap')) ?? 0,
    ...(commission === null ? {} : { commission }),
    time,
    ...(comment ? { comment } : {}),
  });
  if (!position.success) {
    warnings.push(`Row ${line}: open ticket ${ticket} skipped (${position.error.issues[0]?.message ?? 'invalid'}).`);
    return null;
  }
  const deals = valid(line, warnings, [
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
  if (deals.length === 0) return null;
  const from = splitOf(comment);
  return { key: ticket, line, deals, position: position.data, ...(from === undefined ? {} : { from }) };
}
