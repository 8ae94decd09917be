import type { NavCurrencySummary, NavViewRow } from '#shared/domain/nav-view.ts';
import { navReportFileName } from '#shared/domain/reports.ts';
import { formatNavMoney } from '#shared/format/money.ts';
import type { TableReport } from '#shared/reports/table-report.ts';

export interface NavReportInput {
  portfolio: string;
  /** True for real-time data: the report then has a Live P/L column. */
  realtime: boolean;
  /** 'YYYY-MM-DD' of the data (today for real time, the chosen end-of-day otherwise). */
  date: string;
  /** Shown under the title, e.g. 'Real-Time Data, 05/03/2026 14:07'. */
  period: string;
  rows: readonly NavViewRow[];
  summary: readonly NavCurrencySummary[];
  note?: string;
}

/** The NAV report (docs/product.md#constants): summary by currency and the accounts, in the screen's order. */
export function navReport(input: NavReportInput): TableReport {
  const { realtime } = input;
  const money = formatNavMoney;
  return {
    fileName: navReportFileName(input.portfolio, input.date),
    title: `Net Asset Value - ${input.portfolio}`,
    period: input.period,
    note: input.note,
    summaryTitle: 'Summary by currency',
    summary: {
      head: ['Currency', 'Accounts', 'Balance', 'Equity', ...(realtime ? ['Live P/L'] : [])],
      body: input.summary.map((s) => [
        s.currency,
        String(s.accounts),
        money(s.balance, s.currency),
        money(s.equity, s.currency),
        ...(realtime ? [money(s.pnl, s.currency)] : []),
      ]),
      rightAligned: realtime ? [1, 2, 3, 4] : [1, 2, 3],
    },
    detailTitle: 'Accounts',
    detail: {
      head: ['Broker', 'Account Name', 'Balance', 'Equity', ...(realtime ? ['Live P/L'] : [])],
      body: input.rows.map((row) => [
        row.broker_name,
        row.account_name,
        money(row.balance, row.currency),
        money(row.equity, row.currency),
        ...(realtime ? [money(row.pnl, row.currency)] : []),
      ]),
      rightAligned: realtime ? [2, 3, 4] : [2, 3],
    },
  };
}
