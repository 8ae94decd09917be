/*
 * The live trades panel of the Accounts and Brokers screens: a sortable table on a desktop, cards on
 * a phone (newest first, like the table), skeletons until the feed's first message, a CSV file of
 * what is shown, and the feed's problem in a banner with a Retry. Each screen gives its view: its
 * columns, its card, what names its CSV file, and whether a feed error stops the loading state.
 */
import { useMemo, useState } from 'react';
import type { Position } from '#shared/contract/positions.ts';
import { SKELETON_ROWS, SKELETON_ROWS_MOBILE } from '#shared/domain/constants.ts';
import type { SortState } from '#shared/domain/sorting.ts';
import { formatMoney } from '#shared/format/money.ts';
import { formatPrice, formatQuantity } from '#shared/format/numbers.ts';
import { CsvButton } from '#client/export/csv-button.tsx';
import { csvFileName, localIsoDate, type CsvColumn } from '#client/export/csv-table.ts';
import { lastLiveUpdate, retryLiveFeeds } from '#client/live/use-live-positions.ts';
import { CardList, type CardField } from './card-list.tsx';
import { FeedBanner } from './feed-banner.tsx';
import { newestFirst } from './newest-first.ts';
import { SectionPanel } from './section-panel.tsx';
import { SkeletonCards, SkeletonRows } from './skeleton.tsx';
import { SortableTable, sortTableRows, type TableColumn } from './sortable-table.tsx';
import { PriceMove, TradeStops, TradeTitle, type TradeFace } from './trade-card.tsx';
import { AsOfLabel } from './as-of-label.tsx';
import { isUnconfirmed, UnconfirmedLabel } from './unconfirmed-label.tsx';

export const NO_LIVE_TRADES = 'No live trades.';

/**
 * A phone's card of an open position: instrument, direction and size; entry → current price (its
 * statement day or 'Unconfirmed since' first, where it has one); SL and TP; P/L with the account
 * under it, muted for an unconfirmed row (its last known P/L, not live).
 */
export function positionFace(p: Position): TradeFace {
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
    tone: isUnconfirmed(p) ? undefined : p.profit,
    note: p.account_name,
  };
}

/** What a screen shows of its live trades. */
export interface LiveTradesView {
  columns: readonly TableColumn<Position>[];
  csvColumns: readonly CsvColumn<Position>[];
  /** A phone's card: its face, and what a tap opens. */
  face: (p: Position) => TradeFace;
  details: readonly CardField<Position>[];
  /** What the CSV file is named after (the account, the broker), from the rows. */
  csvSubject: (rows: readonly Position[]) => string;
  /** true: a feed error with no rows yet shows the banner alone (broker mode); false: the skeletons stay under it. */
  errorStopsLoading: boolean;
  /** The panel's class, and its data attributes for the rows in view. */
  className: string;
  dataOf: (rows: readonly Position[] | null) => Record<`data-${string}`, string>;
  rowClassName?: string;
  cardsClassName?: string;
}

const positionKey = (p: Position) => `${p.login}|${p.u_symbol}|${p.type}`;
const DEFAULT_SORT: SortState<string> = { key: 'time', direction: 'desc' };

export interface LiveTradesProps {
  view: LiveTradesView;
  positions: readonly Position[] | null;
  error: string | null;
  wide: boolean;
}

export function LiveTrades({ view, positions, error, wide }: LiveTradesProps) {
  const [sort, setSort] = useState<SortState<string> | null>(DEFAULT_SORT);
  // The cards in the table's default order (Date, newest first).
  const cards = useMemo(() => (positions === null || wide ? null : newestFirst(positions, (p) => p.time, positionKey)), [positions, wide]);
  const buildCsv = (nowMs: number) => ({
    fileName: csvFileName('live_trades', view.csvSubject(positions ?? []), localIsoDate(nowMs)),
    columns: view.csvColumns,
    rows: wide ? sortTableRows(positions ?? [], view.columns, sort) : (cards ?? []),
  });
  const loading = positions === null && !(error !== null && view.errorStopsLoading);
  return (
    <SectionPanel
      title="Live trades"
      className={view.className}
      actions={<CsvButton table="Live trades" build={buildCsv} disabled={positions === null || positions.length === 0} />}
    >
      <div data-testid="live-trades" data-state={positions === null ? (loading ? 'loading' : 'error') : 'live'} {...view.dataOf(positions)}>
        {error === null ? null : <FeedBanner message={error} lastUpdate={lastLiveUpdate} onRetry={retryLiveFeeds} />}
        {positions === null ? (
          loading ? (
            wide ? (
              <SkeletonRows rows={SKELETON_ROWS} columns={view.columns.length} label="Loading live trades..." />
            ) : (
              <SkeletonCards rows={SKELETON_ROWS_MOBILE} label="Loading live trades..." />
            )
          ) : null
        ) : wide ? (
          <SortableTable
            columns={view.columns}
            rows={positions}
            rowKey={positionKey}
            emptyText={NO_LIVE_TRADES}
            label="Live trades"
            sort={sort}
            onSortChange={setSort}
            rowClassName={(p) => [view.rowClassName, isUnconfirmed(p) ? 'ui-unconfirmed-row' : undefined].filter(Boolean).join(' ') || undefined}
          />
        ) : (
          <CardList
            items={cards ?? []}
            itemKey={positionKey}
            label="Live trades"
            emptyText={NO_LIVE_TRADES}
            className={view.cardsClassName}
            face={view.face}
            fields={view.details}
            itemClassName={(p) => (isUnconfirmed(p) ? 'ui-unconfirmed-card' : undefined)}
            hint="Newest first · tap a trade for its details"
          />
        )}
      </div>
    </SectionPanel>
  );
}
