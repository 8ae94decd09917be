import { useEffect, useState } from 'react';
import { useStaleSince } from '#client/live/connection-registry.ts';
import { useOfflineStatus } from './offline-status.ts';
import './stale.css';

/** A figure is stale once it is older than this many of its refresh periods (one missed refetch is not yet stale). */
export const STALE_AFTER_PERIODS = 2;
/** Added to the periods: a refetch in flight is not a stale figure. */
export const STALE_GRACE_MS = 5_000;
const TICK_MS = 5_000;

/**
 * Whether figures fetched at `updatedAt` (epoch ms) and refreshed every `periodMs` are stale: a live
 * feed is down, the device is offline or answering from its store, or the figures are older than
 * their refresh period allows. Pure, for tests.
 */
export function isStale(updatedAt: number, periodMs: number, now: number, feedDown: boolean, offline: boolean): boolean {
  return feedDown || offline || now - updatedAt > periodMs * STALE_AFTER_PERIODS + STALE_GRACE_MS;
}

/**
 * The time stale figures date from (their `updatedAt`), or null while they are fresh or not there yet:
 * the screen mutes them and writes 'as of hh:mm' beside them (docs/client.md, "Offline").
 */
export function useStaleAsOf(updatedAt: number | undefined, periodMs: number): number | null {
  const feedDownSince = useStaleSince();
  const { browserOnline, storedSince } = useOfflineStatus();
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), TICK_MS);
    return () => clearInterval(timer);
  }, []);
  if (updatedAt === undefined || updatedAt === 0) return null;
  // An answer the service worker served from its store is as old as the stored copy, not the fetch.
  const dataTime = storedSince === null ? updatedAt : Math.min(updatedAt, storedSince);
  return isStale(dataTime, periodMs, now, feedDownSince !== null, !browserOnline || storedSince !== null) ? dataTime : null;
}

/**
 * Marks the whole page while the live data is stale (html[data-live-stale]): every card's and row's
 * P/L is drawn muted by stale.css, whichever list draws it.
 */
export function useMarkLiveStale(): void {
  const feedDownSince = useStaleSince();
  const { browserOnline } = useOfflineStatus();
  const stale = feedDownSince !== null || !browserOnline;
  useEffect(() => {
    const root = document.documentElement;
    if (stale) root.dataset.liveStale = '';
    else delete root.dataset.liveStale;
  }, [stale]);
}
