import { memo, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import {
  aggregateRebates,
  aggregatesForMonth,
  rebateMonths,
  summariseByCurrency,
  type RebateAggregate,
} from '#shared/domain/rebate-rules.ts';
import type { Portfolio } from '#shared/domain/portfolios.ts';
import type { SortState } from '#shared/domain/sorting.ts';
import { monthOrdinal } from '#shared/domain/nav-rules.ts';
import { ALL_MONTHS_FILE_SEGMENT } from '#shared/domain/reports.ts';
import { formatMonthYear } from '#shared/format/dates.ts';
import { formatMoney } from '#shared/format/money.ts';
import { formatPercent } from '#shared/format/numbers.ts';
import { rebateQueries } from '#client/api/queries/rebates.ts';
import { CsvButton } from '#client/export/csv-button.tsx';
import { csvFileName, csvNumber, localIsoDate, type CsvColumn } from '#client/export/csv-table.ts';
import { Dropdown } from '#client/ui/dropdown.tsx';
import { SectionPanel } from '#client/ui/section-panel.tsx';
import { SortableTable, sortTableRows, type TableColumn } from '#client/ui/sortable-table.tsx';
import { EmptyState, ErrorState, LoadingState } from '#client/ui/states.tsx';

export const NO_REBATE_DATA = 'No rebate data for the selected period.';
const ALL_MONTHS = 'all';

/** 'YYYY-MM' (or 'M.YYYY') as 'March 2026'; anything else raw. */
function monthLabel(month: string): string {
  const ordinal = monthOrdinal(month);
  if (ordinal === null) return month;
  return formatMonthYear(new Date(Date.UTC(Math.floor(ordinal / 12), ordinal % 12, 1)), 'en-US', 'UTC');
}

const columns: TableColumn<RebateAggregate>[] = [
  { key: 'name', header: 'Account', render: (a) => a.name },
  { key: 'currency', header: 'Currency', render: (a) => a.currency },
  { key: 'totalRebate', header: 'Rebate', align: 'right', render: (a) => formatMoney(a.totalRebate, a.currency) },
];

const csvColumns: CsvColumn<RebateAggregate>[] = [
  { title: 'Account', value: (a) => a.name },
  { title: 'Currency', value: (a) => a.currency },
  { title: 'Rebate', value: (a) => csvNumber(a.totalRebate) },
];

/** Rebates by Account (docs/product.md#screens, read_rebate only): month selector, per-currency summary and the accounts' rebates. */
export const RebatesByAccount = memo(function RebatesByAccount({ portfolio, broker }: { portfolio: Portfolio | undefined; broker: string }) {
  const [month, setMonth] = useState<string>(ALL_MONTHS);
  const [sort, setSort] = useState<SortState<string> | null>({ key: 'name', direction: 'asc' });
  const query = useQuery(rebateQueries.list({ portfolio, groupBy: 'account' }));
  const aggregates = aggregateRebates((query.data ?? []).filter((row) => row.broker_name === broker), 'account');
  const months = rebateMonths(aggregates);
  const selected = aggregatesForMonth(aggregates, month === ALL_MONTHS ? null : month);
  const summary = summariseByCurrency(selected);
  const buildCsv = (nowMs: number) => ({
    fileName: csvFileName('rebates_by_account', broker, month === ALL_MONTHS ? ALL_MONTHS_FILE_SEGMENT : month, localIsoDate(nowMs)),
    columns: csvColumns,
    rows: sortTableRows(selected, columns, sort),
  });

  let body;
  if (query.isPending) body = <LoadingState>Loading rebate data...</LoadingState>;
  else if (query.isError) body = <ErrorState onRetry={() => void query.refetch()}>{query.error.message}</ErrorState>;
  else if (selected.length === 0) body = <EmptyState>{NO_REBATE_DATA}</EmptyState>;
  else
    body = (
      <>
        <ul className="rebate-summary" aria-label="Rebates by currency">
          {summary.map((s) => (
            <li key={s.currency} className="rebate-summary-card" data-currency={s.currency}>
              <span className="rebate-summary-currency">{s.currency}</span>
              <dl>
                <div>
                  <dt>Total Rebates</dt>
                  <dd data-testid="total-rebates" data-value={s.totalRebate}>
                    {formatMoney(s.totalRebate, s.currency)}
                  </dd>
                </div>
                <div>
                  <dt>Overall % Rebate</dt>
                  <dd data-testid="overall-rebate" data-value={s.rebatePercentage}>
                    {formatPercent(s.rebatePercentage)}
                  </dd>
                </div>
              </dl>
            </li>
          ))}
        </ul>
        <SortableTable
          columns={columns}
          rows={selected}
          rowKey={(a) => `${a.brokerName}|${a.name}|${a.currency}`}
          emptyText={NO_REBATE_DATA}
          label="Rebates by account"
          maxHeight="25vh"
          sort={sort}
          onSortChange={setSort}
        />
      </>
    );

  return (
    <SectionPanel
      title="Rebates by Account"
      className="rebates-by-account"
      actions={
        <>
          <Dropdown
            label="Month"
            options={[{ value: ALL_MONTHS, label: 'All Months' }, ...months.map((m) => ({ value: m, label: monthLabel(m) }))]}
            value={month}
            onChange={setMonth}
            align="right"
            maxHeight={320}
          />
          <CsvButton table="Rebates by account" build={buildCsv} disabled={selected.length === 0} />
        </>
      }
    >
      {body}
    </SectionPanel>
  );
});
