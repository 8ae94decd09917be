import type { NavRow } from '#shared/contract/nav.ts';
import { navRowId } from '#shared/domain/nav-rules.ts';
import type { NavViewRow } from '#shared/domain/nav-view.ts';
import { formatNavMoney } from '#shared/format/money.ts';
import { MISSING_VALUE } from '#shared/format/numbers.ts';
import { csvNumber, type CsvColumn } from '#client/export/csv-table.ts';
import type { CardField } from '#client/ui/card-list.tsx';
import type { TableColumn } from '#client/ui/sortable-table.tsx';

/**
 * The broker's own NAV of an end-of-day row, where its statement states it (an Interactive Brokers
 * EquitySummary), and the books' equity minus it. The shared view rows do not carry them, so the
 * screen joins them back from the month's rows by the same id (navRowId); real-time rows have none.
 */
export type NavScreenRow = NavViewRow & { broker_equity: number | null; broker_difference: number | null };

export type BrokerNavKey = 'broker_equity' | 'broker_difference';

/** The view rows with their broker NAV from the month's rows (none for real-time rows or a day without statement). */
export function withBrokerNav(rows: readonly NavViewRow[], source: readonly NavRow[] | undefined): NavScreenRow[] {
  const byId = new Map((source ?? []).map((r) => [navRowId(r.account_id, r.date_id, r.date_day), r]));
  return rows.map((row) => {
    const found = byId.get(row.id);
    return { ...row, broker_equity: found?.broker_equity ?? null, broker_difference: found?.broker_difference ?? null };
  });
}

/** Whether any row in view has a broker NAV: only then are its columns shown. */
export const hasBrokerNav = (rows: readonly NavScreenRow[]): boolean => rows.some((r) => r.broker_equity !== null);

const money = (value: number | null, currency: string) => (value === null ? MISSING_VALUE : formatNavMoney(value, currency));

/** 'Broker NAV' and 'Difference' (equity − broker NAV): two columns on a large screen. */
export const brokerNavColumns: readonly TableColumn<NavScreenRow, BrokerNavKey>[] = [
  {
    key: 'broker_equity',
    header: 'Broker NAV',
    tooltip: { description: "The broker's own net asset value of the day, from its statement.", example: '10.250,00 €' },
    align: 'right',
    render: (row) => money(row.broker_equity, row.currency),
  },
  {
    key: 'broker_difference',
    header: 'Difference',
    tooltip: { description: "Equity in the books minus the broker's NAV of the day.", example: '-2,40 €' },
    align: 'right',
    render: (row) => money(row.broker_difference, row.currency),
  },
];

export const isBrokerNavKey = (key: string): key is BrokerNavKey => key === 'broker_equity' || key === 'broker_difference';

/** On a phone's card, one line: 'Broker NAV  10.252,40 €' with 'Difference -2,40 €' under the amount ('—' for a row without). */
export const brokerNavCardField: CardField<NavScreenRow> = {
  key: 'broker_nav',
  label: 'Broker NAV',
  render: (row) =>
    row.broker_equity === null ? (
      MISSING_VALUE
    ) : (
      <span className="nav-broker-nav">
        <span>{money(row.broker_equity, row.currency)} </span>
        <span className="nav-broker-difference">Difference {money(row.broker_difference, row.currency)}</span>
      </span>
    ),
};

export const brokerNavCsvColumns: readonly CsvColumn<NavScreenRow>[] = [
  { title: 'Broker NAV', value: (row) => csvNumber(row.broker_equity) },
  { title: 'Difference', value: (row) => csvNumber(row.broker_difference) },
];
