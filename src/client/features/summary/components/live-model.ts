/*
 * What the live positions list is made of, without drawing it: a position's identity, its excursions
 * in pips, the CSV columns, the total floating P/L, the grouping by master trade and the order.
 */
import type { Position } from '#shared/contract/positions.ts';
import { DEFAULT_CURRENCY } from '#shared/format/money.ts';
import { MISSING_VALUE, numberFormat, toFiniteNumber } from '#shared/format/numbers.ts';
import { pipSize } from '#shared/domain/instruments.ts';
import { csvDateTime, csvNumber, type CsvColumn } from '#client/export/csv-table.ts';
import { newestFirst } from '#client/ui/newest-first.ts';
import type { Side } from '#shared/domain/side.ts';

export const NO_LIVE_POSITIONS = 'No live positions to display.';
/** Why a statement's row has no Edit or Close (the server refuses its orders with 409). */
export const STATEMENT_ONLY = "Known from the broker's statements: no order can be placed here.";

/** Identity of a position (docs/product.md#fields): account name, symbol and type. */
export const positionKey = (p: Pick<Position, 'account_name' | 'u_symbol' | 'type'>): string =>
  `${p.account_name}|${p.u_symbol}|${p.type}`;

function formatPips(value: number | null | undefined): string {
  const n = toFiniteNumber(value);
  if (n === null) return MISSING_VALUE;
  return `${numberFormat('fr-FR', { minimumFractionDigits: 1, maximumFractionDigits: 1 }).format(n)} pips`;
}

/**
 * A median excursion as a trader reads it: pips for forex; for a share, where a pip means nothing,
 * the price distance it stands for (the feed counts its pips as the classifier's pip size: a cent for a
 * share, docs/instruments.md).
 */
export function formatExcursion(value: number | null | undefined, p: Pick<Position, 'category' | 'u_symbol'>): string {
  if (p.category === 'Forex') return formatPips(value);
  const n = excursionValue(value, p);
  if (n === null) return MISSING_VALUE;
  return numberFormat('fr-FR', { minimumFractionDigits: 2, maximumFractionDigits: 2 }).format(n);
}

/** The figure formatExcursion shows, unrounded: pips for forex, the price distance for a share; null when missing. */
function excursionValue(value: number | null | undefined, p: Pick<Position, 'category' | 'u_symbol'>): number | null {
  const n = toFiniteNumber(value);
  if (n === null || p.category === 'Forex') return n;
  // Back from pips to the price distance they were counted from, without the product's last-digit noise.
  return Number((n * pipSize(p.u_symbol)).toPrecision(15));
}

/**
 * The desktop table's columns for a CSV file (Action aside): Ins/Dir as instrument, direction and
 * the account under them, P/L as the amount, its currency, and the EP and BE it shows.
 */
export const LIVE_POSITION_CSV_COLUMNS: readonly CsvColumn<Position>[] = [
  { title: 'Date', value: (p) => csvDateTime(p.time) },
  { title: 'Ins', value: (p) => p.u_symbol },
  { title: 'Dir', value: (p) => p.type },
  { title: 'Account', value: (p) => p.account_name },
  { title: 'Q', value: (p) => csvNumber(p.quantity) },
  { title: 'P/L', value: (p) => csvNumber(p.profit) },
  { title: 'Currency', value: (p) => p.currency },
  { title: 'EP', value: (p) => csvNumber(p.price_open) },
  { title: 'BE', value: (p) => csvNumber(p.breakeven) },
  { title: 'SL', value: (p) => csvNumber(p.sl) },
  { title: 'TP', value: (p) => csvNumber(p.tp) },
  { title: 'Median MAE', value: (p) => excursionValue(p.medianMae, p) },
  { title: 'Median MFE', value: (p) => excursionValue(p.medianMfe, p) },
];

export interface LivePositionsProps {
  /** null until the feed's first message: skeleton rows show meanwhile. */
  positions: readonly Position[] | null;
  canWrite: boolean;
  /** Table on large screens, cards on phones. */
  wide: boolean;
  onEdit?: (position: Position) => void;
  onClose?: (position: Position) => void;
  /** Accessible name of the table or list. */
  label: string;
  /** Height of the table's scrolling body; rows are virtualised inside it when there are many. */
  maxHeight?: string;
  /** The feed's failure (docs/product.md#errors) while it is down: a banner above the last rows, with a Retry. */
  feedError?: string | null;
  /**
   * Copies grouped under their master trade (its instrument and direction), each group with its
   * count and total P/L, a tap folding it (issue 40, 'a trader's list').
   */
  grouped?: boolean;
}

/** The portfolio's currency: rows' `profit_currency` figures are in it, so rows of any account add up. */
export const PORTFOLIO_CURRENCY = DEFAULT_CURRENCY;

/** The list's floating P/L in the portfolio's currency: the sum of its rows' `profit_currency`. */
export function floatingTotal(rows: readonly Position[]): number {
  let total = 0;
  for (const p of rows) total += p.profit_currency;
  return total;
}

/** A master trade (an instrument and a direction) with the copies of it the list holds. */
export interface TradeGroup {
  key: string;
  symbol: string;
  type: Side;
  /** The masters' rows first, then the copies, each newest first. */
  rows: Position[];
  copies: number;
  /** Floating P/L of the group in the portfolio's currency. */
  total: number;
}

/**
 * Rows (newest first) grouped by master trade: one group per instrument and direction, in the order
 * of each group's newest row. A copy of a master trade is the same instrument in the same direction
 * on a follower; the masters' own rows head their group.
 */
export function groupByTrade(rows: readonly Position[]): TradeGroup[] {
  const groups = new Map<string, TradeGroup>();
  for (const p of rows) {
    const key = `${p.u_symbol}|${p.type}`;
    let group = groups.get(key);
    if (!group) {
      group = { key, symbol: p.u_symbol, type: p.type, rows: [], copies: 0, total: 0 };
      groups.set(key, group);
    }
    group.rows.push(p);
    if (!p.is_master) group.copies += 1;
    group.total += p.profit_currency;
  }
  for (const group of groups.values()) {
    if (group.copies !== group.rows.length && group.copies > 0) group.rows.sort((a, b) => Number(b.is_master) - Number(a.is_master));
  }
  return [...groups.values()];
}

/** What a list draws: a group's heading, or a position (`child`: under a group's heading). */
export type ListItem = { kind: 'group'; group: TradeGroup; open: boolean } | { kind: 'row'; p: Position; child: boolean };

export function listItems(rows: Position[], grouped: boolean, folded: ReadonlySet<string>): ListItem[] {
  if (!grouped) return rows.map((p) => ({ kind: 'row', p, child: false }));
  const items: ListItem[] = [];
  for (const group of groupByTrade(rows)) {
    if (group.rows.length === 1 && group.rows[0]) {
      items.push({ kind: 'row', p: group.rows[0], child: false });
      continue;
    }
    const open = !folded.has(group.key);
    items.push({ kind: 'group', group, open });
    if (open) for (const p of group.rows) items.push({ kind: 'row', p, child: true });
  }
  return items;
}

export const itemKey = (item: ListItem): string => (item.kind === 'group' ? `group:${item.group.key}` : positionKey(item.p));

export function groupLabel(group: TradeGroup): string {
  const masters = group.rows.length - group.copies;
  const copies = `${group.copies} ${group.copies === 1 ? 'copy' : 'copies'}`;
  return masters > 0 ? `master trade and ${copies}` : copies;
}

/** Newest first, then by identity so equal times keep a stable order across snapshots. */
export function sortLive(positions: readonly Position[]): Position[] {
  return newestFirst(positions, (p) => p.time, positionKey);
}
