import { useState } from 'react';
import { firstAvailableDay, monthKeyLabel } from '#shared/domain/nav-rules.ts';
import type { NavCurrencySummary } from '#shared/domain/nav-view.ts';
import type { Portfolio } from '#shared/domain/portfolios.ts';
import { navDayLabel, navReportFileName } from '#shared/domain/reports.ts';
import { sortRows, type SortState } from '#shared/domain/sorting.ts';
import { formatNavMoney } from '#shared/format/money.ts';
import { CsvButton } from '#client/export/csv-button.tsx';
import { csvNameOfPdf } from '#client/export/csv-table.ts';
import { useSinglePortfolio } from '#client/app/portfolio.ts';
import { ReportButton } from '#client/pdf/report-button.tsx';
import { CardList, columnsToFields } from '#client/ui/card-list.tsx';
import { CurrencySummary, type CurrencySummaryCard } from '#client/ui/currency-summary.tsx';
import { Dropdown, type DropdownOption } from '#client/ui/dropdown.tsx';
import { toneOf } from '#client/ui/figure-list.tsx';
import { PageTitle } from '#client/ui/page-title.tsx';
import { SortableTable, type TableColumn } from '#client/ui/sortable-table.tsx';
import { SortSelect } from '#client/ui/sort-select.tsx';
import { EmptyState, ErrorState, LoadingState } from '#client/ui/states.tsx';
import { useIsWide } from '#client/ui/use-media-query.ts';
import { brokerNavCardField, isBrokerNavKey, type NavScreenRow } from './broker-nav.tsx';
import { FreshnessDot, navColumns, navCsvColumns, type NavColumnKey } from './nav-columns.tsx';
import { buildNavReport, navReportDate, REALTIME, useNavData, type NavData, type NavMode } from './nav-data.ts';
import './nav.css';

const MESSAGES = {
  loading: 'Loading account data...',
  noAccounts: 'No accounts found for this selection.',
  noSummary: 'No summary data available.',
};

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
  const [mode, setMode] = useState<NavMode>({ kind: 'realtime' });
  const [sort, setSort] = useState<SortState<NavColumnKey> | null>(null);
  const data = useNavData(portfolio, mode);
  const realtime = mode.kind === 'realtime';
  const columns = navColumns(realtime, data.now, data.brokerNav);
  // Sorting by Live P/L means nothing for end-of-day rows; fall back to the default order.
  const activeSort = sort !== null && columns.some((c) => c.key === sort.key) ? sort : null;
  const rows = sortRows(data.rows, activeSort);

  return (
    <div className="nav-page">
      <PageTitle>{`Net Asset Value - ${portfolio}`}</PageTitle>
      <NavToolbar portfolio={portfolio} mode={mode} onMode={setMode} data={data} rows={rows} />
      {data.error !== null ? (
        <ErrorState onRetry={data.retry}>{data.error}</ErrorState>
      ) : data.loading ? (
        <LoadingState>{MESSAGES.loading}</LoadingState>
      ) : (
        <>
          <section className="nav-section" aria-labelledby="nav-summary-title">
            <h2 id="nav-summary-title" className="nav-section-title">
              {mode.kind === 'realtime' ? 'Summary' : `Summary, End of Day ${data.day === undefined ? '' : navDayLabel(mode.month, data.day)}`}
            </h2>
            <SummaryCards summary={data.summary} realtime={realtime} />
          </section>
          <NavAccounts rows={rows} columns={columns} sort={activeSort} onSort={setSort} realtime={realtime} now={data.now} brokerNav={data.brokerNav} />
        </>
      )}
    </div>
  );
}

/** The month (or Real-Time Data) and the end of day, and the PDF and CSV of what is in view. */
function NavToolbar({
  portfolio,
  mode,
  onMode,
  data,
  rows,
}: {
  portfolio: Portfolio;
  mode: NavMode;
  onMode: (mode: NavMode) => void;
  data: NavData;
  rows: readonly NavScreenRow[];
}) {
  const periodOptions: DropdownOption<string>[] = [
    { value: REALTIME, label: 'Real-Time Data' },
    ...data.months.map((key) => ({ value: key, label: monthKeyLabel(key), group: 'Historical NAV' })),
  ];
  // Changing month resets the day to its first available day; real time clears it (docs/product.md#states).
  const onPeriodChange = (value: string) =>
    onMode(value === REALTIME ? { kind: 'realtime' } : { kind: 'historical', month: value, day: firstAvailableDay(data.availableDates, value) });
  const buildCsv = (nowMs: number) => ({
    fileName: csvNameOfPdf(navReportFileName(portfolio, navReportDate(mode, data, nowMs))),
    columns: navCsvColumns(mode.kind === 'realtime', data.brokerNav),
    rows,
  });
  return (
    <div className="nav-toolbar">
      <Dropdown
        label="NAV data"
        showLabel
        className="nav-period"
        options={periodOptions}
        value={mode.kind === 'historical' ? mode.month : REALTIME}
        onChange={onPeriodChange}
        maxHeight={400}
      />
      {mode.kind === 'historical' ? (
        <Dropdown
          label="End of Day"
          showLabel
          className="nav-day"
          options={data.days.map((d) => ({ value: String(d), label: navDayLabel(mode.month, d) }))}
          value={data.day === undefined ? null : String(data.day)}
          onChange={(value) => onMode({ ...mode, day: Number(value) })}
          placeholder="No day"
          emptyText="No days available"
          maxHeight={400}
        />
      ) : null}
      <div className="nav-toolbar-end">
        <ReportButton build={(nowMs) => buildNavReport(portfolio, mode, data, rows, nowMs)} disabled={rows.length === 0} />
        <CsvButton table="NAV accounts" placement="toolbar" build={buildCsv} disabled={rows.length === 0} />
      </div>
    </div>
  );
}

/** The accounts: a sortable table on a desktop, cards with a sort menu on a phone. */
function NavAccounts({
  rows,
  columns,
  sort,
  onSort,
  realtime,
  now,
  brokerNav,
}: {
  rows: NavScreenRow[];
  columns: TableColumn<NavScreenRow, NavColumnKey>[];
  sort: SortState<NavColumnKey> | null;
  onSort: (sort: SortState<NavColumnKey> | null) => void;
  realtime: boolean;
  now: number;
  brokerNav: boolean;
}) {
  const wide = useIsWide();
  const sortOptions = columns.map((c) => ({ key: c.key, label: typeof c.header === 'string' ? c.header : c.key }));
  return (
    <section className="nav-section" aria-labelledby="nav-accounts-title">
      <div className="nav-section-head">
        <h2 id="nav-accounts-title" className="nav-section-title">
          Accounts
        </h2>
        {!wide && rows.length > 1 ? <SortSelect options={sortOptions} sort={sort} onChange={onSort} defaultLabel="Broker, then account" /> : null}
      </div>
      {wide ? (
        <SortableTable
          label="NAV accounts"
          columns={columns}
          rows={rows}
          rowKey={(row) => row.id}
          sort={sort}
          onSortChange={onSort}
          emptyText={MESSAGES.noAccounts}
          className="nav-table"
        />
      ) : (
        <CardList
          label="NAV accounts"
          items={rows}
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
  );
}
