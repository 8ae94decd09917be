import { lazy, Suspense, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { hasPermission } from '#shared/domain/permissions.ts';
import { ALL_PORTFOLIOS } from '#shared/domain/portfolios.ts';
import {
  aggregateRebates,
  aggregatesForMonth,
  DEFAULT_REBATE_SORT,
  rebateMonths,
  summariseByCurrency,
  type RebateAggregate,
  type RebateCurrencySummary,
  type RebateGroupBy,
} from '#shared/domain/rebate-rules.ts';
import { monthLabel, rebatesReportFileName } from '#shared/domain/reports.ts';
import { sortRows, type SortState } from '#shared/domain/sorting.ts';
import { formatDateFr } from '#shared/format/dates.ts';
import { formatRebateMoney } from '#shared/format/money.ts';
import { formatPercent } from '#shared/format/numbers.ts';
import { useSession } from '#client/auth/session-store.ts';
import { usePortfolio } from '#client/app/portfolio.ts';
import { rebateQueries } from '#client/api/queries/rebates.ts';
import { CsvButton } from '#client/export/csv-button.tsx';
import { csvNameOfPdf } from '#client/export/csv-table.ts';
import { rebatesReport } from '#client/pdf/rebates-report.ts';
import { ReportButton } from '#client/pdf/report-button.tsx';
import { AccessDenied } from '#client/ui/access-denied.tsx';
import { BrokerIcon } from '#client/ui/broker-icon.tsx';
import { CardList, columnsToFields } from '#client/ui/card-list.tsx';
import { CurrencySummary, type CurrencySummaryCard } from '#client/ui/currency-summary.tsx';
import { Dropdown } from '#client/ui/dropdown.tsx';
import { Modal } from '#client/ui/modal.tsx';
import { PageTitle } from '#client/ui/page-title.tsx';
import { SegmentedControl } from '#client/ui/segmented-control.tsx';
import { SortableTable, type TableColumn } from '#client/ui/sortable-table.tsx';
import { SortSelect } from '#client/ui/sort-select.tsx';
import { EmptyState, ErrorState, LoadingState } from '#client/ui/states.tsx';
import { useIsWide } from '#client/ui/use-media-query.ts';
import { rebateColumns, rebateCsvColumns, rebateRowKey, type RebateColumnKey } from './rebates-columns.tsx';
import './rebates.css';

// visx only loads when the analysis is opened.
const RebatesAnalysisChart = lazy(() =>
  import('./rebates-analysis-chart.tsx').then((m) => ({ default: m.RebatesAnalysisChart })),
);

const ALL_MONTHS = 'all';
const MESSAGES = { loading: 'Loading rebate data...', empty: 'No rebate data found.' };

const GROUPINGS = [
  { value: 'account' as const, label: 'Account' },
  { value: 'broker' as const, label: 'Broker' },
];

function SummaryCards({ summary }: { summary: readonly RebateCurrencySummary[] }) {
  const cards: CurrencySummaryCard[] = summary.map((s) => ({
    currency: s.currency,
    figures: [
      { key: 'balance', label: 'Balance', value: formatRebateMoney(s.balance, s.currency) },
      { key: 'rebates', label: 'Rebates', value: formatRebateMoney(s.totalRebate, s.currency) },
      { key: 'percent', label: 'Overall % Rebate', value: formatPercent(s.rebatePercentage) },
      { key: 'profit-sharing', label: 'Profit Sharing', value: formatRebateMoney(s.totalProfitSharing, s.currency) },
    ],
  }));
  return <CurrencySummary cards={cards} />;
}

/** The rebates per account or per broker: a sortable table on a desktop, cards with a sort menu on a phone. */
function RebatesTable({
  rows,
  columns,
  sort,
  onSort,
  byAccount,
}: {
  rows: RebateAggregate[];
  columns: TableColumn<RebateAggregate, RebateColumnKey>[];
  sort: SortState<RebateColumnKey>;
  onSort: (sort: SortState<RebateColumnKey>) => void;
  byAccount: boolean;
}) {
  const wide = useIsWide();
  return (
    <section className="rebates-section" aria-labelledby="rebates-table-title">
      <div className="rebates-section-head">
        <h2 id="rebates-table-title" className="rebates-section-title">
          {byAccount ? 'Rebates by account' : 'Rebates by broker'}
        </h2>
        {!wide && rows.length > 1 ? (
          <SortSelect
            options={columns.map((c) => ({ key: c.key, label: typeof c.header === 'string' ? c.header : c.key }))}
            sort={sort}
            onChange={onSort}
          />
        ) : null}
      </div>
      {wide ? (
        <SortableTable
          label="Rebates"
          columns={columns}
          rows={rows}
          rowKey={rebateRowKey}
          sort={sort}
          onSortChange={onSort}
          emptyText={MESSAGES.empty}
          className="rebates-table"
        />
      ) : (
        <CardList
          label="Rebates"
          items={rows}
          itemKey={rebateRowKey}
          title={(row) => (
            <span className="rebates-card-title">
              <BrokerIcon broker={row.brokerName} size={22} />
              <span>
                <span className="rebates-name">{row.name}</span>
                {byAccount ? ` · ${row.brokerName}` : null}
              </span>
            </span>
          )}
          fields={columnsToFields(columns.filter((c) => c.key !== 'brokerName' && c.key !== 'name'))}
          emptyText={MESSAGES.empty}
          className="rebates-cards"
        />
      )}
    </section>
  );
}

function RebatesContent() {
  const { portfolio, setPortfolio } = usePortfolio();
  const [groupBy, setGroupBy] = useState<RebateGroupBy>('account');
  const [monthChoice, setMonthChoice] = useState<string>(ALL_MONTHS);
  const [sort, setSort] = useState<SortState<RebateColumnKey>>(DEFAULT_REBATE_SORT as SortState<RebateColumnKey>);
  const [analysisOpen, setAnalysisOpen] = useState(false);
  const isAll = portfolio === ALL_PORTFOLIOS;

  const query = useQuery(rebateQueries.list({ portfolio, groupBy }));
  const aggregates = query.data ? aggregateRebates(query.data, groupBy) : [];
  const months = rebateMonths(aggregates);
  // A month missing from this portfolio's data falls back to All Months.
  const month = monthChoice !== ALL_MONTHS && months.includes(monthChoice) ? monthChoice : null;
  const visible = aggregatesForMonth(aggregates, month);
  const summary = summariseByCurrency(visible);
  const byAccount = groupBy === 'account';

  const columns = rebateColumns(byAccount);
  const sortedRows = sortRows(visible, sort);

  const onGroupByChange = (next: RebateGroupBy) => {
    setGroupBy(next);
    // docs/product.md#states: the default sort comes back when the grouping changes.
    setSort(DEFAULT_REBATE_SORT as SortState<RebateColumnKey>);
  };

  const buildReport = (nowMs: number) =>
    rebatesReport({
      portfolio,
      grouping: groupBy,
      month,
      rows: sortedRows,
      summary,
      note: `Generated ${formatDateFr(nowMs / 1000)}${
        query.dataUpdatedAt ? `, data from ${formatDateFr(query.dataUpdatedAt / 1000)}` : ''
      }`,
    });

  const buildCsv = () => ({
    fileName: csvNameOfPdf(rebatesReportFileName(portfolio, groupBy, month)),
    columns: rebateCsvColumns(byAccount),
    rows: sortedRows,
  });

  let body;
  if (query.isPending) body = <LoadingState>{MESSAGES.loading}</LoadingState>;
  else if (query.isError && !query.data)
    body = <ErrorState onRetry={() => void query.refetch()}>{query.error.message}</ErrorState>;
  else if (visible.length === 0) body = <EmptyState>{MESSAGES.empty}</EmptyState>;
  else
    body = (
      <>
        <section className="rebates-section" aria-labelledby="rebates-summary-title">
          <h2 id="rebates-summary-title" className="rebates-section-title">
            Summary, {month === null ? 'All Months' : monthLabel(month)}
          </h2>
          <SummaryCards summary={summary} />
        </section>
        <RebatesTable rows={sortedRows} columns={columns} sort={sort} onSort={setSort} byAccount={byAccount} />
      </>
    );

  return (
    <div className="rebates-page">
      <PageTitle>{`Rebates - ${portfolio}`}</PageTitle>
      <div className="rebates-toolbar">
        <button
          type="button"
          className="button"
          aria-pressed={isAll}
          onClick={() => setPortfolio(ALL_PORTFOLIOS)}
        >
          All Portfolios
        </button>
        <div className="rebates-field">
          <span className="ui-dropdown-label" aria-hidden="true">
            Group by
          </span>
          <SegmentedControl label="Group by" options={GROUPINGS} value={groupBy} onChange={onGroupByChange} />
        </div>
        <Dropdown
          label="Month"
          showLabel
          className="rebates-month"
          options={[
            { value: ALL_MONTHS, label: 'All Months' },
            ...months.map((m) => ({ value: m, label: monthLabel(m) })),
          ]}
          value={month ?? ALL_MONTHS}
          onChange={setMonthChoice}
          maxHeight={400}
        />
        <div className="rebates-toolbar-end">
          {isAll ? (
            <button type="button" className="button" onClick={() => setAnalysisOpen(true)}>
              Show Analysis
            </button>
          ) : null}
          <ReportButton build={buildReport} disabled={sortedRows.length === 0} />
          <CsvButton table="Rebates" placement="toolbar" build={buildCsv} disabled={sortedRows.length === 0} />
        </div>
      </div>
      {body}
      {isAll ? (
        <Modal open={analysisOpen} onClose={() => setAnalysisOpen(false)} title="Rebates Analysis" className="rebates-modal">
          <Suspense fallback={<LoadingState>{MESSAGES.loading}</LoadingState>}>
            <RebatesAnalysisChart />
          </Suspense>
        </Modal>
      ) : null}
    </div>
  );
}

export function RebatesPage() {
  const session = useSession();
  if (!hasPermission(session?.restrictions, 'read_rebate')) return <AccessDenied />;
  return <RebatesContent />;
}
