/*
 * What the NAV screen shows, without drawing it: the mode (real time, or a month and one of its
 * days), the rows of that mode from the server with the broker's own NAV where a statement gave it,
 * the months and days there are, the summary per currency, and the PDF report of what is in view.
 */
import { useEffect, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import type { Portfolio } from '#shared/domain/portfolios.ts';
import { firstAvailableDay, monthKeyLabel, sortMonthKeysNewestFirst } from '#shared/domain/nav-rules.ts';
import { historicalViewRows, realtimeViewRows, summariseNavByCurrency, type NavCurrencySummary } from '#shared/domain/nav-view.ts';
import { navDayIso, navDayLabel } from '#shared/domain/reports.ts';
import { formatDateFr } from '#shared/format/dates.ts';
import { accountQueries } from '#client/api/queries/accounts.ts';
import { navQueries } from '#client/api/queries/nav.ts';
import { navReport } from '#client/pdf/nav-report.ts';
import { hasBrokerNav, withBrokerNav, type NavScreenRow } from './broker-nav.tsx';

export const REALTIME = 'realtime';

/** NAV mode (docs/product.md#states): real time, or a historical month and one of its days. */
export type NavMode = { kind: 'realtime' } | { kind: 'historical'; month: string; day: number | undefined };

/** The clock, ticking every `ms`, for the freshness dots. */
function useNow(ms: number): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const id = window.setInterval(() => setNow(Date.now()), ms);
    return () => window.clearInterval(id);
  }, [ms]);
  return now;
}

/** Local calendar date 'YYYY-MM-DD' of an epoch in ms (the real-time report's date). */
function localIsoDate(ms: number): string {
  const d = new Date(ms);
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
}

export interface NavData {
  rows: NavScreenRow[];
  loading: boolean;
  error: string | null;
  retry: () => void;
  /** Month keys ('M.YYYY'), newest first, and the days of each. */
  months: string[];
  availableDates: Record<string, number[]>;
  /** The days of the chosen month, and the chosen day (the first there is by default). */
  days: number[];
  day: number | undefined;
  /** Now, for the freshness dots: never before the data's own time. */
  now: number;
  /** When the real-time rows were read (ms), 0 before. */
  updatedAt: number;
  summary: NavCurrencySummary[];
  /** Whether a row in view has the broker's own NAV (from a statement). */
  brokerNav: boolean;
}

/** The NAV rows of a mode. The server answers the portfolio's NAV rows only (its membership rule): nothing is filtered here. */
export function useNavData(portfolio: Portfolio, mode: NavMode): NavData {
  const tick = useNow(1000);
  const realtime = mode.kind === 'realtime';
  const month = mode.kind === 'historical' ? mode.month : undefined;
  // The newest month and the list of months and days; also the fallback rows of the newest month.
  const latest = useQuery(navQueries.historical(undefined, portfolio));
  const monthQuery = useQuery({ ...navQueries.historical(month, portfolio), enabled: month !== undefined });
  const live = useQuery({ ...accountQueries.nav(portfolio), enabled: realtime });

  const monthData = monthQuery.data ?? (month !== undefined && latest.data?.data[0]?.date_id === month ? latest.data : undefined);
  const availableDates = monthData?.available_dates ?? latest.data?.available_dates ?? {};
  const days = month === undefined ? [] : (availableDates[month] ?? []);
  const day = mode.kind === 'historical' ? (mode.day ?? firstAvailableDay(availableDates, mode.month)) : undefined;

  let rows: NavScreenRow[] = [];
  let loading = false;
  let error: string | null = null;
  if (realtime) {
    if (live.data) rows = withBrokerNav(realtimeViewRows(live.data), undefined);
    else if (live.isError) error = live.error.message;
    else loading = true;
  } else if (month !== undefined) {
    if (monthData && day !== undefined) rows = withBrokerNav(historicalViewRows(monthData.data, month, day), monthData.data);
    // docs/product.md#errors: historical NAV load errors show no message, only the empty table.
    else if (!monthQuery.isError && !(monthData && days.length === 0)) loading = true;
  }
  return {
    rows,
    loading,
    error,
    retry: () => void live.refetch(),
    months: sortMonthKeysNewestFirst(Object.keys(availableDates)),
    availableDates,
    days,
    day,
    // The data's own time keeps a just-updated row from looking "in the future" between two ticks.
    now: Math.max(tick, live.dataUpdatedAt),
    updatedAt: live.dataUpdatedAt,
    summary: summariseNavByCurrency(rows),
    brokerNav: hasBrokerNav(rows),
  };
}

/** The report's day: the data's for real time, the chosen end of day otherwise. */
export function navReportDate(mode: NavMode, data: Pick<NavData, 'day' | 'updatedAt'>, nowMs: number): string {
  if (mode.kind === 'realtime') return localIsoDate(data.updatedAt || nowMs);
  return navDayIso(mode.month, data.day ?? 0) ?? `${mode.month}_${data.day ?? 0}`;
}

/** The PDF of what is in view: the rows in their order on screen and the summary, with the period and when it was made. */
export function buildNavReport(portfolio: Portfolio, mode: NavMode, data: NavData, rows: readonly NavScreenRow[], nowMs: number) {
  const common = { portfolio, date: navReportDate(mode, data, nowMs), rows, summary: data.summary, note: `Generated ${formatDateFr(nowMs / 1000)}` };
  if (mode.kind === 'realtime') return navReport({ ...common, realtime: true, period: `Real-Time Data, ${formatDateFr((data.updatedAt || nowMs) / 1000)}` });
  const d = data.day ?? 0;
  return navReport({ ...common, realtime: false, period: `End of Day ${navDayLabel(mode.month, d)} (${monthKeyLabel(mode.month)})` });
}
