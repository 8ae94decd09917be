/* The phone's cards of live positions: tap for details, swipe left for Edit and Close, drawn a few at a time. */
import { memo, useRef, useState, type PointerEvent } from 'react';
import type { Position } from '#shared/contract/positions.ts';
import { formatPrice, formatQuantity } from '#shared/format/numbers.ts';
import { formatDateFr } from '#shared/format/dates.ts';
import { FlipList } from '#client/ui/flip-list.tsx';
import { ExpandableTradeCard, TradeCard, type TradeDetail } from '#client/ui/trade-card.tsx';
import { useSteppedCount } from '#client/ui/use-staged-mount.ts';
import { asOfDetail } from '#client/ui/as-of-label.tsx';
import { isUnconfirmed, UNCONFIRMED_TITLE } from '#client/ui/unconfirmed-label.tsx';
import { formatExcursion, itemKey, positionKey } from './live-model.ts';
import { Actions, GroupHeading, type ListBodyProps, PendingEdit, type RowProps, noOrders, sameShown } from './live-parts.tsx';
import { positionFace } from '#client/ui/live-trades.tsx';


/** What a tap opens: the table's other columns, under their labels (docs/product.md#screens). */
function positionDetails(p: Position): TradeDetail[] {
  return [
    { key: 'date', label: 'Date', value: formatDateFr(p.time), wide: true },
    ...(p.as_of === undefined ? [] : [{ key: 'as-of', label: 'Figures as of', value: asOfDetail(p.as_of), wide: true }]),
    ...(p.unconfirmed_since === undefined ? [] : [{ key: 'unconfirmed', label: 'Unconfirmed since', value: formatDateFr(p.unconfirmed_since), wide: true }]),
    { key: 'q', label: 'Q', value: formatQuantity(p.quantity) },
    { key: 'ep', label: 'EP', value: formatPrice(p.price_open, p.u_symbol) },
    { key: 'be', label: 'BE', value: formatPrice(p.breakeven, p.u_symbol) },
    { key: 'sl', label: 'SL', value: formatPrice(p.sl, p.u_symbol), cell: 'sl' },
    { key: 'tp', label: 'TP', value: formatPrice(p.tp, p.u_symbol), cell: 'tp' },
    { key: 'mae', label: 'Median MAE', value: formatExcursion(p.medianMae, p) },
    { key: 'mfe', label: 'Median MFE', value: formatExcursion(p.medianMfe, p) },
  ];
}

const ACTIONS_WIDTH = 176;
/** How far past its stops the card still follows the finger (a rubber band), and the move that opens or shuts it. */
const ELASTIC = 0.08;
const SWIPE_THRESHOLD = 40;

/** Where the card sits for a drag of dx pixels from `from`, held between shut (0) and open (-ACTIONS_WIDTH). */
function dragOffset(from: number, dx: number): number {
  const x = from + dx;
  if (x > 0) return x * ELASTIC;
  if (x < -ACTIONS_WIDTH) return -ACTIONS_WIDTH + (x + ACTIONS_WIDTH) * ELASTIC;
  return x;
}

/**
 * A card that slides left (drag or swipe) to reveal Edit and Close. Plain pointer events and a CSS
 * transition: a drag library would measure every card's layout on mount, and a phone lists many.
 * A tap opens the details in place, with Edit and Close under them: the way in for a keyboard or a
 * screen reader, which cannot swipe. While the details are open the card does not slide, so each
 * action is on screen once.
 */
function SwipeCard({ p, onEdit, onClose }: RowProps) {
  const [open, setOpen] = useState(false);
  const [expanded, setExpanded] = useState(false);
  const [dragX, setDragX] = useState<number | null>(null);
  const drag = useRef<{ pointer: number; startX: number; startY: number; horizontal: boolean | null } | null>(null);
  const rest = open ? -ACTIONS_WIDTH : 0;

  const end = (event: PointerEvent<HTMLDivElement>, cancelled: boolean) => {
    const d = drag.current;
    if (d?.pointer !== event.pointerId) return;
    drag.current = null;
    setDragX(null);
    if (cancelled || !d.horizontal) return;
    const dx = event.clientX - d.startX;
    if (dx < -SWIPE_THRESHOLD) setOpen(true);
    else if (dx > SWIPE_THRESHOLD) setOpen(false);
  };

  return (
    <div className="summary-swipe" data-open={open}>
      {expanded ? null : (
        <div className="summary-swipe-actions" onFocus={() => setOpen(true)}>
          <Actions p={p} onEdit={onEdit} onClose={onClose} />
        </div>
      )}
      <div
        className="summary-swipe-front"
        data-dragging={dragX !== null}
        style={{ transform: `translateX(${dragX ?? rest}px)` }}
        onPointerDown={(event) => {
          if (expanded || (event.pointerType === 'mouse' && event.button !== 0)) return;
          drag.current = { pointer: event.pointerId, startX: event.clientX, startY: event.clientY, horizontal: null };
        }}
        onPointerMove={(event) => {
          const d = drag.current;
          if (d?.pointer !== event.pointerId) return;
          const dx = event.clientX - d.startX;
          const dy = event.clientY - d.startY;
          // Lock to the first clear direction, as a vertical scroll must not move the card.
          if (d.horizontal === null) {
            if (Math.abs(dx) < 3 && Math.abs(dy) < 3) return;
            d.horizontal = Math.abs(dx) > Math.abs(dy);
            if (d.horizontal) event.currentTarget.setPointerCapture(event.pointerId);
          }
          if (d.horizontal) setDragX(dragOffset(rest, dx));
        }}
        onPointerUp={(event) => end(event, false)}
        onPointerCancel={(event) => end(event, true)}
      >
        <TradeCard
          face={positionFace(p)}
          details={positionDetails(p)}
          expanded={expanded}
          // A tap on a slid card shuts it, as in a mail list, rather than opening its details.
          onToggle={() => (open ? setOpen(false) : setExpanded((shown) => !shown))}
          actions={<Actions p={p} onEdit={onEdit} onClose={onClose} />}
        />
      </div>
    </div>
  );
}

const LiveCard = memo(
  function LiveCard({ child, ...props }: RowProps & { child?: boolean }) {
    return (
      <li
        className={['summary-live-card', isUnconfirmed(props.p) ? 'ui-unconfirmed-card' : '', child ? 'summary-group-child' : ''].filter(Boolean).join(' ')}
        data-position={positionKey(props.p)}
        data-entry={props.p.price_open}
        title={isUnconfirmed(props.p) ? UNCONFIRMED_TITLE : undefined}
      >
        {/* A statement's position, or an unconfirmed one, takes no order: no swipe, no Edit or Close. */}
        {props.canWrite && !noOrders(props.p) ? (
          <SwipeCard {...props} />
        ) : (
          <ExpandableTradeCard face={positionFace(props.p)} details={positionDetails(props.p)} />
        )}
        <PendingEdit p={props.p} />
      </li>
    );
  },
  (a, b) => a.canWrite === b.canWrite && a.child === b.child && a.onEdit === b.onEdit && a.onClose === b.onClose && sameShown(a.p, b.p),
);

/** What a tap and a swipe do on the phone's cards, above the list. */
export function CardsHint({ canWrite }: { canWrite: boolean }) {
  return (
    <p className="ui-trade-hint">{canWrite ? 'Newest first · tap for details, swipe left to Edit or Close' : 'Newest first · tap a position for its details'}</p>
  );
}

/** Cards a phone's screen holds at once: the first step of the list. */
const CARDS_PER_STEP = 3;

/**
 * The phone's card list. The first cards are drawn with the feed's first snapshot and the others
 * follow a few at a time, each step in a task of its own: drawing a dozen cards (some 30 elements
 * each) in one commit and layout was one of the longest tasks of Summary's load.
 */
export function LiveCards({ rows, canWrite, onEdit, onClose, label, onToggle }: Omit<ListBodyProps, 'maxHeight'>) {
  const shown = rows.slice(0, useSteppedCount(rows.length, CARDS_PER_STEP, CARDS_PER_STEP));
  const keys = shown.map(itemKey);
  // While the cards are drawn a few at a time the list keeps the height of all of them (each card is
  // one row high and 1 px of border apart), so what lies below does not move with each step.
  const reserve = shown.length < rows.length ? { minHeight: `calc(${rows.length} * (var(--ui-trade-row-height) + 1px) + 1px)` } : undefined;
  // Newest first: a position that opens or closes moves the cards below it, which slide there.
  return (
    <>
      <CardsHint canWrite={canWrite} />
      <FlipList keys={keys} className="ui-trade-list summary-live-cards" style={reserve} aria-label={label}>
        {shown.map((item, i) =>
          item.kind === 'group' ? (
            <li key={keys[i]} className="summary-group-card" data-group={item.group.key}>
              <GroupHeading group={item.group} open={item.open} onToggle={onToggle} />
            </li>
          ) : (
            <LiveCard key={keys[i]} p={item.p} child={item.child} canWrite={canWrite} onEdit={onEdit} onClose={onClose} />
          ),
        )}
      </FlipList>
    </>
  );
}
