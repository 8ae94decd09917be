import { memo, useCallback, useMemo, useRef, useState, type PointerEvent } from 'react';
import { useVirtualizer } from '@tanstack/react-virtual';
import type { Position } from '#shared/contract/positions.ts';
import { SKELETON_ROWS, SKELETON_ROWS_MOBILE } from '#shared/domain/constants.ts';
import { DEFAULT_CURRENCY, formatMoney } from '#shared/format/money.ts';
import { formatPrice, formatQuantity, MISSING_VALUE, numberFormat, toFiniteNumber } from '#shared/format/numbers.ts';
import { formatDateFr } from '#shared/format/dates.ts';
import { pipSize } from '#shared/domain/instruments.ts';
import { csvDateTime, csvNumber, type CsvColumn } from '#client/export/csv-table.ts';
import { useOfflineStatus } from '#client/offline/offline-status.ts';
import { CLOSE_NEEDS_CONNECTION, entryChange, pendingForPosition } from '#client/offline/outbox.ts';
import { PendingNote } from '#client/offline/outbox-review.tsx';
import { useOutbox } from '#client/offline/outbox-store.ts';
import { lastLiveUpdate, retryLiveFeeds } from '#client/live/use-live-positions.ts';
import { FeedBanner } from '#client/ui/feed-banner.tsx';
import { SkeletonCards, SkeletonRows } from '#client/ui/skeleton.tsx';
import { FlipList } from '#client/ui/flip-list.tsx';
import { newestFirst } from '#client/ui/newest-first.ts';
import { ExpandableTradeCard, PriceMove, TradeCard, TradeStops, TradeTitle, type TradeDetail, type TradeFace } from '#client/ui/trade-card.tsx';
import { useSteppedCount } from '#client/ui/use-staged-mount.ts';
import { AsOfLabel, asOfDetail } from '#client/ui/as-of-label.tsx';
import { isUnconfirmed, UnconfirmedLabel, UNCONFIRMED_TITLE } from '#client/ui/unconfirmed-label.tsx';
import { Tooltip, type TooltipContent } from '#client/ui/tooltip.tsx';
import type { Side } from '#shared/domain/side.ts';
import './live-positions.css';

export const NO_LIVE_POSITIONS = 'No live positions to display.';
/** Why a statement's row has no Edit or Close (the server refuses its orders with 409). */
export const STATEMENT_ONLY = "Known from the broker's statements: no order can be placed here.";

/** Identity of a position (docs/product.md#fields): account name, symbol and type. */
export const positionKey = (p: Pick<Position, 'account_name' | 'u_symbol' | 'type'>): string =>
  `${p.account_name}|${p.u_symbol}|${p.type}`;

function formatPips(value: number | null | undefined): string {
  const n = toFiniteNumber(value);
  if (n === null) return MISSING_VALUE;
  return `${numberFormat('fr-FR', { minimumFractionDigits: 1, maximumFractionDigits: 1 }).format(n)} pips`;
}

/**
 * A median excursion as a trader reads it: pips for forex; for a share, where a pip means nothing,
 * the price distance it stands for (the feed counts its pips as the classifier's pip size: a cent for a
 * share, docs/instruments.md).
 */
export function formatExcursion(value: number | null | undefined, p: Pick<Position, 'category' | 'u_symbol'>): string {
  if (p.category === 'Forex') return formatPips(value);
  const n = excursionValue(value, p);
  if (n === null) return MISSING_VALUE;
  return numberFormat('fr-FR', { minimumFractionDigits: 2, maximumFractionDigits: 2 }).format(n);
}

/** The figure formatExcursion shows, unrounded: pips for forex, the price distance for a share; null when missing. */
export function excursionValue(value: number | null | undefined, p: Pick<Position, 'category' | 'u_symbol'>): number | null {
  const n = toFiniteNumber(value);
  if (n === null || p.category === 'Forex') return n;
  // Back from pips to the price distance they were counted from, without the product's last-digit noise.
  return Number((n * pipSize(p.u_symbol)).toPrecision(15));
}

/**
 * The desktop table's columns for a CSV file (Action aside): Ins/Dir as instrument, direction and
 * the account under them, P/L as the amount, its currency, and the EP and BE it shows.
 */
export const LIVE_POSITION_CSV_COLUMNS: readonly CsvColumn<Position>[] = [
  { title: 'Date', value: (p) => csvDateTime(p.time) },
  { title: 'Ins', value: (p) => p.u_symbol },
  { title: 'Dir', value: (p) => p.type },
  { title: 'Account', value: (p) => p.account_name },
  { title: 'Q', value: (p) => csvNumber(p.quantity) },
  { title: 'P/L', value: (p) => csvNumber(p.profit) },
  { title: 'Currency', value: (p) => p.currency },
  { title: 'EP', value: (p) => csvNumber(p.price_open) },
  { title: 'BE', value: (p) => csvNumber(p.breakeven) },
  { title: 'SL', value: (p) => csvNumber(p.sl) },
  { title: 'TP', value: (p) => csvNumber(p.tp) },
  { title: 'Median MAE', value: (p) => excursionValue(p.medianMae, p) },
  { title: 'Median MFE', value: (p) => excursionValue(p.medianMfe, p) },
];

/** Column headers with their 700 ms tooltips (docs/product.md#screens): a description and an example. */
export const COLUMN_HELP: Record<string, { label: string; help: TooltipContent }> = {
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

export interface LivePositionsProps {
  /** null until the feed's first message: skeleton rows show meanwhile. */
  positions: readonly Position[] | null;
  canWrite: boolean;
  /** Table on large screens, cards on phones. */
  wide: boolean;
  onEdit?: (position: Position) => void;
  onClose?: (position: Position) => void;
  /** Accessible name of the table or list. */
  label: string;
  /** Height of the table's scrolling body; rows are virtualised inside it when there are many. */
  maxHeight?: string;
  /** The feed's failure (docs/product.md#errors) while it is down: a banner above the last rows, with a Retry. */
  feedError?: string | null;
  /**
   * Copies grouped under their master trade (its instrument and direction), each group with its
   * count and total P/L, a tap folding it (issue 40, 'a trader's list').
   */
  grouped?: boolean;
}

/** The portfolio's currency: rows' `profit_currency` figures are in it, so rows of any account add up. */
export const PORTFOLIO_CURRENCY = DEFAULT_CURRENCY;

/** The list's floating P/L in the portfolio's currency: the sum of its rows' `profit_currency`. */
export function floatingTotal(rows: readonly Position[]): number {
  let total = 0;
  for (const p of rows) total += p.profit_currency;
  return total;
}

/** A master trade (an instrument and a direction) with the copies of it the list holds. */
export interface TradeGroup {
  key: string;
  symbol: string;
  type: Side;
  /** The masters' rows first, then the copies, each newest first. */
  rows: Position[];
  copies: number;
  /** Floating P/L of the group in the portfolio's currency. */
  total: number;
}

/**
 * Rows (newest first) grouped by master trade: one group per instrument and direction, in the order
 * of each group's newest row. A copy of a master trade is the same instrument in the same direction
 * on a follower; the masters' own rows head their group.
 */
export function groupByTrade(rows: readonly Position[]): TradeGroup[] {
  const groups = new Map<string, TradeGroup>();
  for (const p of rows) {
    const key = `${p.u_symbol}|${p.type}`;
    let group = groups.get(key);
    if (!group) {
      group = { key, symbol: p.u_symbol, type: p.type, rows: [], copies: 0, total: 0 };
      groups.set(key, group);
    }
    group.rows.push(p);
    if (!p.is_master) group.copies += 1;
    group.total += p.profit_currency;
  }
  for (const group of groups.values()) {
    if (group.copies !== group.rows.length && group.copies > 0) group.rows.sort((a, b) => Number(b.is_master) - Number(a.is_master));
  }
  return [...groups.values()];
}

/** What a list draws: a group's heading, or a position (`child`: under a group's heading). */
type ListItem = { kind: 'group'; group: TradeGroup; open: boolean } | { kind: 'row'; p: Position; child: boolean };

function listItems(rows: Position[], grouped: boolean, folded: ReadonlySet<string>): ListItem[] {
  if (!grouped) return rows.map((p) => ({ kind: 'row', p, child: false }));
  const items: ListItem[] = [];
  for (const group of groupByTrade(rows)) {
    if (group.rows.length === 1 && group.rows[0]) {
      items.push({ kind: 'row', p: group.rows[0], child: false });
      continue;
    }
    const open = !folded.has(group.key);
    items.push({ kind: 'group', group, open });
    if (open) for (const p of group.rows) items.push({ kind: 'row', p, child: true });
  }
  return items;
}

const itemKey = (item: ListItem): string => (item.kind === 'group' ? `group:${item.group.key}` : positionKey(item.p));

function groupLabel(group: TradeGroup): string {
  const masters = group.rows.length - group.copies;
  const copies = `${group.copies} ${group.copies === 1 ? 'copy' : 'copies'}`;
  return masters > 0 ? `master trade and ${copies}` : copies;
}

/** A group's heading: the trade, how many positions, and their total P/L; a tap folds the copies. */
function GroupHeading({ group, open, onToggle }: { group: TradeGroup; open: boolean; onToggle: (key: string) => void }) {
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
function ListTotal({ rows }: { rows: readonly Position[] }) {
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

/** Newest first, then by identity so equal times keep a stable order across snapshots. */
export function sortLive(positions: readonly Position[]): Position[] {
  return newestFirst(positions, (p) => p.time, positionKey);
}

const VIRTUAL_FROM = 40;
const ROW_HEIGHT = 58;

function Direction({ type }: { type: Side }) {
  return <span className={`summary-dir summary-dir-${type.toLowerCase()}`}>{type}</span>;
}

function Profit({ p }: { p: Position }) {
  const cls = p.profit > 0 ? 'summary-pos' : p.profit < 0 ? 'summary-neg' : undefined;
  return <span className={cls}>{formatMoney(p.profit, p.currency)}</span>;
}

function PlCell({ p }: { p: Position }) {
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
function PendingEdit({ p }: { p: Position }) {
  const pending = pendingForPosition(useOutbox(), p);
  return pending ? <PendingNote detail={entryChange(pending)} /> : null;
}

/** A row known from a broker's statements only (`as_of`): its figures are that day's and no order reaches it. */
const fromStatement = (p: Position): boolean => p.as_of !== undefined;

/**
 * Rows that take no order: a statement's, and an unconfirmed one (its terminal no longer reports it:
 * there may be nothing left to close or to edit).
 */
const noOrders = (p: Position): boolean => fromStatement(p) || isUnconfirmed(p);

/** Edit, and Close: disabled offline, as a close is never kept to be sent later. */
function Actions({ p, onEdit, onClose }: { p: Position; onEdit?: (p: Position) => void; onClose?: (p: Position) => void }) {
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

/** Fields a row shows; a row re-renders only when one of them changed. */
const SHOWN: readonly (keyof Position)[] = [
  'time', 'u_symbol', 'type', 'account_name', 'quantity', 'profit', 'currency', 'price_open', 'price_current', 'breakeven', 'sl', 'tp', 'medianMae', 'medianMfe', 'as_of', 'unconfirmed_since',
];
const sameShown = (a: Position, b: Position) => SHOWN.every((k) => a[k] === b[k]);

interface RowProps {
  p: Position;
  canWrite: boolean;
  onEdit?: (p: Position) => void;
  onClose?: (p: Position) => void;
}

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

interface ListBodyProps extends Pick<LivePositionsProps, 'canWrite' | 'onEdit' | 'onClose' | 'label' | 'maxHeight'> {
  rows: ListItem[];
  onToggle: (key: string) => void;
}

function LiveTable({ rows, canWrite, onEdit, onClose, label, maxHeight, onToggle }: ListBodyProps) {
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

/** A phone's row: instrument, direction and size; entry → current price; P/L with the account under it. */
function positionFace(p: Position): TradeFace {
  return {
    title: <TradeTitle symbol={p.u_symbol} side={p.type} size={formatQuantity(p.quantity)} />,
    subtitle: (
      <>
        <AsOfLabel at={p.as_of} />
        <UnconfirmedLabel since={p.unconfirmed_since} />
        <PriceMove from={formatPrice(p.price_open, p.u_symbol)} to={formatPrice(p.price_current, p.u_symbol)} />
      </>
    ),
    stops: <TradeStops sl={formatPrice(p.sl, p.u_symbol)} tp={formatPrice(p.tp, p.u_symbol)} />,
    figure: formatMoney(p.profit, p.currency),
    // An unconfirmed row's P/L is its last known, not live: muted rather than green or red.
    tone: isUnconfirmed(p) ? undefined : p.profit,
    note: p.account_name,
  };
}

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

/** The live positions table (desktop) or swipeable cards (phones), docs/product.md#screens. */
export function LivePositions({ feedError, ...props }: LivePositionsProps) {
  const { browserOnline } = useOfflineStatus();
  // The banner comes and goes before the rows, which keep their state (open details, a slid card).
  return (
    <>
      {feedError ? <FeedBanner message={feedError} lastUpdate={lastLiveUpdate} onRetry={retryLiveFeeds} /> : null}
      {props.canWrite && !browserOnline ? <p className="summary-sub">{CLOSE_NEEDS_CONNECTION}.</p> : null}
      <LiveBody {...props} />
    </>
  );
}

function LiveBody({ positions, canWrite, wide, onEdit, onClose, label, maxHeight, grouped = false }: Omit<LivePositionsProps, 'feedError'>) {
  const sorted = useMemo(() => (positions === null ? null : sortLive(positions)), [positions]);
  const [folded, setFolded] = useState<ReadonlySet<string>>(() => new Set());
  const rows = useMemo(() => (sorted === null ? null : listItems(sorted, grouped, folded)), [sorted, grouped, folded]);
  const onToggle = useCallback((key: string) => {
    setFolded((was) => {
      const next = new Set(was);
      if (!next.delete(key)) next.add(key);
      return next;
    });
  }, []);
  if (rows === null) {
    return wide ? (
      <SkeletonRows rows={SKELETON_ROWS} columns={6} label="Loading live positions..." />
    ) : (
      // The line that says what a tap does is there from the start: it does not push the rows down when they come.
      <>
        <CardsHint canWrite={canWrite} />
        <SkeletonCards rows={SKELETON_ROWS_MOBILE} label="Loading live positions..." className="summary-live-skeleton" />
      </>
    );
  }
  const total = sorted && sorted.length > 0 ? <ListTotal rows={sorted} /> : null;
  if (wide) {
    return (
      <>
        {total}
        <LiveTable rows={rows} canWrite={canWrite} onEdit={onEdit} onClose={onClose} label={label} maxHeight={maxHeight} onToggle={onToggle} />
      </>
    );
  }
  if (rows.length === 0) return <p className="ui-card-list-empty empty-state summary-empty">{NO_LIVE_POSITIONS}</p>;
  return (
    <>
      {total}
      <LiveCards rows={rows} canWrite={canWrite} onEdit={onEdit} onClose={onClose} label={label} onToggle={onToggle} />
    </>
  );
}

/** What a tap and a swipe do on the phone's cards, above the list. */
function CardsHint({ canWrite }: { canWrite: boolean }) {
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
function LiveCards({ rows, canWrite, onEdit, onClose, label, onToggle }: Omit<ListBodyProps, 'maxHeight'>) {
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
