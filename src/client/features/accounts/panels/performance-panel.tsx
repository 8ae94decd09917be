import { lazy, memo, Suspense, useState } from 'react';
import { useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import type { HistoricalDealsResponse } from '#shared/contract/deals.ts';
import {
  CHART_TYPES,
  DEFAULT_CHART_TYPE,
  DEFAULT_PERIOD,
  PERIOD_OPTIONS,
  periodStart,
  type ChartType,
  type Period,
} from '#shared/domain/constants.ts';
import { dealKeys, dealQueries } from '#client/api/queries/deals.ts';
import { Dropdown } from '#client/ui/dropdown.tsx';
import { SectionPanel } from '#client/ui/section-panel.tsx';
import { SegmentedControl } from '#client/ui/segmented-control.tsx';
import { EmptyState, ErrorState, LoadingState } from '#client/ui/states.tsx';
import { chartPoints, hasNoChartData } from '../chart-series.ts';

// The chart and its drawing library (visx, d3) are a chunk of their own, loaded with the screen but
// evaluated only when the chart is drawn, not in the task that starts the screen.
const PerformanceChart = lazy(() => import('./performance-chart.tsx').then((m) => ({ default: m.PerformanceChart })));

export const CHART_MESSAGES = {
  loading: 'Loading chart data...',
  noData: 'No data available for the chart.',
  error: 'Error loading chart data',
  noDataForType: 'No data available for this chart type',
} as const;

/** Two visits' start dates of one period differ by the time between them; two periods by a month or more. */
const SAME_PERIOD_WITHIN_S = 7 * 86_400;

/**
 * The newest answer kept for this account and period from an earlier visit (its start_date, and so its
 * key, was another): shown until this visit's answer, and offline in its place (issue 40 item 1).
 */
function keptChart(client: QueryClient, account: string, startDate: number | undefined): HistoricalDealsResponse | undefined {
  if (startDate === undefined) return undefined;
  let kept: HistoricalDealsResponse | undefined;
  let keptAt = 0;
  for (const query of client.getQueryCache().findAll({ queryKey: dealKeys.all() })) {
    const params = query.queryKey[2] as { account?: unknown; filterRebalancing?: unknown; startDate?: unknown } | undefined;
    if (query.queryKey[1] !== 'historical' || params?.account !== account || params.filterRebalancing !== true) continue;
    if (typeof params.startDate !== 'number' || Math.abs(params.startDate - startDate) > SAME_PERIOD_WITHIN_S) continue;
    const data = query.state.data as HistoricalDealsResponse | undefined;
    if (data !== undefined && query.state.dataUpdatedAt > keptAt) {
      kept = data;
      keptAt = query.state.dataUpdatedAt;
    }
  }
  return kept;
}

export interface PerformancePanelProps {
  accountId: string;
  currency: string;
}

/** Performance of one account (docs/product.md#screens): period Last Month / Last 3 Months / All Time, four chart types. */
export const PerformancePanel = memo(function PerformancePanel({ accountId, currency }: PerformancePanelProps) {
  // start_date is fixed when the period is chosen (and when the panel mounts for an account), so the
  // query key stays the same between renders.
  const [{ period, startDate }, setRange] = useState(() => ({
    period: DEFAULT_PERIOD,
    startDate: periodStart(DEFAULT_PERIOD, Date.now()),
  }));
  const setPeriod = (next: Period) => setRange({ period: next, startDate: periodStart(next, Date.now()) });
  const [type, setType] = useState<ChartType>(DEFAULT_CHART_TYPE);
  const queryClient = useQueryClient();
  const query = useQuery({
    ...dealQueries.historical({ account: accountId, filterRebalancing: true, startDate }),
    placeholderData: () => keptChart(queryClient, accountId, startDate),
  });

  let body;
  if (query.isPending) body = <LoadingState>{CHART_MESSAGES.loading}</LoadingState>;
  else if (query.isError) body = <ErrorState onRetry={() => void query.refetch()}>{CHART_MESSAGES.error}</ErrorState>;
  else if (hasNoChartData(query.data)) body = <EmptyState>{CHART_MESSAGES.noData}</EmptyState>;
  else {
    const points = chartPoints(query.data, type) ?? [];
    body =
      points.length === 0 ? (
        <EmptyState>{CHART_MESSAGES.noDataForType}</EmptyState>
      ) : (
        <Suspense fallback={<LoadingState>{CHART_MESSAGES.loading}</LoadingState>}>
          <PerformanceChart points={points} type={type} currency={query.data.dealsStats[0]?.currency ?? currency} startDate={startDate} />
        </Suspense>
      );
  }

  return (
    <SectionPanel
      title="Performance"
      className="performance-panel"
      actions={
        <Dropdown
          label="Period"
          options={PERIOD_OPTIONS}
          value={period}
          onChange={setPeriod}
          align="right"
          className="performance-period"
        />
      }
    >
      <SegmentedControl label="Chart type" options={CHART_TYPES} value={type} onChange={setType} block className="performance-types" />
      <div className="performance-body">{body}</div>
    </SectionPanel>
  );
});
