import { memo } from 'react';
import type { Position } from '#shared/contract/positions.ts';
import { formatDateFr } from '#shared/format/dates.ts';
import { formatMoney } from '#shared/format/money.ts';
import { formatPrice, formatQuantity } from '#shared/format/numbers.ts';
import { csvDateTime, csvNumber, type CsvColumn } from '#client/export/csv-table.ts';
import type { CardField } from '#client/ui/card-list.tsx';
import type { TableColumn } from '#client/ui/sortable-table.tsx';
import { PriceMove, TradeStops, TradeTitle, type TradeFace } from '#client/ui/trade-card.tsx';
import { Instrument, signedClass } from '#client/ui/trade-cells.tsx';
import { LiveTrades, type LiveTradesView } from '#client/ui/live-trades.tsx';
import { AsOfLabel } from '#client/ui/as-of-label.tsx';
import { isUnconfirmed, UnconfirmedLabel } from '#client/ui/unconfirmed-label.tsx';

const columns: TableColumn<Position>[] = [
  { key: 'time', header: 'Date', render: (p) => formatDateFr(p.time) },
  {
    key: 'u_symbol',
    header: 'Ins/Dir',
    render: (p) => (
      <>
        <Instrument symbol={p.u_symbol} type={p.type} />
        <AsOfLabel at={p.as_of} />
        <UnconfirmedLabel since={p.unconfirmed_since} />
      </>
    ),
  },
  { key: 'quantity', header: 'Q', align: 'right', render: (p) => formatQuantity(p.quantity) },
  { key: 'price_open', header: 'Open', align: 'right', render: (p) => formatPrice(p.price_open, p.u_symbol) },
  { key: 'price_current', header: 'Current', align: 'right', render: (p) => formatPrice(p.price_current, p.u_symbol) },
  {
    key: 'profit',
    header: 'P/L',
    align: 'right',
    render: (p) => <span className={signedClass(p.profit)}>{formatMoney(p.profit, p.currency)}</span>,
  },
  { key: 'sl', header: 'SL', align: 'right', render: (p) => formatPrice(p.sl, p.u_symbol) },
  { key: 'tp', header: 'TP', align: 'right', render: (p) => formatPrice(p.tp, p.u_symbol) },
];

/** The table's columns for a CSV file: Ins/Dir as two columns, P/L's currency as a column. */
const csvColumns: CsvColumn<Position>[] = [
  { title: 'Date', value: (p) => csvDateTime(p.time) },
  { title: 'Ins', value: (p) => p.u_symbol },
  { title: 'Dir', value: (p) => p.type },
  { title: 'Q', value: (p) => csvNumber(p.quantity) },
  { title: 'Open', value: (p) => csvNumber(p.price_open) },
  { title: 'Current', value: (p) => csvNumber(p.price_current) },
  { title: 'P/L', value: (p) => csvNumber(p.profit) },
  { title: 'Currency', value: (p) => p.currency },
  { title: 'SL', value: (p) => csvNumber(p.sl) },
  { title: 'TP', value: (p) => csvNumber(p.tp) },
];

/**
 * A phone's row: instrument, direction and size; open → current price; P/L with the opening time
 * under it, or for a statement's position the day its figures are from.
 */
const face = (p: Position): TradeFace => ({
  title: <TradeTitle symbol={p.u_symbol} side={p.type} size={formatQuantity(p.quantity)} />,
  subtitle: (
    <>
      <UnconfirmedLabel since={p.unconfirmed_since} />
      <PriceMove from={formatPrice(p.price_open, p.u_symbol)} to={formatPrice(p.price_current, p.u_symbol)} />
    </>
  ),
  stops: <TradeStops sl={formatPrice(p.sl, p.u_symbol)} tp={formatPrice(p.tp, p.u_symbol)} />,
  figure: formatMoney(p.profit, p.currency),
  // An unconfirmed row's P/L is its last known, not live: muted rather than green or red.
  tone: isUnconfirmed(p) ? undefined : p.profit,
  note: p.as_of === undefined ? formatDateFr(p.time) : <AsOfLabel at={p.as_of} />,
});

/** What a tap opens, under the table's labels (the face shows Ins/Dir and P/L). */
const details: CardField<Position>[] = [
  { key: 'time', label: 'Date', render: (p) => formatDateFr(p.time), wide: true },
  { key: 'quantity', label: 'Q', render: (p) => formatQuantity(p.quantity) },
  { key: 'price_open', label: 'Open', render: (p) => formatPrice(p.price_open, p.u_symbol) },
  { key: 'price_current', label: 'Current', render: (p) => formatPrice(p.price_current, p.u_symbol) },
  { key: 'sl', label: 'SL', render: (p) => formatPrice(p.sl, p.u_symbol) },
  { key: 'tp', label: 'TP', render: (p) => formatPrice(p.tp, p.u_symbol) },
];

/** The account's trades: Open and Current prices, SL and TP as columns; the CSV named after the account. */
const view: LiveTradesView = {
  columns,
  csvColumns,
  face,
  details,
  // The account feed's rows are all the chosen account's.
  csvSubject: (rows) => rows[0]?.account_name ?? 'account',
  // docs/product.md#errors: in account mode the feed's errors do not stop the rows; the last ones stay, aged.
  errorStopsLoading: false,
  className: 'live-trades-panel',
  dataOf: (rows) => ({ 'data-logins': rows === null ? '' : [...new Set(rows.map((p) => p.login))].join(',') }),
  rowClassName: 'live-row',
  cardsClassName: 'live-cards',
};

export interface LiveTradesPanelProps {
  positions: readonly Position[] | null;
  error: string | null;
  wide: boolean;
}

/** The account's open positions from the account-mode feed (docs/product.md#calls); skeleton rows until the first message. */
export const LiveTradesPanel = memo(function LiveTradesPanel(props: LiveTradesPanelProps) {
  return <LiveTrades view={view} {...props} />;
});
