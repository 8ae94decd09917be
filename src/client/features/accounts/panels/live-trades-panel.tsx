import type { Position } from '#shared/contract/positions.ts';
import { SKELETON_ROWS, SKELETON_ROWS_MOBILE } from '#shared/domain/constants.ts';
import { formatDateFr } from '#shared/format/dates.ts';
import { formatMoney } from '#shared/format/money.ts';
import { formatPrice, formatQuantity } from '#shared/format/numbers.ts';
import { CardList, columnsToFields } from '#client/ui/card-list.tsx';
import { SectionPanel } from '#client/ui/section-panel.tsx';
import { SkeletonRows } from '#client/ui/skeleton.tsx';
import { SortableTable, type TableColumn } from '#client/ui/sortable-table.tsx';
import { CardHeading, Instrument, signedClass } from '#client/ui/trade-cells.tsx';

export const NO_LIVE_TRADES = 'No live trades.';

const positionKey = (p: Position) => `${p.login}|${p.u_symbol}|${p.type}`;

const columns: TableColumn<Position>[] = [
  { key: 'time', header: 'Date', render: (p) => formatDateFr(p.time) },
  {
    key: 'u_symbol',
    header: 'Ins/Dir',
    render: (p) => <Instrument symbol={p.u_symbol} type={p.type} />,
  },
  { key: 'quantity', header: 'Q', align: 'right', render: (p) => formatQuantity(p.quantity) },
  { key: 'price_open', header: 'Open', align: 'right', render: (p) => formatPrice(p.price_open) },
  { key: 'price_current', header: 'Current', align: 'right', render: (p) => formatPrice(p.price_current) },
  {
    key: 'profit',
    header: 'P/L',
    align: 'right',
    render: (p) => <span className={signedClass(p.profit)}>{formatMoney(p.profit, p.currency)}</span>,
  },
  { key: 'sl', header: 'SL', align: 'right', render: (p) => formatPrice(p.sl) },
  { key: 'tp', header: 'TP', align: 'right', render: (p) => formatPrice(p.tp) },
];

export interface LiveTradesPanelProps {
  positions: readonly Position[] | null;
  error: string | null;
  wide: boolean;
}

/** The account's open positions from the account-mode feed (SPEC §7); skeleton rows until the first message. */
export function LiveTradesPanel({ positions, error, wide }: LiveTradesPanelProps) {
  let body;
  if (positions === null) {
    body = (
      <>
        <SkeletonRows rows={wide ? SKELETON_ROWS : SKELETON_ROWS_MOBILE} columns={wide ? 6 : 2} label="Loading live trades..." />
        {error ? <p className="panel-note">{error}</p> : null}
      </>
    );
  } else if (wide) {
    body = (
      <SortableTable
        columns={columns}
        rows={positions}
        rowKey={positionKey}
        emptyText={NO_LIVE_TRADES}
        label="Live trades"
        defaultSort={{ key: 'time', direction: 'desc' }}
        rowClassName={() => 'live-row'}
      />
    );
  } else {
    const [, , ...rest] = columns;
    body = (
      <CardList
        items={positions}
        itemKey={positionKey}
        label="Live trades"
        emptyText={NO_LIVE_TRADES}
        className="live-cards"
        title={(p) => (
          <CardHeading date={formatDateFr(p.time)}>
            <Instrument symbol={p.u_symbol} type={p.type} />
          </CardHeading>
        )}
        fields={columnsToFields(rest)}
      />
    );
  }
  return (
    <SectionPanel title="Live trades" className="live-trades-panel">
      <div data-testid="live-trades" data-logins={positions === null ? '' : [...new Set(positions.map((p) => p.login))].join(',')} data-state={positions === null ? 'loading' : 'live'}>
        {body}
      </div>
    </SectionPanel>
  );
}
