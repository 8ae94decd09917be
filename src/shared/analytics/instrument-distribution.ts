/**
 * Distribution of open positions (docs/product.md#screens): the brokers screen's Forex and Equities bars by
 * instrument, each segment's share of its market's quantity (docs/product.md#constants: "percentages per instrument
 * quantity"), and the accounts screen's Forex vs Equities split.
 */
import { cycleColor } from '#shared/domain/constants.ts';
import { isForexCategory } from '#shared/domain/positions-filter.ts';
import { finiteOrZero } from './stats.ts';

export interface DistributionInput {
  u_symbol: string;
  category: string | null;
  quantity: number;
}

export interface DistributionSegment {
  symbol: string;
  /** Summed quantity of the instrument (lots for forex, shares for equities). */
  value: number;
  /** value / market total × 100. */
  percentage: number;
  color: string;
}

export interface MarketDistribution {
  total: number;
  /** Largest first; the colour follows the order. */
  segments: DistributionSegment[];
}

const size = (value: number): number => Math.abs(finiteOrZero(value));

function byInstrument(rows: readonly DistributionInput[], palette: readonly [string, ...string[]]): MarketDistribution {
  const bySymbol = new Map<string, number>();
  for (const row of rows) bySymbol.set(row.u_symbol, (bySymbol.get(row.u_symbol) ?? 0) + size(row.quantity));
  const entries = [...bySymbol].filter(([, value]) => value > 0);
  const total = entries.reduce((sum, [, value]) => sum + value, 0);
  entries.sort(([a, va], [b, vb]) => vb - va || (a < b ? -1 : a > b ? 1 : 0));
  return {
    total,
    segments: entries.map(([symbol, value], index) => ({
      symbol,
      value,
      percentage: total > 0 ? (value / total) * 100 : 0,
      color: cycleColor(palette, index),
    })),
  };
}

/** Forex and equities (docs/product.md#fields: 'Equities', 'Equity' or empty) positions, each summed per instrument. */
export function distributionByInstrument(
  positions: readonly DistributionInput[],
  palette: readonly [string, ...string[]],
): { forex: MarketDistribution; equities: MarketDistribution } {
  return {
    forex: byInstrument(
      positions.filter((p) => isForexCategory(p.category)),
      palette,
    ),
    equities: byInstrument(
      positions.filter((p) => !isForexCategory(p.category)),
      palette,
    ),
  };
}

export interface MarketSplit {
  forex: number;
  equities: number;
  /** Shares of forex + equities in percent; both 0 when there is nothing. */
  forexPercentage: number;
  equitiesPercentage: number;
}

/** Forex vs Equities amounts of positions, by the amount `value` gives each (absolute values). */
export function marketSplit<T extends { category: string | null }>(positions: readonly T[], value: (row: T) => number): MarketSplit {
  let forex = 0;
  let equities = 0;
  for (const row of positions) {
    if (isForexCategory(row.category)) forex += size(value(row));
    else equities += size(value(row));
  }
  const total = forex + equities;
  return {
    forex,
    equities,
    forexPercentage: total > 0 ? (forex / total) * 100 : 0,
    equitiesPercentage: total > 0 ? (equities / total) * 100 : 0,
  };
}
