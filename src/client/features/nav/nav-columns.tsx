/* The NAV accounts' columns, for the table, the cards and the CSV file, with each row's freshness dot. */
import { isFresh } from '#shared/domain/freshness.ts';
import type { NavViewRow } from '#shared/domain/nav-view.ts';
import { formatDateFr } from '#shared/format/dates.ts';
import { formatNavMoney } from '#shared/format/money.ts';
import { csvDateTime, csvNumber, type CsvColumn } from '#client/export/csv-table.ts';
import { BrokerIcon } from '#client/ui/broker-icon.tsx';
import { toneOf } from '#client/ui/figure-list.tsx';
import type { TableColumn } from '#client/ui/sortable-table.tsx';
import { brokerNavColumns, brokerNavCsvColumns, type BrokerNavKey, type NavScreenRow } from './broker-nav.tsx';

export type NavColumnKey = 'broker_name' | 'account_name' | 'balance' | 'equity' | 'pnl' | BrokerNavKey;

/** Green when the account reported within its freshness window, grey otherwise; the time in its label. */
export function FreshnessDot({ lastUpdate, now }: { lastUpdate: number | null; now: number }) {
  const fresh = isFresh(lastUpdate, now);
  const when = lastUpdate === null ? 'never' : formatDateFr(lastUpdate);
  const label = fresh ? `Live, updated ${when}` : `No recent update, last ${when}`;
  return <span className={fresh ? 'nav-dot nav-dot-fresh' : 'nav-dot nav-dot-stale'} data-fresh={fresh} role="img" aria-label={label} title={label} />;
}

function moneyClass(value: number | null): string | undefined {
  const tone = toneOf(value);
  return tone ? `nav-${tone}` : undefined;
}

/** The columns in view: Live P/L and the freshness dots in real time only, the broker's NAV where a statement gave it. */
export function navColumns(realtime: boolean, now: number, brokerNav: boolean): TableColumn<NavScreenRow, NavColumnKey>[] {
  return [
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
}

/** The accounts table as on screen, figures unformatted; the currency and the freshness dot's time as columns of their own. */
export function navCsvColumns(realtime: boolean, brokerNav: boolean): CsvColumn<NavScreenRow>[] {
  return [
    { title: 'Broker', value: (row) => row.broker_name },
    { title: 'Account Name', value: (row) => row.account_name },
    { title: 'Balance', value: (row) => csvNumber(row.balance) },
    { title: 'Equity', value: (row) => csvNumber(row.equity) },
    ...(realtime ? [{ title: 'Live P/L', value: (row: NavViewRow) => csvNumber(row.pnl) }] : []),
    ...(brokerNav ? brokerNavCsvColumns : []),
    { title: 'Currency', value: (row) => row.currency },
    ...(realtime ? [{ title: 'Last update', value: (row: NavViewRow) => csvDateTime(row.last_update) }] : []),
  ];
}
