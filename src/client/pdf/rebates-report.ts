import type { RebateAggregate, RebateCurrencySummary, RebateGroupBy } from '#shared/domain/rebate-rules.ts';
import { monthLabel, rebatesReportFileName } from '#shared/domain/reports.ts';
import { formatRebateMoney } from '#shared/format/money.ts';
import { formatPercent } from '#shared/format/numbers.ts';
import type { TableReport } from '#shared/reports/table-report.ts';

export interface RebatesReportInput {
  portfolio: string;
  grouping: RebateGroupBy;
  /** A month key, or null for All Months. */
  month: string | null;
  rows: readonly RebateAggregate[];
  summary: readonly RebateCurrencySummary[];
  note?: string;
}

/** The rebates report (docs/product.md#constants): summary by currency and the rows of the table, in the screen's order. */
export function rebatesReport(input: RebatesReportInput): TableReport {
  const byAccount = input.grouping === 'account';
  const money = formatRebateMoney;
  return {
    fileName: rebatesReportFileName(input.portfolio, input.grouping, input.month),
    title: `Rebates - ${input.portfolio}`,
    period: `${input.month === null ? 'All Months' : monthLabel(input.month)}, by ${byAccount ? 'account' : 'broker'}`,
    note: input.note,
    summaryTitle: 'Summary by currency',
    summary: {
      head: ['Currency', 'Balance', 'Rebates', 'Overall % Rebate', 'Profit Sharing'],
      body: input.summary.map((s) => [
        s.currency,
        money(s.balance, s.currency),
        money(s.totalRebate, s.currency),
        formatPercent(s.rebatePercentage),
        money(s.totalProfitSharing, s.currency),
      ]),
      rightAligned: [1, 2, 3, 4],
    },
    detailTitle: byAccount ? 'Rebates by account' : 'Rebates by broker',
    detail: {
      head: [
        ...(byAccount ? ['Broker'] : []),
        byAccount ? 'Account' : 'Broker',
        'Balance',
        'Total Rebate',
        '% Rebate',
        'Profit Sharing',
        'Currency',
      ],
      body: input.rows.map((row) => [
        ...(byAccount ? [row.brokerName] : []),
        row.name,
        money(row.balance, row.currency),
        money(row.totalRebate, row.currency),
        formatPercent(row.rebatePercentage),
        money(row.totalProfitSharing, row.currency),
        row.currency,
      ]),
      rightAligned: byAccount ? [2, 3, 4, 5] : [1, 2, 3, 4],
    },
  };
}
