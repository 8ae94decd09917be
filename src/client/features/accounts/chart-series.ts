import type { HistoricalDealsResponse, SeriesGroup } from '#shared/contract/deals.ts';
import type { ChartType } from '#shared/domain/constants.ts';

/** The historical-deals series each chart type plots (docs/product.md#screens: Growth, Balance, Profit, Drawdown). */
export const SERIES_OF: Record<ChartType, keyof SeriesGroup> = {
  Growth: 'growth',
  Balance: 'balance',
  Profit: 'profit',
  Drawdown: 'drawdown',
};

/** Growth and drawdown are percentages; balance and profit are money in the account currency. */
export const isPercentChart = (type: ChartType): boolean => type === 'Growth' || type === 'Drawdown';

export interface ChartPoint {
  timestamp: number;
  value: number;
}

/** The points of one chart type over all markets; null when the response holds no account at all. */
export function chartPoints(response: HistoricalDealsResponse | undefined, type: ChartType): ChartPoint[] | null {
  const stats = response?.dealsStats[0];
  if (stats === undefined) return null;
  return stats.all[SERIES_OF[type]].filter((p) => Number.isFinite(p.value) && Number.isFinite(p.timestamp));
}

/** True when every series of the response is empty (docs/product.md#screens: 'No data available for the chart.'). */
export function hasNoChartData(response: HistoricalDealsResponse | undefined): boolean {
  const stats = response?.dealsStats[0];
  if (stats === undefined) return true;
  return Object.values(SERIES_OF).every((key) => stats.all[key].length === 0);
}

/** Index of the point nearest in time to `timestamp` (points sorted by time); -1 when empty. */
export function nearestIndex(points: readonly ChartPoint[], timestamp: number): number {
  if (points.length === 0) return -1;
  let lo = 0;
  let hi = points.length - 1;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if ((points[mid]?.timestamp ?? 0) < timestamp) lo = mid + 1;
    else hi = mid;
  }
  const before = points[lo - 1];
  const at = points[lo];
  if (before !== undefined && at !== undefined && timestamp - before.timestamp <= at.timestamp - timestamp) return lo - 1;
  return lo;
}
