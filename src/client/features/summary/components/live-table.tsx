/* The desktop table of live positions: virtualised past 40 rows, each column header with its tooltip. */
import { memo, useRef } from 'react';
import { useVirtualizer } from '@tanstack/react-virtual';
import { formatPrice, formatQuantity } from '#shared/format/numbers.ts';
import { formatDateFr } from '#shared/format/dates.ts';
import { AsOfLabel } from '#client/ui/as-of-label.tsx';
import { isUnconfirmed, UnconfirmedLabel, UNCONFIRMED_TITLE } from '#client/ui/unconfirmed-label.tsx';
import { Tooltip, type TooltipContent } from '#client/ui/tooltip.tsx';
import { type ListItem, NO_LIVE_POSITIONS, STATEMENT_ONLY, formatExcursion, itemKey, positionKey } from './live-model.ts';
import { Actions, Direction, GroupHeading, type ListBodyProps, PendingEdit, PlCell, type RowProps, fromStatement, noOrders, sameShown } from './live-parts.tsx';

/** Column headers with their 700 ms tooltips (docs/product.md#screens): a description and an example. */
const COLUMN_HELP: Record<string, { label: string; help: TooltipContent }> = {
  date: { label: 'Date', help: { description: 'When the position was opened (your time zone).', example: '05/03/2026 14:07' } },
  ins: { label: 'Ins/Dir', help: { description: 'Instrument and direction, with the account holding it.', example: 'EURUSD Buy' } },
  q: { label: 'Q', help: { description: 'Quantity: lots for forex, shares for equities.', example: '1,5 = 150 000 EUR of EURUSD' } },
  price: { label: 'Price', help: { description: 'The current price of the instrument.', example: '1.08720' } },
  pl: {
    label: 'P/L',
    help: {
      description: 'Floating profit or loss in the account currency, with the entry price (EP) and the breakeven after costs (BE).',
      example: '-120,50 $ · EP 1.08500 · BE 1.08530',
    },
  },
  sl: { label: 'SL', help: { description: 'Stop loss: the price at which the position closes to limit a loss.', example: '1.08300' } },
  tp: { label: 'TP', help: { description: 'Take profit: the price at which the position closes to take its gain.', example: '1.08950' } },
  mae: {
    label: 'Median MAE',
    help: { description: 'Median maximum adverse excursion of this symbol’s closed trades: how far they went against the entry (pips for forex, price for shares).', example: '20,0 pips · 1,35' },
  },
  mfe: {
    label: 'Median MFE',
    help: { description: 'Median maximum favourable excursion of this symbol’s closed trades: how far they went in favour (pips for forex, price for shares).', example: '45,0 pips · 2,10' },
  },
  action: { label: 'Action', help: { description: 'Edit take profit and stop loss, or close the position.', example: 'Edit · Close' } },
};

const VIRTUAL_FROM = 40;
const ROW_HEIGHT = 58;



const LiveRow = memo(
  function LiveRow({ p, canWrite, onEdit, onClose, child }: RowProps & { child?: boolean }) {
    const cls = [isUnconfirmed(p) ? 'ui-unconfirmed-row' : '', child ? 'summary-group-child' : ''].filter(Boolean).join(' ');
    return (
      <tr data-position={positionKey(p)} data-entry={p.price_open} className={cls || undefined} style={{ height: ROW_HEIGHT }}>
        <td className="summary-col-date">{formatDateFr(p.time)}</td>
        <td>
          <div className="summary-ins">
            <span>
              <strong>{p.u_symbol}</strong> <Direction type={p.type} />
              <AsOfLabel at={p.as_of} />
              <UnconfirmedLabel since={p.unconfirmed_since} />
            </span>
            <span className="summary-sub">{p.account_name}</span>
            <PendingEdit p={p} />
          </div>
        </td>
        <td className="ui-align-right">{formatQuantity(p.quantity)}</td>
        <td className="ui-align-right" data-cell="price">
          {formatPrice(p.price_current, p.u_symbol)}
        </td>
        <td className="ui-align-right" data-cell="pl">
          <PlCell p={p} />
        </td>
        <td className="ui-align-right" data-cell="sl">
          {formatPrice(p.sl, p.u_symbol)}
        </td>
        <td className="ui-align-right" data-cell="tp">
          {formatPrice(p.tp, p.u_symbol)}
        </td>
        <td className="ui-align-right summary-col-mae">{formatExcursion(p.medianMae, p)}</td>
        <td className="ui-align-right summary-col-mfe">{formatExcursion(p.medianMfe, p)}</td>
        {canWrite ? (
          <td>
            {noOrders(p) ? (
              <span className="summary-sub" title={fromStatement(p) ? STATEMENT_ONLY : UNCONFIRMED_TITLE}>
                No orders
              </span>
            ) : (
              <div className="summary-actions">
                <Actions p={p} onEdit={onEdit} onClose={onClose} />
              </div>
            )}
          </td>
        ) : null}
      </tr>
    );
  },
  (a, b) => a.canWrite === b.canWrite && a.child === b.child && a.onEdit === b.onEdit && a.onClose === b.onClose && sameShown(a.p, b.p),
);

function HeaderCell({ id, align }: { id: keyof typeof COLUMN_HELP; align?: 'right' }) {
  const column = COLUMN_HELP[id];
  if (!column) return null;
  return (
    <th scope="col" className={[align === 'right' ? 'ui-align-right' : '', `summary-col-${id}`].filter(Boolean).join(' ')}>
      <Tooltip description={column.help.description} example={column.help.example}>
        {column.label}
      </Tooltip>
    </th>
  );
}


export function LiveTable({ rows, canWrite, onEdit, onClose, label, maxHeight, onToggle }: ListBodyProps) {
  const scrollRef = useRef<HTMLDivElement>(null);
  const virtual = rows.length >= VIRTUAL_FROM;
  // The virtualizer's functions are read during this render only; nothing memoised holds them.
  // eslint-disable-next-line react-hooks/incompatible-library
  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: 8,
    enabled: virtual,
    initialRect: { width: 1000, height: 600 },
  });
  const items = virtual ? virtualizer.getVirtualItems() : [];
  const first = items[0];
  const last = items.at(-1);
  const top = virtual && first ? first.start : 0;
  const bottom = virtual && last ? virtualizer.getTotalSize() - last.end : 0;
  const visible = virtual ? items.map((item) => rows[item.index]).filter((p): p is ListItem => p !== undefined) : rows;
  const columns = canWrite ? 10 : 9;

  return (
    <div ref={scrollRef} className="ui-table-scroll summary-live-scroll" style={maxHeight ? { maxHeight } : undefined} role="region" aria-label={label} tabIndex={0}>
      <table className="ui-table summary-live-table" aria-label={label} aria-rowcount={rows.length + 1}>
        <thead>
          <tr>
            <HeaderCell id="date" />
            <HeaderCell id="ins" />
            <HeaderCell id="q" align="right" />
            <HeaderCell id="price" align="right" />
            <HeaderCell id="pl" align="right" />
            <HeaderCell id="sl" align="right" />
            <HeaderCell id="tp" align="right" />
            <HeaderCell id="mae" align="right" />
            <HeaderCell id="mfe" align="right" />
            {canWrite ? <HeaderCell id="action" /> : null}
          </tr>
        </thead>
        <tbody>
          {rows.length === 0 ? (
            <tr>
              <td className="ui-table-empty" colSpan={columns}>
                {NO_LIVE_POSITIONS}
              </td>
            </tr>
          ) : (
            <>
              {top > 0 ? (
                <tr aria-hidden="true">
                  <td colSpan={columns} style={{ height: top, padding: 0, border: 0 }} />
                </tr>
              ) : null}
              {visible.map((item) =>
                item.kind === 'group' ? (
                  <tr key={itemKey(item)} className="summary-group-row" data-group={item.group.key} style={{ height: ROW_HEIGHT }}>
                    <td colSpan={columns}>
                      <GroupHeading group={item.group} open={item.open} onToggle={onToggle} />
                    </td>
                  </tr>
                ) : (
                  <LiveRow key={itemKey(item)} p={item.p} child={item.child} canWrite={canWrite} onEdit={onEdit} onClose={onClose} />
                ),
              )}
              {bottom > 0 ? (
                <tr aria-hidden="true">
                  <td colSpan={columns} style={{ height: bottom, padding: 0, border: 0 }} />
                </tr>
              ) : null}
            </>
          )}
        </tbody>
      </table>
    </div>
  );
}
