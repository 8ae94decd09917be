import { useEffect, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { isFresh } from '#shared/domain/freshness.ts';
import { firstAvailableDay, monthKeyLabel, sortMonthKeysNewestFirst } from '#shared/domain/nav-rules.ts';
import {
  historicalViewRows,
  realtimeViewRows,
  summariseNavByCurrency,
  type NavCurrencySummary,
  type NavViewRow,
} from '#shared/domain/nav-view.ts';
import { navDayIso, navDayLabel, navReportFileName } from '#shared/domain/reports.ts';
import { sortRows, type SortState } from '#shared/domain/sorting.ts';
import { formatDateFr } from '#shared/format/dates.ts';
import { formatNavMoney } from '#shared/format/money.ts';
import { accountQueries } from '#client/api/queries/accounts.ts';
import { CsvButton } from '#client/export/csv-button.tsx';
import { csvDateTime, csvNameOfPdf, csvNumber, type CsvColumn } from '#client/export/csv-table.ts';
import { navQueries } from '#client/api/queries/nav.ts';
import { useSinglePortfolio } from '#client/app/portfolio.ts';
import { navReport } from '#client/pdf/nav-report.ts';
import { ReportButton } from '#client/pdf/report-button.tsx';
import { BrokerIcon } from '#client/ui/broker-icon.tsx';
import { CardList, columnsToFields } from '#client/ui/card-list.tsx';
import { CurrencySummary, type CurrencySummaryCard } from '#client/ui/currency-summary.tsx';
import { Dropdown, type DropdownOption } from '#client/ui/dropdown.tsx';
import { toneOf } from '#client/ui/figure-list.tsx';
import { PageTitle } from '#client/ui/page-title.tsx';
import { SortableTable, type TableColumn } from '#client/ui/sortable-table.tsx';
import { SortSelect } from '#client/ui/sort-select.tsx';
import { EmptyState, ErrorState, LoadingState } from '#client/ui/states.tsx';
import { useIsWide } from '#client/ui/use-media-query.ts';
import {
  brokerNavCardField,
  brokerNavColumns,
  brokerNavCsvColumns,
  hasBrokerNav,
  isBrokerNavKey,
  withBrokerNav,
  type BrokerNavKey,
  type NavScreenRow,
} from './broker-nav.tsx';
import './nav.css';

const REALTIME = 'realtime';

/** NAV mode (docs/product.md#states): real time, or a historical month and one of its days. */
type NavMode = { kind: 'realtime' } | { kind: 'historical'; month: string; day: number | undefined };

type NavColumnKey = 'broker_name' | 'account_name' | 'balance' | 'equity' | 'pnl' | BrokerNavKey;

const MESSAGES = {
  loading: 'Loading account data...',
  noAccounts: 'No accounts found for this selection.',
  noSummary: 'No summary data available.',
};

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

function FreshnessDot({ lastUpdate, now }: { lastUpdate: number | null; now: number }) {
  const fresh = isFresh(lastUpdate, now);
  const when = lastUpdate === null ? 'never' : formatDateFr(lastUpdate);
  const label = fresh ? `Live, updated ${when}` : `No recent update, last ${when}`;
  return (
    <span
      className={fresh ? 'nav-dot nav-dot-fresh' : 'nav-dot nav-dot-stale'}
      data-fresh={fresh}
      role="img"
      aria-label={label}
      title={label}
    />
  );
}

function moneyClass(value: number | null): string | undefined {
  const tone = toneOf(value);
  return tone ? `nav-${tone}` : undefined;
}

function SummaryCards({ summary, realtime }: { summary: readonly NavCurrencySummary[]; realtime: boolean }) {
  if (summary.length === 0) return <EmptyState>{MESSAGES.noSummary}</EmptyState>;
  const cards: CurrencySummaryCard[] = summary.map((s) => ({
    currency: s.currency,
    note: `${s.accounts} ${s.accounts === 1 ? 'account' : 'accounts'}`,
    figures: [
      { key: 'balance', label: 'Balance', value: formatNavMoney(s.balance, s.currency) },
      { key: 'equity', label: 'Equity', value: formatNavMoney(s.equity, s.currency) },
      ...(realtime ? [{ key: 'pnl', label: 'Live P/L', value: formatNavMoney(s.pnl, s.currency), tone: toneOf(s.pnl) }] : []),
    ],
  }));
  return <CurrencySummary cards={cards} />;
}

export function NavPage() {
  const portfolio = useSinglePortfolio();
  const wide = useIsWide();
  const tick = useNow(1000);
  const [mode, setMode] = useState<NavMode>({ kind: 'realtime' });
  const [sort, setSort] = useState<SortState<NavColumnKey> | null>(null);
  const realtime = mode.kind === 'realtime';
  const month = mode.kind === 'historical' ? mode.month : undefined;

  // The newest month and the list of months and days; also the fallback rows of the newest month.
  // The server answers the portfolio's NAV rows only (its membership rule): nothing is filtered here.
  const latest = useQuery(navQueries.historical(undefined, portfolio));
  const monthQuery = useQuery({ ...navQueries.historical(month, portfolio), enabled: month !== undefined });
  const live = useQuery({ ...accountQueries.nav(portfolio), enabled: realtime });

  const monthData =
    monthQuery.data ?? (month !== undefined && latest.data?.data[0]?.date_id === month ? latest.data : undefined);
  const availableDates = monthData?.available_dates ?? latest.data?.available_dates ?? {};
  const months = sortMonthKeysNewestFirst(Object.keys(availableDates));
  const days = month === undefined ? [] : (availableDates[month] ?? []);
  const day = mode.kind === 'historical' ? (mode.day ?? firstAvailableDay(availableDates, mode.month)) : undefined;

  // The data's own time keeps a just-updated row from looking "in the future" between two ticks.
  const now = Math.max(tick, live.dataUpdatedAt);

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
  const summary = summariseNavByCurrency(rows);
  const brokerNav = hasBrokerNav(rows);

  const columns: TableColumn<NavScreenRow, NavColumnKey>[] = [
    {
      key: 'broker_name',
      header: 'Broker',
      render: (row) => (
        <span className="nav-broker">
          <BrokerIcon broker={row.broker_name} size={22} />
          <span>{row.broker_name}</span>
        </span>
      ),
    },
    {
      key: 'account_name',
      header: 'Account Name',
      render: (row) => (
        <span className="nav-account">
          {realtime ? <FreshnessDot lastUpdate={row.last_update} now={now} /> : null}
          <span className="nav-account-name">{row.account_name}</span>
        </span>
      ),
    },
    { key: 'balance', header: 'Balance', align: 'right', render: (row) => formatNavMoney(row.balance, row.currency) },
    { key: 'equity', header: 'Equity', align: 'right', render: (row) => formatNavMoney(row.equity, row.currency) },
    ...(realtime
      ? [
          {
            key: 'pnl' as const,
            header: 'Live P/L',
            align: 'right' as const,
            render: (row: NavViewRow) => <span className={moneyClass(row.pnl)}>{formatNavMoney(row.pnl, row.currency)}</span>,
          },
        ]
      : []),
    // Only where a statement gave the broker's own NAV for a row in view.
    ...(brokerNav ? brokerNavColumns : []),
  ];
  // Sorting by Live P/L means nothing for end-of-day rows; fall back to the default order.
  const activeSort = sort !== null && columns.some((c) => c.key === sort.key) ? sort : null;
  const sortedRows = sortRows(rows, activeSort);

  const periodOptions: DropdownOption<string>[] = [
    { value: REALTIME, label: 'Real-Time Data' },
    ...months.map((key) => ({ value: key, label: monthKeyLabel(key), group: 'Historical NAV' })),
  ];
  const onPeriodChange = (value: string) => {
    // Changing month resets the day to its first available day; real time clears it (docs/product.md#states).
    if (value === REALTIME) setMode({ kind: 'realtime' });
    else setMode({ kind: 'historical', month: value, day: firstAvailableDay(availableDates, value) });
  };

  // The report's day: the data's for real time, the chosen end of day otherwise.
  const reportDate = (nowMs: number) =>
    realtime ? localIsoDate(live.dataUpdatedAt || nowMs) : (navDayIso(month ?? '', day ?? 0) ?? `${month ?? ''}_${day ?? 0}`);

  const buildReport = (nowMs: number) => {
    const generated = `Generated ${formatDateFr(nowMs / 1000)}`;
    if (realtime) {
      const at = live.dataUpdatedAt || nowMs;
      return navReport({
        portfolio,
        realtime: true,
        date: reportDate(nowMs),
        period: `Real-Time Data, ${formatDateFr(at / 1000)}`,
        rows: sortedRows,
        summary,
        note: generated,
      });
    }
    const m = month ?? '';
    const d = day ?? 0;
    return navReport({
      portfolio,
      realtime: false,
      date: reportDate(nowMs),
      period: `End of Day ${navDayLabel(m, d)} (${monthKeyLabel(m)})`,
      rows: sortedRows,
      summary,
      note: generated,
    });
  };

  // The accounts table as on screen, figures unformatted; the currency and the freshness dot's time as columns of their own.
  const csvColumns: CsvColumn<NavScreenRow>[] = [
    { title: 'Broker', value: (row) => row.broker_name },
    { title: 'Account Name', value: (row) => row.account_name },
    { title: 'Balance', value: (row) => csvNumber(row.balance) },
    { title: 'Equity', value: (row) => csvNumber(row.equity) },
    ...(realtime ? [{ title: 'Live P/L', value: (row: NavViewRow) => csvNumber(row.pnl) }] : []),
    ...(brokerNav ? brokerNavCsvColumns : []),
    { title: 'Currency', value: (row) => row.currency },
    ...(realtime ? [{ title: 'Last update', value: (row: NavViewRow) => csvDateTime(row.last_update) }] : []),
  ];
  const buildCsv = (nowMs: number) => ({
    fileName: csvNameOfPdf(navReportFileName(portfolio, reportDate(nowMs))),
    columns: csvColumns,
    rows: sortedRows,
  });

  const sortOptions = columns.map((c) => ({ key: c.key, label: typeof c.header === 'string' ? c.header : c.key }));

  return (
    <div className="nav-page">
      <PageTitle>{`Net Asset Value - ${portfolio}`}</PageTitle>

      <div className="nav-toolbar">
        <Dropdown
          label="NAV data"
          showLabel
          className="nav-period"
          options={periodOptions}
          value={month ?? REALTIME}
          onChange={onPeriodChange}
          maxHeight={400}
        />
        {mode.kind === 'historical' ? (
          <Dropdown
            label="End of Day"
            showLabel
            className="nav-day"
            options={days.map((d) => ({ value: String(d), label: navDayLabel(mode.month, d) }))}
            value={day === undefined ? null : String(day)}
            onChange={(value) => setMode({ ...mode, day: Number(value) })}
            placeholder="No day"
            emptyText="No days available"
            maxHeight={400}
          />
        ) : null}
        <div className="nav-toolbar-end">
          <ReportButton build={buildReport} disabled={sortedRows.length === 0} />
          <CsvButton table="NAV accounts" placement="toolbar" build={buildCsv} disabled={sortedRows.length === 0} />
        </div>
      </div>

      {error !== null ? (
        <ErrorState onRetry={() => void live.refetch()}>{error}</ErrorState>
      ) : loading ? (
        <LoadingState>{MESSAGES.loading}</LoadingState>
      ) : (
        <>
          <section className="nav-section" aria-labelledby="nav-summary-title">
            <h2 id="nav-summary-title" className="nav-section-title">
              {realtime ? 'Summary' : `Summary, End of Day ${day === undefined ? '' : navDayLabel(month ?? '', day)}`}
            </h2>
            <SummaryCards summary={summary} realtime={realtime} />
          </section>

          <section className="nav-section" aria-labelledby="nav-accounts-title">
            <div className="nav-section-head">
              <h2 id="nav-accounts-title" className="nav-section-title">
                Accounts
              </h2>
              {!wide && sortedRows.length > 1 ? (
                <SortSelect
                  options={sortOptions}
                  sort={activeSort}
                  onChange={setSort}
                  defaultLabel="Broker, then account"
                />
              ) : null}
            </div>
            {wide ? (
              <SortableTable
                label="NAV accounts"
                columns={columns}
                rows={sortedRows}
                rowKey={(row) => row.id}
                sort={activeSort}
                onSortChange={setSort}
                emptyText={MESSAGES.noAccounts}
                className="nav-table"
              />
            ) : (
              <CardList
                label="NAV accounts"
                items={sortedRows}
                itemKey={(row) => row.id}
                title={(row) => (
                  <span className="nav-card-title">
                    <span className="nav-card-name">{row.account_name}</span>
                    {realtime ? <FreshnessDot lastUpdate={row.last_update} now={now} /> : null}
                  </span>
                )}
                fields={[
                  ...columnsToFields(columns.filter((c) => c.key !== 'account_name' && !isBrokerNavKey(c.key))),
                  // The broker's NAV and the difference share one line of the card.
                  ...(brokerNav ? [brokerNavCardField] : []),
                ]}
                emptyText={MESSAGES.noAccounts}
                className="nav-cards"
              />
            )}
          </section>
        </>
      )}
    </div>
  );
}
