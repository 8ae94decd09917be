import { IngestDeal, IngestPosition } from '#shared/contract/ingest.ts';
import { currencyOf, headerFields, textOrNull, type StatementAccount } from './account.ts';
import {
  cellAt,
  cellText,
  columnsOf,
  hasColumns,
  headerKey,
  parseNumber,
  parseTicket,
  parseTime,
  type Columns,
  type Grid,
  type GridRow,
} from './cells.ts';

/**
 * MetaTrader 5's Trade History Report (HTML or its Excel export): a header block (Name, Account with
 * currency, server and accounting mode, Company), then the sections Positions (closed positions),
 * Orders, Deals and, when positions are still open, Open Positions. Sections are told by their header
 * rows, and columns are found by their header names, so a build with or without the Fee or hidden Cost
 * column reads the same.
 */

type DealEntry = IngestDeal['entry'];
type Side = 'buy' | 'sell';

type Section = 'deals' | 'positions' | 'open' | 'other';

const DEALS_HEADER = ['time', 'deal', 'symbol', 'type', 'direction', 'volume', 'price', 'order', 'profit'];
const POSITIONS_HEADER = ['time', 'time', 'position', 'symbol', 'type', 'volume', 'price', 'price', 'profit'];
const OPEN_POSITIONS_HEADER = ['time', 'position', 'symbol', 'type', 'volume', 'price', 'marketprice', 'profit'];

function sectionOf(columns: Columns): Section | null {
  if (hasColumns(columns, DEALS_HEADER)) return 'deals';
  if (hasColumns(columns, OPEN_POSITIONS_HEADER)) return 'open';
  if (hasColumns(columns, POSITIONS_HEADER)) return 'positions';
  // Orders, Working Orders: read past them.
  if (columns.has('order') && (columns.has('state') || columns.has('opentime'))) return 'other';
  return null;
}

/** Whether the table has MetaTrader 5's Deals header. */
export function hasMt5Deals(grid: Grid): boolean {
  return grid.rows.some((row) => row.cells.length >= DEALS_HEADER.length && sectionOf(columnsOf(row)) === 'deals');
}

/** A Strategy Tester report has a Deals table too, but it is a backtest, not an account's history. */
export function isTesterReport(grid: Grid): boolean {
  if (/strategy tester/i.test(grid.title)) return true;
  return grid.rows.slice(0, 10).some((row) => row.cells.some((cell) => /^strategy tester report$/i.test(cellText(cell))));
}

export interface Mt5Statement {
  account: StatementAccount;
  deals: IngestDeal[];
  positions: IngestPosition[];
  warnings: string[];
}

interface RawDeal {
  row: number;
  ticket: number;
  order: number | null;
  time: number;
  type: number;
  entry: DealEntry;
  symbol: string;
  volume: number;
  price: number;
  commission: number;
  fee: number;
  swap: number;
  profit: number;
  comment: string | undefined;
}

/** A closed position as the Positions section lists it. */
interface PositionRecord {
  id: number;
  symbol: string;
  side: Side;
  openTime: number;
  closeTime: number | null;
}

export function parseMt5(grid: Grid): Mt5Statement {
  const warnings: string[] = [];
  const account = mt5Account(grid);
  const raw: RawDeal[] = [];
  const history: PositionRecord[] = [];
  const positions: IngestPosition[] = [];

  let section: Section | null = null;
  let columns: Columns = new Map();
  let width = 0;
  grid.rows.forEach((row, index) => {
    const header = row.cells.length >= 6 ? columnsOf(row) : null;
    const next = header ? sectionOf(header) : null;
    if (header && next) {
      section = next;
      columns = header;
      width = row.cells.length;
      return;
    }
    const line = index + 1;
    if (section === 'deals') {
      const deal = dealRow(row, columns, line, warnings);
      if (deal) raw.push(deal);
    } else if (section === 'positions') {
      const record = positionRecord(withoutFiller(row, columns, width), columns);
      if (record) history.push(record);
    } else if (section === 'open') {
      const position = openPosition(withoutFiller(row, columns, width), columns, line, warnings);
      if (position) positions.push(position);
    }
  });

  const netting = isNetting(grid, raw);
  const positionIds = link(raw, history, netting, warnings);

  const deals: IngestDeal[] = [];
  raw.forEach((deal, i) => {
    const parsed = IngestDeal.safeParse({
      ticket: deal.ticket,
      position_id: positionIds[i],
      ...(deal.order === null ? {} : { order: deal.order }),
      time: deal.time,
      type: deal.type,
      entry: deal.entry,
      symbol: deal.symbol,
      volume: deal.volume,
      price: deal.price,
      commission: deal.commission,
      fee: deal.fee,
      swap: deal.swap,
      profit: deal.profit,
      ...(deal.comment === undefined ? {} : { comment: deal.comment }),
    });
    if (parsed.success) deals.push(parsed.data);
    else warnings.push(`Row ${deal.row}: deal ${deal.ticket} skipped (${parsed.error.issues[0]?.message ?? 'invalid'}).`);
  });
  return { account, deals, positions, warnings };
}

function mt5Account(grid: Grid): StatementAccount {
  const fields = headerFields(grid);
  // "51234567 (USD, Broker-Server, real, Hedge)"; the title reads "51234567: Jane Example - Trade History Report".
  const accountLine = /^(\d+)\s*(?:\((.*)\))?/.exec(fields.get('account') ?? '');
  const titled = /^(\d+)\s*:\s*(.*?)\s*-\s*Trade History Report/i.exec(grid.title);
  const details = (accountLine?.[2] ?? '').split(',').map((part) => part.trim());
  return {
    login: accountLine?.[1] ?? titled?.[1] ?? null,
    name: textOrNull(fields.get('name')) ?? textOrNull(titled?.[2]),
    currency: currencyOf(details[0]) ?? currencyOf(fields.get('currency')),
    server: textOrNull(details[1]) ?? textOrNull(fields.get('server')),
    company: textOrNull(fields.get('company')),
  };
}

/** MT5 prints the accounting mode after the server: Hedge, Netting or Exchange (netting, exchange-style). */
function isNetting(grid: Grid, deals: RawDeal[]): boolean {
  const line = headerFields(grid).get('account') ?? '';
  if (/\b(netting|exchange)\b/i.test(line)) return true;
  if (/\bhedg/i.test(line)) return false;
  // An older build that does not say: a reversal (in/out) only happens on a netting account.
  return deals.some((deal) => deal.entry === 'inout');
}

function dealRow(row: GridRow, columns: Columns, line: number, warnings: string[]): RawDeal | null {
  const time = parseTime(cellAt(row, columns, 'time'));
  // Totals, blank rows and the summary under the table have no time: not deals.
  if (time === null) return null;
  const ticket = parseTicket(cellAt(row, columns, 'deal'));
  if (ticket === null) {
    warnings.push(`Row ${line}: a deal without a deal number was skipped.`);
    return null;
  }
  const typeText = cellText(cellAt(row, columns, 'type'));
  const type = dealTypeOf(typeText);
  if (type === null) {
    warnings.push(`Row ${line}: deal ${ticket} of unknown type "${typeText}" was skipped.`);
    return null;
  }
  const directionText = cellText(cellAt(row, columns, 'direction'));
  const entry = directionText === '' ? 'in' : entryOf(directionText);
  if (entry === null) {
    warnings.push(`Row ${line}: deal ${ticket} of unknown direction "${directionText}" was skipped.`);
    return null;
  }
  const comment = cellText(cellAt(row, columns, 'comment'));
  return {
    row: line,
    ticket,
    order: parseTicket(cellAt(row, columns, 'order')),
    time,
    type,
    entry,
    symbol: cellText(cellAt(row, columns, 'symbol')),
    volume: parseNumber(cellAt(row, columns, 'volume')) ?? 0,
    price: parseNumber(cellAt(row, columns, 'price')) ?? 0,
    commission: parseNumber(cellAt(row, columns, 'commission')) ?? 0,
    // Builds before the Fee column have no fee to report.
    fee: parseNumber(cellAt(row, columns, 'fee')) ?? 0,
    swap: parseNumber(cellAt(row, columns, 'swap')) ?? 0,
    profit: parseNumber(cellAt(row, columns, 'profit')) ?? 0,
    comment: comment === '' ? undefined : comment.slice(0, 64),
  };
}

/** MT5 ENUM_DEAL_TYPE from the report's wording ("buy", "balance", "daily agent commission", …). */
export function dealTypeOf(text: string): number | null {
  const words = text.toLowerCase().replace(/[^a-z]+/g, ' ').trim();
  if (words === 'buy') return 0;
  if (words === 'sell') return 1;
  if (words.includes('cancel')) return words.includes('buy') ? 13 : words.includes('sell') ? 14 : null;
  if (words.includes('agent')) return words.includes('month') ? 11 : 10;
  if (words.includes('commission')) return words.includes('month') ? 9 : words.includes('daily') ? 8 : 7;
  if (words.startsWith('balance') || words === 'deposit' || words === 'withdrawal') return 2;
  if (words.startsWith('credit')) return 3;
  if (words.startsWith('charge')) return 4;
  if (words.startsWith('correction')) return 5;
  if (words.startsWith('bonus')) return 6;
  if (words.startsWith('interest')) return 12;
  if (words.includes('dividend')) return words.includes('frank') ? 16 : 15;
  if (words === 'tax') return 17;
  return null;
}

function entryOf(text: string): DealEntry | null {
  switch (headerKey(text)) {
    case 'in':
      return 'in';
    case 'out':
      return 'out';
    case 'in/out':
    case 'inout':
      return 'inout';
    case 'outby':
      return 'out_by';
    default:
      return null;
  }
}

function sideOf(text: string): Side | null {
  const word = cellText(text).toLowerCase();
  return word === 'buy' ? 'buy' : word === 'sell' ? 'sell' : null;
}

/**
 * A Positions row has a filler cell after Type that its header has not: MT5 marks it hidden (and the HTML
 * reader drops it), but a copy saved by another program may keep it as empty cells. Drop those.
 */
function withoutFiller(row: GridRow, columns: Columns, width: number): GridRow {
  const extra = row.cells.length - width;
  const after = (columns.get('type')?.[0] ?? -2) + 1;
  if (extra <= 0 || after < 1) return row;
  const filler = row.cells.slice(after, after + extra);
  if (filler.length < extra || filler.some((cell) => cellText(cell) !== '')) return row;
  return { cells: [...row.cells.slice(0, after), ...row.cells.slice(after + extra)] };
}

function positionRecord(row: GridRow, columns: Columns): PositionRecord | null {
  const openTime = parseTime(cellAt(row, columns, 'time', 0));
  const id = parseTicket(cellAt(row, columns, 'position'));
  const side = sideOf(cellText(cellAt(row, columns, 'type')));
  if (openTime === null || id === null || side === null) return null;
  return { id, symbol: cellText(cellAt(row, columns, 'symbol')), side, openTime, closeTime: parseTime(cellAt(row, columns, 'time', 1)) };
}

function openPosition(row: GridRow, columns: Columns, line: number, warnings: string[]): IngestPosition | null {
  const time = parseTime(cellAt(row, columns, 'time'));
  const identifier = parseTicket(cellAt(row, columns, 'position'));
  const type = sideOf(cellText(cellAt(row, columns, 'type')));
  if (time === null || identifier === null || type === null) return null;
  const priceOpen = parseNumber(cellAt(row, columns, 'price'));
  const commission = parseNumber(cellAt(row, columns, 'commission'));
  const comment = cellText(cellAt(row, columns, 'comment'));
  const parsed = IngestPosition.safeParse({
    identifier,
    ticket: identifier,
    symbol: cellText(cellAt(row, columns, 'symbol')),
    type,
    volume: parseNumber(cellAt(row, columns, 'volume')),
    price_open: priceOpen,
    price_current: parseNumber(cellAt(row, columns, 'marketprice')) ?? priceOpen,
    sl: parseNumber(cellAt(row, columns, 's/l')) ?? 0,
    tp: parseNumber(cellAt(row, columns, 't/p')) ?? 0,
    profit: parseNumber(cellAt(row, columns, 'profit')) ?? 0,
    swap: parseNumber(cellAt(row, columns, 'swap')) ?? 0,
    ...(commission === null ? {} : { commission }),
    time,
    ...(comment === '' ? {} : { comment: comment.slice(0, 64) }),
  });
  if (parsed.success) return parsed.data;
  warnings.push(`Row ${line}: open position ${identifier} skipped (${parsed.error.issues[0]?.message ?? 'invalid'}).`);
  return null;
}

/** A position as the deals leave it while they are replayed. */
interface Live {
  id: number;
  symbol: string;
  side: Side;
  volume: number;
}

/** Volumes are decimals (0.1 + 0.2): compare them with a tolerance. */
const LOT_EPSILON = 1e-6;

/**
 * Which position each deal belongs to. The Deals table names each deal's order, not its position: an MT5
 * position's identifier is the ticket of the order that opened it, so an opening deal belongs to its own
 * order. A closing deal is matched by replaying the deals: on a netting account the one position of its
 * symbol (a reversal keeps the position's identifier); on a hedging account the open position of its
 * symbol on the other side, told apart where several are open by volume and by the close time the
 * Positions section gives. A deal whose position cannot be told keeps its order (0 without one).
 */
function link(deals: RawDeal[], history: PositionRecord[], netting: boolean, warnings: string[]): number[] {
  const byId = new Map(history.map((record) => [record.id, record]));
  const book = new Map<string, Live[]>();
  const ids = new Array<number>(deals.length).fill(0);

  const livesOf = (symbol: string) => {
    let lives = book.get(symbol);
    if (!lives) book.set(symbol, (lives = []));
    return lives;
  };
  const reduce = (live: Live, volume: number) => {
    live.volume -= volume;
    if (live.volume <= LOT_EPSILON) {
      const lives = livesOf(live.symbol);
      lives.splice(lives.indexOf(live), 1);
    }
  };
  /** The Positions section's record of a position this deal opens (its order), or one opened at its time. */
  const openingId = (deal: RawDeal, side: Side): number => {
    if (deal.order !== null && (byId.size === 0 || byId.has(deal.order))) return deal.order;
    const opened = history.filter((r) => r.symbol === deal.symbol && r.side === side && r.openTime === deal.time);
    return opened.length === 1 ? opened[0]!.id : (deal.order ?? 0);
  };
  /** A position opened before the report's period: only the Positions section knows it. */
  const fromHistory = (deal: RawDeal, closes: Side): number | null => {
    const spans = history.filter(
      (r) => r.symbol === deal.symbol && r.side === closes && r.openTime <= deal.time && (r.closeTime ?? Infinity) >= deal.time,
    );
    const exact = spans.filter((r) => r.closeTime === deal.time);
    if (exact.length === 1) return exact[0]!.id;
    return spans.length === 1 ? spans[0]!.id : null;
  };
  const pick = (deal: RawDeal, candidates: Live[]): Live | null => {
    if (candidates.length <= 1) return candidates[0] ?? null;
    const fitting = candidates.filter((live) => live.volume + LOT_EPSILON >= deal.volume);
    const pool = fitting.length > 0 ? fitting : candidates;
    if (pool.length === 1) return pool[0]!;
    const closingNow = pool.filter((live) => byId.get(live.id)?.closeTime === deal.time);
    if (closingNow.length === 1) return closingNow[0]!;
    const stillOpen = pool.filter((live) => (byId.get(live.id)?.closeTime ?? -1) >= deal.time);
    return stillOpen.length === 1 ? stillOpen[0]! : null;
  };

  const order = deals.map((_, i) => i).sort((a, b) => deals[a]!.time - deals[b]!.time || deals[a]!.ticket - deals[b]!.ticket);
  for (const i of order) {
    const deal = deals[i]!;
    if (deal.type !== 0 && deal.type !== 1) continue; // balance operations belong to no position
    const side: Side = deal.type === 0 ? 'buy' : 'sell';
    const closes: Side = side === 'buy' ? 'sell' : 'buy';
    const lives = livesOf(deal.symbol);
    let id: number | null;

    if (netting) {
      const live = lives[0];
      if (live) {
        id = live.id;
        if (deal.entry === 'in' && live.side === side) live.volume += deal.volume;
        else if (deal.entry === 'inout') {
          // A reversal closes the position and opens the rest the other way, under the same identifier.
          const rest = deal.volume - live.volume;
          if (rest > LOT_EPSILON) Object.assign(live, { side, volume: rest });
          else reduce(live, deal.volume);
        } else reduce(live, deal.volume);
      } else if (deal.entry === 'in') {
        id = openingId(deal, side);
        lives.push({ id, symbol: deal.symbol, side, volume: deal.volume });
      } else {
        id = fromHistory(deal, closes);
      }
    } else if (deal.entry === 'in') {
      id = openingId(deal, side);
      // Several fills of one order open one position.
      const filled = lives.find((live) => live.id === id && live.side === side);
      if (filled) filled.volume += deal.volume;
      else lives.push({ id, symbol: deal.symbol, side, volume: deal.volume });
    } else {
      const live = pick(deal, lives.filter((candidate) => candidate.side === closes));
      if (live) {
        id = live.id;
        if (deal.entry === 'inout') {
          const rest = deal.volume - live.volume;
          if (rest > LOT_EPSILON) Object.assign(live, { side, volume: rest });
          else reduce(live, deal.volume);
        } else reduce(live, deal.volume);
      } else {
        id = fromHistory(deal, closes);
      }
    }

    if (id === null) {
      id = deal.order ?? 0;
      warnings.push(
        `Row ${deal.row}: the position of deal ${deal.ticket} cannot be told from the report; it is recorded under its order (${id}).`,
      );
    }
    ids[i] = id;
  }
  return ids;
}
