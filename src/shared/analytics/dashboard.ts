/**
 * Figures of the Summary dashboard (docs/product.md#screens) computed from live position rows: volumes per broker,
 * the Forex / Equities distribution, the broker execution grid with its best and worst marks, the
 * execution-duration ranking and the best price per instrument. Pure; the rows come from the feed.
 */
import { isEquityCategory } from '#shared/domain/positions-filter.ts';
import { bestWorst, rankByDuration } from './execution.ts';
import { finiteOrZero, sum } from './stats.ts';
import type { Market } from '#shared/domain/market.ts';
import type { Side } from '#shared/domain/side.ts';

export interface VolumeRow {
  broker_name: string;
  /** EUR notional of the row (docs/product.md#fields quantity_currency). */
  quantity_currency: number;
}

export interface BarSegment {
  broker: string;
  volume: number;
  /** Share of the total, in percent. */
  percentage: number;
  color: string;
}

/** Trade volume per broker in EUR, largest first, each with its share in % and a palette colour (docs/product.md#purpose header). */
export function brokerVolumes(rows: readonly VolumeRow[], palette: readonly string[]): BarSegment[] {
  const byBroker = new Map<string, number>();
  for (const row of rows) {
    const volume = Math.abs(finiteOrZero(row.quantity_currency));
    byBroker.set(row.broker_name, (byBroker.get(row.broker_name) ?? 0) + volume);
  }
  const total = sum([...byBroker.values()]);
  return [...byBroker.entries()]
    .filter(([, volume]) => volume > 0)
    .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
    .map(([broker, volume], i) => ({
      broker,
      volume,
      percentage: total > 0 ? (volume / total) * 100 : 0,
      color: palette.length ? (palette[i % palette.length] ?? '#888') : '#888',
    }));
}

export interface DistributionRow {
  u_symbol: string;
  category: string | null;
  quantity_currency: number;
}

export interface InstrumentShare {
  symbol: string;
  market: Market;
  value: number;
  percentage: number;
  color: string;
}

export interface Distribution {
  forex: number;
  equities: number;
  total: number;
  instruments: InstrumentShare[];
}

/**
 * Forex vs Equities amounts (EUR notional of the open positions) and each instrument's share of the
 * total, largest first, coloured from the palette (docs/product.md#constants: percentages per instrument quantity).
 */
export function distribution(rows: readonly DistributionRow[], palette: readonly string[]): Distribution {
  const bySymbol = new Map<string, { market: Market; value: number }>();
  let forex = 0;
  let equities = 0;
  for (const row of rows) {
    const value = Math.abs(finiteOrZero(row.quantity_currency));
    const market = isEquityCategory(row.category) ? 'Equities' : 'Forex';
    if (market === 'Forex') forex += value;
    else equities += value;
    const entry = bySymbol.get(row.u_symbol) ?? { market, value: 0 };
    entry.value += value;
    bySymbol.set(row.u_symbol, entry);
  }
  const total = forex + equities;
  const instruments = [...bySymbol.entries()]
    .filter(([, e]) => e.value > 0)
    .sort((a, b) => b[1].value - a[1].value || a[0].localeCompare(b[0]))
    .map(([symbol, e], i) => ({
      symbol,
      market: e.market,
      value: e.value,
      percentage: total > 0 ? (e.value / total) * 100 : 0,
      color: palette.length ? (palette[i % palette.length] ?? '#888') : '#888',
    }));
  return { forex, equities, total, instruments };
}

export type GridBy = 'account' | 'broker';

export interface ExecutionRowInput {
  account_name: string;
  broker_name: string;
  u_symbol: string;
  type: Side;
  price_open: number;
  quantity: number;
  profit: number;
  currency: string;
  exec_duration_ms: number | null;
}

export interface GridCell {
  price: number;
  quantity: number;
  profit: number;
  currency: string;
}

export interface GridRow {
  symbol: string;
  type: Side;
  /** One cell per column, null where that account or broker holds no such position. */
  cells: (GridCell | null)[];
  /** Column index of the best and worst fill (docs/figures.md Execution quality); worst is null when all fills are equal. */
  best: number | null;
  worst: number | null;
}

export interface ExecutionGrid {
  columns: string[];
  rows: GridRow[];
}

const ownerOf = (row: ExecutionRowInput, by: GridBy): string => (by === 'account' ? row.account_name : row.broker_name);

/**
 * One row per instrument and direction, one price cell per account or broker, and the best and
 * worst fill of each row: Buy best = lowest price, Sell best = highest (docs/figures.md E1).
 */
export function executionGrid(rows: readonly ExecutionRowInput[], by: GridBy): ExecutionGrid {
  const columns = [...new Set(rows.map((r) => ownerOf(r, by)))].sort((a, b) => a.localeCompare(b));
  const columnIndex = new Map(columns.map((c, i) => [c, i]));
  const byKey = new Map<string, GridRow>();
  for (const r of rows) {
    const key = `${r.u_symbol}|${r.type}`;
    let gridRow = byKey.get(key);
    if (!gridRow) {
      gridRow = { symbol: r.u_symbol, type: r.type, cells: columns.map(() => null), best: null, worst: null };
      byKey.set(key, gridRow);
    }
    const index = columnIndex.get(ownerOf(r, by));
    if (index === undefined || !Number.isFinite(r.price_open)) continue;
    const existing = gridRow.cells[index];
    if (existing) {
      // Two rows of one owner (should not happen in an aggregated feed): keep the volume-weighted price.
      const quantity = existing.quantity + r.quantity;
      const price = quantity > 0 ? (existing.price * existing.quantity + r.price_open * r.quantity) / quantity : existing.price;
      gridRow.cells[index] = { price, quantity, profit: existing.profit + r.profit, currency: existing.currency };
    } else {
      gridRow.cells[index] = { price: r.price_open, quantity: r.quantity, profit: r.profit, currency: r.currency };
    }
  }
  const gridRows = [...byKey.values()].sort((a, b) => a.symbol.localeCompare(b.symbol) || a.type.localeCompare(b.type));
  for (const row of gridRows) {
    const marks = bestWorst(
      row.type,
      row.cells.map((c) => c?.price ?? null),
    );
    // A single fill is not compared with anything: no marks.
    const filled = row.cells.filter((c) => c !== null).length;
    row.best = filled > 1 ? marks.best : null;
    row.worst = filled > 1 ? marks.worst : null;
  }
  return { columns, rows: gridRows };
}

export interface DurationEntry {
  name: string;
  /** Mean execution duration over the owner's rows, ms. */
  exec_duration_ms: number | null;
  trades: number;
}

/** Execution duration per account or broker (mean over its rows), fastest first (docs/figures.md Execution quality). */
export function durationRanking(rows: readonly ExecutionRowInput[], by: GridBy): DurationEntry[] {
  const byOwner = new Map<string, number[]>();
  for (const r of rows) {
    const list = byOwner.get(ownerOf(r, by)) ?? [];
    if (r.exec_duration_ms !== null && Number.isFinite(r.exec_duration_ms)) list.push(r.exec_duration_ms);
    byOwner.set(ownerOf(r, by), list);
  }
  const entries = [...byOwner.entries()]
    .filter(([, list]) => list.length > 0)
    .map(([name, list]) => ({ name, exec_duration_ms: sum(list) / list.length, trades: list.length }))
    .sort((a, b) => a.name.localeCompare(b.name));
  return rankByDuration(entries);
}

export interface BestPriceEntry {
  symbol: string;
  type: Side;
  price: number;
  /** The account or broker with the best fill. */
  name: string;
}

/** The best fill of each instrument and direction and who got it (Buy lowest, Sell highest). */
export function bestPrices(grid: ExecutionGrid): BestPriceEntry[] {
  const out: BestPriceEntry[] = [];
  for (const row of grid.rows) {
    const index = row.best ?? row.cells.findIndex((c) => c !== null);
    const cell = index >= 0 ? row.cells[index] : undefined;
    const name = index >= 0 ? grid.columns[index] : undefined;
    if (cell && name !== undefined) out.push({ symbol: row.symbol, type: row.type, price: cell.price, name });
  }
  return out;
}
