import type { Position } from '#shared/contract/positions.ts';
import { formatDateFr } from '#shared/format/dates.ts';
import { formatMoney } from '#shared/format/money.ts';
import { formatPrice, formatQuantity } from '#shared/format/numbers.ts';
import { csvDateTime, csvNumber, type CsvColumn } from '#client/export/csv-table.ts';
import type { CardField } from '#client/ui/card-list.tsx';
import type { TableColumn } from '#client/ui/sortable-table.tsx';
import { PriceMove } from '#client/ui/trade-card.tsx';
import { Instrument, signedClass } from '#client/ui/trade-cells.tsx';
import { LiveTrades, positionFace, type LiveTradesView } from '#client/ui/live-trades.tsx';
import { AsOfLabel } from '#client/ui/as-of-label.tsx';
import { UnconfirmedLabel } from '#client/ui/unconfirmed-label.tsx';

const columns: TableColumn<Position>[] = [
  { key: 'time', header: 'Date', render: (p) => formatDateFr(p.time) },
  {
    key: 'u_symbol',
    header: 'Ins',
    render: (p) => (
      <>
        <Instrument symbol={p.u_symbol} type={p.type} />
        <AsOfLabel at={p.as_of} />
        <UnconfirmedLabel since={p.unconfirmed_since} />
      </>
    ),
  },
  { key: 'quantity', header: 'Quantity', align: 'right', render: (p) => formatQuantity(p.quantity) },
  // The entry price and, after the arrow, the current one: the table keeps the product's seven
  // columns and still shows where the market is (sorted by the entry price).
  {
    key: 'price_open',
    header: 'Price',
    align: 'right',
    render: (p) => <PriceMove from={formatPrice(p.price_open, p.u_symbol)} to={formatPrice(p.price_current, p.u_symbol)} />,
  },
  {
    key: 'profit',
    header: 'P/L',
    align: 'right',
    render: (p) => <span className={signedClass(p.profit)}>{formatMoney(p.profit, p.currency)}</span>,
  },
  { key: 'account_name', header: 'Acc', render: (p) => p.account_name },
  { key: 'server', header: 'Ser', render: (p) => p.server },
];

/** The table's columns for a CSV file: Ins split into instrument and direction, P/L's currency as a column. */
const csvColumns: CsvColumn<Position>[] = [
  { title: 'Date', value: (p) => csvDateTime(p.time) },
  { title: 'Ins', value: (p) => p.u_symbol },
  { title: 'Dir', value: (p) => p.type },
  { title: 'Quantity', value: (p) => csvNumber(p.quantity) },
  { title: 'Price', value: (p) => csvNumber(p.price_open) },
  { title: 'P/L', value: (p) => csvNumber(p.profit) },
  { title: 'Currency', value: (p) => p.currency },
  { title: 'Acc', value: (p) => p.account_name },
  { title: 'Ser', value: (p) => p.server },
];

/** What a tap opens, under the table's labels (the face shows Ins and P/L). */
const details: CardField<Position>[] = [
  { key: 'time', label: 'Date', render: (p) => formatDateFr(p.time), wide: true },
  { key: 'quantity', label: 'Quantity', render: (p) => formatQuantity(p.quantity) },
  { key: 'price_open', label: 'Price', render: (p) => formatPrice(p.price_open, p.u_symbol) },
  { key: 'account_name', label: 'Acc', render: (p) => p.account_name, wide: true },
  { key: 'server', label: 'Ser', render: (p) => p.server },
];

/** The broker's trades, in the product's seven columns; the CSV named after the broker. */
const view: LiveTradesView = {
  columns,
  csvColumns,
  face: positionFace,
  details,
  // The broker feed's rows are all the chosen broker's.
  csvSubject: (rows) => rows[0]?.broker_name ?? 'broker',
  // docs/product.md#errors: in broker mode an error stops the loading state (the banner says why, with a Retry).
  errorStopsLoading: true,
  className: 'broker-live-trades',
  dataOf: (rows) => ({ 'data-brokers': rows === null ? '' : [...new Set(rows.map((p) => p.broker_name))].join(',') }),
};

export interface BrokerLiveTradesProps {
  positions: readonly Position[] | null;
  error: string | null;
  wide: boolean;
}

/** The broker's open positions per account from the broker-mode feed (docs/product.md#screens, §7). */
export function BrokerLiveTrades(props: BrokerLiveTradesProps) {
  return <LiveTrades view={view} {...props} />;
}
