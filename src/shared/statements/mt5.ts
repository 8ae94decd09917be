import { cents } from '#shared/domain/money.ts';
import { IngestDeal, IngestPosition, type DealEntryType } from '#shared/contract/ingest.ts';
import { balanceEffect } from '#shared/domain/deal-types.ts';
import { mt5Header, type Accounting } from './account.ts';
import { cellText, headerKey, parseNumber, parseTicket, parseTime, type CellValue, type Grid, type GridRow } from './cells.ts';
import type { ReportContent } from './content.ts';
import { dedupe, type Keyed } from './dedupe.ts';
import { NotAStatementError } from './errors.ts';
import { NO_FIGURES, disagreement, mt5Figures } from './stated.ts';
import { isHeaderRow, namedColumns, startsMt5 } from './structure.ts';

/**
 * MetaTrader 5's Trade History Report (HTML or its Excel export), read by its structure, so in any of
 * the terminal's languages: a header block whose account line is "login (currency, server, type, mode)",
 * then the sections Positions (closed positions), Orders, Deals and, when there are some, Open Positions
 * and Working Orders, each a title row, a header row and its rows; then the account summary (Balance …
 * Equity) and Results. A section is told by what its rows hold (MetaTrader's data words — buy, sell, in,
 * out, balance — are never translated), and its columns by their place in MetaTrader's fixed order,
 * which the header's English words confirm where the report is in English.
 */

/** A position's direction as the terminals report it (the ingest contract's lower-case spelling). */
type TerminalSide = IngestPosition['type'];
type Kind = 'positions' | 'orders' | 'deals' | 'open' | 'working';

/** Where each field of a section is, by cell index. */
type Columns = Map<string, number>;

export interface Mt5Statement extends ReportContent {
  accounting: Accounting;
  /** The balance just before the first deal, read off the Deals table's running balance. */
  opening: { ticket: number; balance: number } | null;
  /** Whether the report reaches its end (its account summary, and the file's own end). */
  complete: boolean;
}

/** A Strategy Tester report has a Deals table too, but it is a backtest, not an account's history. */
export function isTesterReport(grid: Grid): boolean {
  if (/strategy tester/i.test(grid.title)) return true;
  return grid.rows.slice(0, 10).some((row) => row.cells.some((cell) => /^strategy tester report$/i.test(cellText(cell))));
}

// ------------------------------------------------------------------------------------------------
// Columns: MetaTrader's order, fixed at both ends of each table, with the money columns between
// ------------------------------------------------------------------------------------------------

interface Layout {
  left: readonly string[];
  right: readonly string[];
  /** The columns between, by their number (builds add Fee, and Cost where it is not hidden). */
  middle: readonly (readonly string[])[];
  /** English header words → field, in order of appearance (a word listed twice is its 1st and 2nd column). */
  english: readonly (readonly [string, string])[];
}

const LAYOUTS: Record<'positions' | 'deals' | 'open', Layout> = {
  positions: {
    left: ['time', 'position', 'symbol', 'type', 'volume', 'price', 'sl', 'tp', 'closetime', 'closeprice'],
    right: ['swap', 'profit'],
    middle: [[], ['commission'], ['commission', 'fee']],
    english: [
      ['time', 'time'], ['position', 'position'], ['symbol', 'symbol'], ['type', 'type'], ['volume', 'volume'], ['price', 'price'],
      ['s/l', 'sl'], ['t/p', 'tp'], ['time', 'closetime'], ['price', 'closeprice'], ['commission', 'commission'], ['fee', 'fee'],
      ['swap', 'swap'], ['profit', 'profit'],
    ],
  },
  deals: {
    left: ['time', 'deal', 'symbol', 'type', 'direction', 'volume', 'price', 'order'],
    right: ['swap', 'profit', 'balance', 'comment'],
    middle: [['commission'], ['commission', 'fee'], ['cost', 'commission', 'fee']],
    english: [
      ['time', 'time'], ['deal', 'deal'], ['symbol', 'symbol'], ['type', 'type'], ['direction', 'direction'], ['volume', 'volume'],
      ['price', 'price'], ['order', 'order'], ['cost', 'cost'], ['commission', 'commission'], ['fee', 'fee'], ['swap', 'swap'],
      ['profit', 'profit'], ['balance', 'balance'], ['comment', 'comment'],
    ],
  },
  open: {
    left: ['time', 'position', 'symbol', 'type', 'volume', 'price', 'sl', 'tp', 'marketprice'],
    right: ['swap', 'profit', 'comment'],
    middle: [[], ['commission']],
    english: [
      ['time', 'time'], ['position', 'position'], ['symbol', 'symbol'], ['type', 'type'], ['volume', 'volume'], ['price', 'price'],
      ['s/l', 'sl'], ['t/p', 'tp'], ['marketprice', 'marketprice'], ['commission', 'commission'], ['swap', 'swap'],
      ['profit', 'profit'], ['comment', 'comment'],
    ],
  },
};

/** The fields by their place among the header's named cells; null for a layout MetaTrader does not write. */
function positional(layout: Layout, named: readonly number[]): Columns | null {
  const middle = layout.middle.find((m) => layout.left.length + m.length + layout.right.length === named.length);
  if (!middle) return null;
  const columns: Columns = new Map();
  [...layout.left, ...middle, ...layout.right].forEach((field, i) => columns.set(field, named[i]!));
  return columns;
}

/** The fields by the header's English words, when it has every one the layout's ends need. */
function byEnglish(layout: Layout, header: GridRow): Columns | null {
  const seen = new Map<string, number[]>();
  header.cells.forEach((cell, index) => {
    const key = headerKey(cell);
    if (key !== '') seen.set(key, [...(seen.get(key) ?? []), index]);
  });
  const columns: Columns = new Map();
  const used = new Map<string, number>();
  for (const [word, field] of layout.english) {
    const nth = used.get(word) ?? 0;
    const index = seen.get(word)?.[nth];
    if (index === undefined) continue;
    used.set(word, nth + 1);
    columns.set(field, index);
  }
  return [...layout.left, ...layout.right].every((field) => columns.has(field)) ? columns : null;
}

// ------------------------------------------------------------------------------------------------
// Sections
// ------------------------------------------------------------------------------------------------

interface Section {
  kind: Kind;
  header: GridRow;
  named: number[];
  /** Indexes of the section's data rows in the grid. */
  rows: number[];
}

/**
 * A Positions or Open Positions row may carry a filler cell after Type that its header has not: MT5 marks
 * it hidden (the HTML reader drops it), but a copy saved by another program may keep it as empty cells.
 */
function withoutFiller(row: GridRow, width: number, typeIndex: number): GridRow {
  const extra = row.cells.length - width;
  const after = typeIndex + 1;
  if (extra <= 0 || after < 1) return row;
  const filler = row.cells.slice(after, after + extra);
  if (filler.length < extra || filler.some((cell) => cellText(cell) !== '')) return row;
  return { ...row, cells: [...row.cells.slice(0, after), ...row.cells.slice(after + extra)] };
}

const VOLUME_PAIR = /\d\s*\/\s*\d/;

/** What a data row is, by what it holds (its cells taken at the header's named positions). */
function rowKind(row: GridRow, named: readonly number[]): Kind | null {
  const at = (i: number) => row.cells[named[i] ?? -1];
  const type = cellText(at(3)).toLowerCase();
  const fourth = cellText(at(4));
  if (dealTypeOf(type) !== null && (fourth === '' || entryOf(fourth) !== null)) return 'deals';
  if (VOLUME_PAIR.test(fourth)) return parseTime(at(8)) !== null ? 'orders' : 'working';
  if ((type === 'buy' || type === 'sell') && parseNumber(at(4)) !== null) return parseTime(at(8)) !== null ? 'positions' : 'open';
  return null;
}

/** The tables after the header block: every header row with the data rows under it, each told by its rows. */
function sectionsOf(grid: Grid, from: number): { sections: Section[]; end: number } {
  const sections: Section[] = [];
  let end = from;
  for (let i = from; i < grid.rows.length; i++) {
    const header = grid.rows[i]!;
    if (!isHeaderRow(header)) continue;
    const named = namedColumns(header);
    const rows: number[] = [];
    const kinds = new Map<Kind, number>();
    let j = i + 1;
    for (; j < grid.rows.length; j++) {
      const row = withoutFiller(grid.rows[j]!, header.cells.length, named[3] ?? -2);
      if (!startsMt5(row, named)) break;
      rows.push(j);
      if (rows.length <= 20) {
        const kind = rowKind(row, named);
        if (kind) kinds.set(kind, (kinds.get(kind) ?? 0) + 1);
      }
    }
    const kind = [...kinds].sort((a, b) => b[1] - a[1])[0]?.[0];
    if (kind) sections.push({ kind, header, named, rows });
    end = j;
    i = j - 1;
  }
  return { sections, end };
}

// ------------------------------------------------------------------------------------------------
// Rows
// ------------------------------------------------------------------------------------------------

interface RawDeal extends Keyed {
  order: number | null;
  time: number;
  type: number;
  entry: DealEntryType;
  symbol: string;
  volume: number;
  price: number;
  commission: number;
  fee: number;
  swap: number;
  profit: number;
  /** The running balance after the deal, as the report prints it. */
  balance: number | null;
  comment: string | undefined;
}

/** A closed position as the Positions section lists it. */
interface PositionRecord {
  id: number;
  symbol: string;
  side: TerminalSide;
  openTime: number;
  openPrice: number | null;
  volume: number | null;
  closeTime: number | null;
  closePrice: number | null;
  profit: number | null;
}

const at = (row: GridRow, columns: Columns, field: string): CellValue | undefined => {
  const index = columns.get(field);
  return index === undefined ? undefined : row.cells[index];
};

export function parseMt5(grid: Grid, fileName?: string): Mt5Statement {
  const header = mt5Header(grid);
  if (!header) throw new Error('parseMt5 needs a report with an MT5 account line');
  const warnings: string[] = [];
  const { sections, end } = sectionsOf(grid, header.row + 1);
  const raw: RawDeal[] = [];
  const history: PositionRecord[] = [];
  const open: (Keyed & { position: IngestPosition })[] = [];
  const lineOf = (index: number) => grid.rows[index]!.line ?? index + 1;

  for (const section of sections) {
    if (section.kind !== 'deals' && section.kind !== 'positions' && section.kind !== 'open') continue;
    const layout = LAYOUTS[section.kind];
    const columns = byEnglish(layout, section.header) ?? positional(layout, section.named);
    if (!columns) {
      const table = section.kind === 'open' ? 'Open Positions' : section.kind === 'deals' ? 'Deals' : 'Positions';
      throw new NotAStatementError(
        `This report's ${table} table has ${section.named.length} columns, a layout of MetaTrader 5 this importer does not know.`,
        fileName,
      );
    }
    const typeIndex = columns.get('type') ?? -2;
    for (const index of section.rows) {
      const line = lineOf(index);
      const row = withoutFiller(grid.rows[index]!, section.header.cells.length, typeIndex);
      if (section.kind === 'deals') {
        const deal = dealRow(row, columns, line, warnings);
        if (deal) raw.push(deal);
      } else if (section.kind === 'positions') {
        const record = positionRecord(row, columns);
        if (record) history.push(record);
      } else {
        const position = openPosition(row, columns, line, warnings);
        if (position) open.push({ key: position.identifier, line, position });
      }
    }
  }

  const deals = dedupe(raw, 'deal', warnings, fileName);
  const positions = dedupe(open, 'open position', warnings, fileName).map((p) => p.position);
  const accounting = header.accounting ?? (deals.some((deal) => deal.entry === 'inout') ? 'netting' : 'hedge');
  const positionIds = link(deals, history, positions, accounting === 'netting', warnings);

  const valid: IngestDeal[] = [];
  let opening: Mt5Statement['opening'] = null;
  let rowsBalance = 0;
  deals.forEach((deal, i) => {
    const parsed = IngestDeal.safeParse({
      ticket: deal.key,
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
    if (!parsed.success) {
      warnings.push(`Row ${deal.line}: deal ${deal.key} skipped (${parsed.error.issues[0]?.message ?? 'invalid'}).`);
      return;
    }
    valid.push(parsed.data);
    // Only what is imported counts: a skipped row's money never reaches the books.
    const money = balanceEffect(parsed.data);
    rowsBalance += money;
    // The running balance printed beside the first deal, less that deal's money: the balance before the report's period.
    if (valid.length === 1 && deal.balance !== null) opening = { ticket: deal.key, balance: cents(deal.balance - money) };
  });
  const before = (opening as Mt5Statement['opening'])?.balance ?? 0;
  rowsBalance = cents(before + rowsBalance);

  const { figures, complete } = mt5Figures(grid, end);
  const warning = disagreement(figures.balance, rowsBalance, header.account.currency);
  if (warning) warnings.push(warning);
  return {
    account: header.account,
    accounting,
    deals: valid,
    positions,
    warnings,
    stated: complete ? figures : NO_FIGURES,
    opening,
    rowsBalance,
    complete: complete && grid.whole,
  };
}

function dealRow(row: GridRow, columns: Columns, line: number, warnings: string[]): RawDeal | null {
  const time = parseTime(at(row, columns, 'time'));
  if (time === null) return null;
  const ticket = parseTicket(at(row, columns, 'deal'));
  if (ticket === null) {
    warnings.push(`Row ${line}: a deal without a deal number was skipped.`);
    return null;
  }
  const typeText = cellText(at(row, columns, 'type'));
  const type = dealTypeOf(typeText);
  if (type === null) {
    warnings.push(`Row ${line}: deal ${ticket} of unknown type "${typeText}" was skipped.`);
    return null;
  }
  const directionText = cellText(at(row, columns, 'direction'));
  const entry = directionText === '' ? 'in' : entryOf(directionText);
  if (entry === null) {
    warnings.push(`Row ${line}: deal ${ticket} of unknown direction "${directionText}" was skipped.`);
    return null;
  }
  const comment = cellText(at(row, columns, 'comment'));
  return {
    key: ticket,
    line,
    order: parseTicket(at(row, columns, 'order')),
    time,
    type,
    entry,
    symbol: cellText(at(row, columns, 'symbol')),
    volume: parseNumber(at(row, columns, 'volume')) ?? 0,
    price: parseNumber(at(row, columns, 'price')) ?? 0,
    commission: parseNumber(at(row, columns, 'commission')) ?? 0,
    // Builds before the Fee column have no fee to report.
    fee: parseNumber(at(row, columns, 'fee')) ?? 0,
    swap: parseNumber(at(row, columns, 'swap')) ?? 0,
    profit: parseNumber(at(row, columns, 'profit')) ?? 0,
    balance: parseNumber(at(row, columns, 'balance')),
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

function entryOf(text: string): DealEntryType | null {
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

function sideOf(text: string): TerminalSide | null {
  const word = cellText(text).toLowerCase();
  return word === 'buy' ? 'buy' : word === 'sell' ? 'sell' : null;
}

function positionRecord(row: GridRow, columns: Columns): PositionRecord | null {
  const openTime = parseTime(at(row, columns, 'time'));
  const id = parseTicket(at(row, columns, 'position'));
  const side = sideOf(cellText(at(row, columns, 'type')));
  if (openTime === null || id === null || side === null) return null;
  return {
    id,
    symbol: cellText(at(row, columns, 'symbol')),
    side,
    openTime,
    openPrice: parseNumber(at(row, columns, 'price')),
    volume: parseNumber(at(row, columns, 'volume')),
    closeTime: parseTime(at(row, columns, 'closetime')),
    closePrice: parseNumber(at(row, columns, 'closeprice')),
    profit: parseNumber(at(row, columns, 'profit')),
  };
}

function openPosition(row: GridRow, columns: Columns, line: number, warnings: string[]): IngestPosition | null {
  const time = parseTime(at(row, columns, 'time'));
  const identifier = parseTicket(at(row, columns, 'position'));
  const type = sideOf(cellText(at(row, columns, 'type')));
  if (time === null || identifier === null || type === null) return null;
  const priceOpen = parseNumber(at(row, columns, 'price'));
  const commission = parseNumber(at(row, columns, 'commission'));
  const comment = cellText(at(row, columns, 'comment'));
  const parsed = IngestPosition.safeParse({
    identifier,
    ticket: identifier,
    symbol: cellText(at(row, columns, 'symbol')),
    type,
    volume: parseNumber(at(row, columns, 'volume')),
    price_open: priceOpen,
    price_current: parseNumber(at(row, columns, 'marketprice')) ?? priceOpen,
    sl: parseNumber(at(row, columns, 'sl')) ?? 0,
    tp: parseNumber(at(row, columns, 'tp')) ?? 0,
    profit: parseNumber(at(row, columns, 'profit')) ?? 0,
    swap: parseNumber(at(row, columns, 'swap')) ?? 0,
    ...(commission === null ? {} : { commission }),
    time,
    ...(comment === '' ? {} : { comment: comment.slice(0, 64) }),
  });
  if (parsed.success) return parsed.data;
  warnings.push(`Row ${line}: open position ${identifier} skipped (${parsed.error.issues[0]?.message ?? 'invalid'}).`);
  return null;
}

// ------------------------------------------------------------------------------------------------
// Which position each deal belongs to
// ------------------------------------------------------------------------------------------------

/** A position as the deals leave it while they are replayed. */
interface Live {
  id: number;
  symbol: string;
  side: TerminalSide;
  volume: number;
  /** Its record in the Positions section, when it is closed by the report's end. */
  record: PositionRecord | undefined;
}

/** Volumes are decimals (0.1 + 0.2): compare them with a tolerance. */
const LOT_EPSILON = 1e-6;
const samePrice = (a: number | null | undefined, b: number) => a !== null && a !== undefined && Math.abs(a - b) <= Math.abs(b) * 1e-9 + 1e-9;
const sameMoney = (a: number | null | undefined, b: number) => a !== null && a !== undefined && Math.abs(a - b) < 0.005;

/**
 * Which position each deal belongs to. The Deals table names each deal's order, not its position: an MT5
 * position's identifier is the ticket of the order that opened it, so an opening deal belongs to its own
 * order. A closing deal is matched by replaying the deals: on a netting account the one position of its
 * symbol (a reversal keeps the position's identifier); on a hedging account an open position of its
 * symbol on the other side — where several are open, the one the Positions section closes at the deal's
 * own time, price and profit (a deal that closes all of it). Positions opened before the report's period
 * (in the Positions section, their opening deals not in the report) are open from the start. Where the
 * candidates left are ones the report itself cannot tell apart (the same volume, open time and price, the
 * same close and profit), the one opened first is taken: every figure comes out the same. A deal whose
 * position cannot be told keeps its order (0 without one), with a warning.
 */
function link(deals: RawDeal[], history: PositionRecord[], open: IngestPosition[], netting: boolean, warnings: string[]): number[] {
  const byId = new Map(history.map((record) => [record.id, record]));
  for (const p of open) {
    if (!byId.has(p.identifier)) {
      byId.set(p.identifier, {
        id: p.identifier,
        symbol: p.symbol,
        side: p.type,
        openTime: p.time,
        openPrice: p.price_open,
        volume: p.volume,
        closeTime: null,
        closePrice: null,
        profit: null,
      });
    }
  }
  const book = new Map<string, Live[]>();
  const ids = new Array<number>(deals.length).fill(0);
  const livesOf = (symbol: string) => {
    let lives = book.get(symbol);
    if (!lives) book.set(symbol, (lives = []));
    return lives;
  };
  const openingOrders = new Set(deals.filter((d) => d.entry === 'in' && (d.type === 0 || d.type === 1) && d.order !== null).map((d) => d.order!));
  const openedAt = new Map<string, PositionRecord[]>();
  for (const record of history) {
    const key = `${record.symbol}|${record.side}|${record.openTime}`;
    openedAt.set(key, [...(openedAt.get(key) ?? []), record]);
    // Opened before the period: open from the report's start.
    if (!openingOrders.has(record.id) && record.volume !== null) {
      livesOf(record.symbol).push({ id: record.id, symbol: record.symbol, side: record.side, volume: record.volume, record });
    }
  }

  const reduce = (live: Live, volume: number) => {
    live.volume -= volume;
    if (live.volume <= LOT_EPSILON) {
      const lives = livesOf(live.symbol);
      lives.splice(lives.indexOf(live), 1);
    }
  };
  /** The position a deal opens: its own order, or the one position the Positions section opened at its time. */
  const openingId = (deal: RawDeal, side: TerminalSide): number => {
    if (deal.order !== null && (byId.size === 0 || byId.has(deal.order))) return deal.order;
    const opened = openedAt.get(`${deal.symbol}|${side}|${deal.time}`) ?? [];
    return opened.length === 1 ? opened[0]!.id : (deal.order ?? 0);
  };
  /** How well a candidate's record fits a closing deal: its close time, price and (closing it all) profit. */
  const fit = (deal: RawDeal, live: Live): number => {
    const record = live.record;
    if (!record) return 0;
    let score = 0;
    const whole = Math.abs(live.volume - deal.volume) <= LOT_EPSILON;
    if (record.closeTime === deal.time) score += 4;
    if (whole && samePrice(record.closePrice, deal.price)) score += 2;
    if (whole && sameMoney(record.profit, deal.profit)) score += 2;
    return score;
  };
  /** Two candidates nothing in the report tells apart: either choice books the same figures. */
  const alike = (a: Live, b: Live) =>
    a.volume === b.volume &&
    a.record !== undefined &&
    b.record !== undefined &&
    a.record.openTime === b.record.openTime &&
    a.record.openPrice === b.record.openPrice &&
    a.record.closeTime === b.record.closeTime &&
    a.record.closePrice === b.record.closePrice &&
    a.record.profit === b.record.profit;
  const pick = (deal: RawDeal, candidates: Live[]): Live | null => {
    // A position the Positions section closed before this deal is not the one it closes.
    const open = candidates.filter((live) => (live.record?.closeTime ?? Infinity) >= deal.time);
    if (open.length <= 1) return open[0] ?? null;
    const fitting = open.filter((live) => live.volume + LOT_EPSILON >= deal.volume);
    const pool = (fitting.length > 0 ? fitting : open).map((live) => ({ live, score: fit(deal, live) }));
    const best = Math.max(...pool.map((c) => c.score));
    const top = pool.filter((c) => c.score === best).map((c) => c.live);
    if (top.length === 1 || top.every((live) => alike(live, top[0]!))) return top[0]!;
    return null;
  };

  const order = deals.map((_, i) => i).sort((a, b) => deals[a]!.time - deals[b]!.time || deals[a]!.key - deals[b]!.key);
  for (const i of order) {
    const deal = deals[i]!;
    if (deal.type !== 0 && deal.type !== 1) continue; // balance operations belong to no position
    const side: TerminalSide = deal.type === 0 ? 'buy' : 'sell';
    const closes: TerminalSide = side === 'buy' ? 'sell' : 'buy';
    const lives = livesOf(deal.symbol);
    let id: number | null = null;

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
        lives.push({ id, symbol: deal.symbol, side, volume: deal.volume, record: byId.get(id) });
      }
    } else if (deal.entry === 'in') {
      id = openingId(deal, side);
      // Several fills of one order open one position.
      const filled = lives.find((live) => live.id === id && live.side === side);
      if (filled) filled.volume += deal.volume;
      else lives.push({ id, symbol: deal.symbol, side, volume: deal.volume, record: byId.get(id) });
    } else {
      const live = pick(deal, lives.filter((candidate) => candidate.side === closes));
      if (live) {
        id = live.id;
        if (deal.entry === 'inout') {
          const rest = deal.volume - live.volume;
          if (rest > LOT_EPSILON) Object.assign(live, { side, volume: rest });
          else reduce(live, deal.volume);
        } else reduce(live, deal.volume);
      }
    }

    if (id === null) {
      id = deal.order ?? 0;
      warnings.push(
        `Row ${deal.line}: the position of deal ${deal.key} cannot be told from the report; it is recorded under its order (${id}).`,
      );
    }
    ids[i] = id;
  }
  return ids;
}
