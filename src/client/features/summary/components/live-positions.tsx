/*
 * Live positions: the table on a desktop (live-table.tsx), cards on a phone (live-cards.tsx), from one
 * model (live-model.ts); skeleton rows until the feed's first snapshot, a banner while it is down.
 */
import { useCallback, useMemo, useState } from 'react';
import { SKELETON_ROWS, SKELETON_ROWS_MOBILE } from '#shared/domain/constants.ts';
import { useOfflineStatus } from '#client/offline/offline-status.ts';
import { CLOSE_NEEDS_CONNECTION } from '#client/offline/outbox.ts';
import { lastLiveUpdate, retryLiveFeeds } from '#client/live/use-live-positions.ts';
import { FeedBanner } from '#client/ui/feed-banner.tsx';
import { SkeletonCards, SkeletonRows } from '#client/ui/skeleton.tsx';
import { type LivePositionsProps, NO_LIVE_POSITIONS, listItems, sortLive } from './live-model.ts';
import { ListTotal } from './live-parts.tsx';
import { LiveTable } from './live-table.tsx';
import { CardsHint, LiveCards } from './live-cards.tsx';
import './live-positions.css';

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
