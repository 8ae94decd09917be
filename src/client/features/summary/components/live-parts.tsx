/* The pieces the table and the cards share: a group's heading, the list's total, a row's P/L, its actions. */
import type { Position } from '#shared/contract/positions.ts';
import { formatMoney } from '#shared/format/money.ts';
import { formatPrice } from '#shared/format/numbers.ts';
import { useOfflineStatus } from '#client/offline/offline-status.ts';
import { CLOSE_NEEDS_CONNECTION, entryChange, pendingForPosition } from '#client/offline/outbox.ts';
import { PendingNote } from '#client/offline/outbox-review.tsx';
import { useOutbox } from '#client/offline/outbox-store.ts';
import { isUnconfirmed } from '#client/ui/unconfirmed-label.tsx';
import type { Side } from '#shared/domain/side.ts';
import { type ListItem, type LivePositionsProps, PORTFOLIO_CURRENCY, type TradeGroup, floatingTotal, groupLabel } from './live-model.ts';

/** A group's heading: the trade, how many positions, and their total P/L; a tap folds the copies. */
export function GroupHeading({ group, open, onToggle }: { group: TradeGroup; open: boolean; onToggle: (key: string) => void }) {
  const tone = group.total > 0 ? 'summary-pos' : group.total < 0 ? 'summary-neg' : undefined;
  return (
    <button
      type="button"
      className="summary-group-toggle"
      aria-expanded={open}
      onClick={() => onToggle(group.key)}
      aria-label={`${group.symbol} ${group.type}: ${groupLabel(group)}, total ${formatMoney(group.total, PORTFOLIO_CURRENCY)}. ${open ? 'Hide' : 'Show'} them`}
    >
      <span className="summary-group-chevron" aria-hidden="true">
        {open ? '▾' : '▸'}
      </span>
      <span className="summary-group-title">
        <strong>{group.symbol}</strong> <Direction type={group.type} /> <span className="summary-sub">{groupLabel(group)}</span>
      </span>
      <span className={`summary-group-total ${tone ?? ''}`}>{formatMoney(group.total, PORTFOLIO_CURRENCY)}</span>
    </button>
  );
}

/** The list's total floating P/L in the portfolio's currency, above its rows. */
export function ListTotal({ rows }: { rows: readonly Position[] }) {
  const total = floatingTotal(rows);
  const tone = total > 0 ? 'summary-pos' : total < 0 ? 'summary-neg' : undefined;
  return (
    <p className="summary-live-total" data-testid="live-total">
      <span>
        Floating P/L, {rows.length} {rows.length === 1 ? 'position' : 'positions'}
      </span>
      <strong className={tone} data-total={total}>
        {formatMoney(total, PORTFOLIO_CURRENCY)}
      </strong>
    </p>
  );
}

export function Direction({ type }: { type: Side }) {
  return <span className={`summary-dir summary-dir-${type.toLowerCase()}`}>{type}</span>;
}

function Profit({ p }: { p: Position }) {
  const cls = p.profit > 0 ? 'summary-pos' : p.profit < 0 ? 'summary-neg' : undefined;
  return <span className={cls}>{formatMoney(p.profit, p.currency)}</span>;
}

export function PlCell({ p }: { p: Position }) {
  return (
    <div className="summary-pl">
      <Profit p={p} />
      <span className="summary-sub">
        EP {formatPrice(p.price_open, p.u_symbol)} · BE {formatPrice(p.breakeven, p.u_symbol)}
      </span>
    </div>
  );
}

/** A TP/SL change of this row kept while offline (docs/client.md, "Edits made offline"). */
export function PendingEdit({ p }: { p: Position }) {
  const pending = pendingForPosition(useOutbox(), p);
  return pending ? <PendingNote detail={entryChange(pending)} /> : null;
}

/** A row known from a broker's statements only (`as_of`): its figures are that day's and no order reaches it. */
export const fromStatement = (p: Position): boolean => p.as_of !== undefined;

/**
 * Rows that take no order: a statement's, and an unconfirmed one (its terminal no longer reports it:
 * there may be nothing left to close or to edit).
 */
export const noOrders = (p: Position): boolean => fromStatement(p) || isUnconfirmed(p);

/** Edit, and Close: disabled offline, as a close is never kept to be sent later. */
export function Actions({ p, onEdit, onClose }: { p: Position; onEdit?: (p: Position) => void; onClose?: (p: Position) => void }) {
  const { browserOnline } = useOfflineStatus();
  return (
    <>
      <button type="button" className="button summary-action" onClick={() => onEdit?.(p)} aria-label={`Edit ${p.u_symbol} ${p.type} of ${p.account_name}`}>
        Edit
      </button>
      <button
        type="button"
        className="button summary-action summary-action-danger"
        onClick={() => onClose?.(p)}
        aria-label={`Close ${p.u_symbol} ${p.type} of ${p.account_name}`}
        disabled={!browserOnline}
        title={browserOnline ? undefined : CLOSE_NEEDS_CONNECTION}
      >
        Close
      </button>
    </>
  );
}


export interface RowProps {
  p: Position;
  canWrite: boolean;
  onEdit?: (p: Position) => void;
  onClose?: (p: Position) => void;
}

export interface ListBodyProps extends Pick<LivePositionsProps, 'canWrite' | 'onEdit' | 'onClose' | 'label' | 'maxHeight'> {
  rows: ListItem[];
  onToggle: (key: string) => void;
}

/** Fields a row shows; a row re-renders only when one of them changed. */
const SHOWN: readonly (keyof Position)[] = [
  'time', 'u_symbol', 'type', 'account_name', 'quantity', 'profit', 'currency', 'price_open', 'price_current', 'breakeven', 'sl', 'tp', 'medianMae', 'medianMfe', 'as_of', 'unconfirmed_since',
];
export const sameShown = (a: Position, b: Position) => SHOWN.every((k) => a[k] === b[k]);
