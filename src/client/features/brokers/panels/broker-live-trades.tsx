import type { Position } from '#shared/contract/positions.ts';
import { SKELETON_ROWS, SKELETON_ROWS_MOBILE } from '#shared/domain/constants.ts';
import { formatDateFr } from '#shared/format/dates.ts';
import { formatMoney } from '#shared/format/money.ts';
import { formatPrice, formatQuantity } from '#shared/format/numbers.ts';
import { CardList, columnsToFields } from '#client/ui/card-list.tsx';
import { SectionPanel } from '#client/ui/section-panel.tsx';
import { SkeletonRows } from '#client/ui/skeleton.tsx';
import { SortableTable, type TableColumn } from '#client/ui/sortable-table.tsx';
import { ErrorState } from '#client/ui/states.tsx';
import { CardHeading, Instrument, signedClass } from '#client/ui/trade-cells.tsx';

export const NO_LIVE_TRADES = 'No live trades.';

const positionKey = (p: Position) => `${p.login}|${p.u_symbol}|${p.type}`;

const columns: TableColumn<Position>[] = [
  { key: 'time', header: 'Date', render: (p) => formatDateFr(p.time) },
  { key: 'u_symbol', header: 'Ins', render: (p) => <Instrument symbol={p.u_symbol} type={p.type} /> },
  { key: 'quantity', header: 'Quantity', align: 'right', render: (p) => formatQuantity(p.quantity) },
  { key: 'price_open', header: 'Price', align: 'right', render: (p) => formatPrice(p.price_open) },
  {
    key: 'profit',
    header: 'P/L',
    align: 'right',
    render: (p) => <span className={signedClass(p.profit)}>{formatMoney(p.profit, p.currency)}</span>,
  },
  { key: 'account_name', header: 'Acc', render: (p) => p.account_name },
  { key: 'server', header: 'Ser', render: (p) => p.server },
];

export interface BrokerLiveTradesProps {
  positions: readonly Position[] | null;
  error: string | null;
  wide: boolean;
}

/** The broker's open positions per account from the broker-mode feed (SPEC §2, §7); an error stops the loading state. */
export function BrokerLiveTrades({ positions, error, wide }: BrokerLiveTradesProps) {
  let body;
  if (positions === null && error !== null) body = <ErrorState>{error}</ErrorState>;
  else if (positions === null)
    body = <SkeletonRows rows={wide ? SKELETON_ROWS : SKELETON_ROWS_MOBILE} columns={wide ? 7 : 2} label="Loading live trades..." />;
  else if (wide)
    body = (
      <SortableTable
        columns={columns}
        rows={positions}
        rowKey={positionKey}
        emptyText={NO_LIVE_TRADES}
        label="Live trades"
        defaultSort={{ key: 'time', direction: 'desc' }}
      />
    );
  else
    body = (
      <CardList
        items={positions}
        itemKey={positionKey}
        label="Live trades"
        emptyText={NO_LIVE_TRADES}
        title={(p) => (
          <CardHeading date={formatDateFr(p.time)}>
            <Instrument symbol={p.u_symbol} type={p.type} />
          </CardHeading>
        )}
        fields={columnsToFields(columns.slice(2))}
      />
    );
  return (
    <SectionPanel title="Live trades" className="broker-live-trades">
      <div
        data-testid="live-trades"
        data-state={positions === null ? (error === null ? 'loading' : 'error') : 'live'}
        data-brokers={positions === null ? '' : [...new Set(positions.map((p) => p.broker_name))].join(',')}
      >
        {body}
      </div>
    </SectionPanel>
  );
}
