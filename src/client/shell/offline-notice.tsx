import { useCallback, useEffect, useState, useSyncExternalStore } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { formatDateFr } from '#shared/format/dates.ts';
import { useOfflineStatus } from '#client/offline/offline-status.ts';
import { useConnectivity, useStaleSince } from '#client/live/connection-registry.ts';
import { formatClock } from '#shared/format/dates.ts';
import { isPersistedKey } from '#client/offline/query-persister.ts';
import { OfflineIcon } from '#client/ui/icons.tsx';

/** The oldest update time (epoch ms) among the kept queries this screen shows, or null. */
function useShownDataTime(): number | null {
  const queryClient = useQueryClient();
  const cache = queryClient.getQueryCache();
  const subscribe = useCallback((onChange: () => void) => cache.subscribe(onChange), [cache]);
  const snapshot = useCallback(() => {
    let oldest: number | null = null;
    for (const query of cache.findAll({ type: 'active' })) {
      if (!isPersistedKey(query.queryKey) || query.state.data === undefined || query.state.dataUpdatedAt === 0) continue;
      oldest = oldest === null ? query.state.dataUpdatedAt : Math.min(oldest, query.state.dataUpdatedAt);
    }
    return oldest;
  }, [cache]);
  return useSyncExternalStore(subscribe, snapshot, snapshot);
}

/** A feed down this long is said in words: a first connection or a quick reconnect moves nothing on screen. */
const RECONNECTING_SHOWN_AFTER_MS = 3_000;

/** Whether the feed has been down for RECONNECTING_SHOWN_AFTER_MS (false while it is up). */
function useDownAWhile(down: boolean): boolean {
  // Set once the current outage has lasted; cleared when it ends.
  const [longSince, setLongSince] = useState<boolean>(false);
  useEffect(() => {
    if (!down) return;
    const timer = setTimeout(() => setLongSince(true), RECONNECTING_SHOWN_AFTER_MS);
    return () => {
      clearTimeout(timer);
      setLongSince(false);
    };
  }, [down]);
  return down && longSince;
}

/**
 * 'Offline — data from {time}': shown while the browser is offline or the service worker answers
 * from the device's store, with the time the shown data was fetched.
 */
export function OfflineNotice() {
  const { browserOnline, storedSince } = useOfflineStatus();
  const offline = !browserOnline || storedSince !== null;
  const shownTime = useShownDataTime();
  const connectivity = useConnectivity();
  const feedDownSince = useStaleSince();
  const feedDown = feedDownSince !== null && (connectivity === 'reconnecting' || connectivity === 'offline');
  const downAWhile = useDownAWhile(feedDown);
  if (!offline) {
    // Online but the live feed dropped (a tunnel, a server restart): said in words, phones included,
    // not only in the top bar's tooltip, once it has been down a few seconds.
    if (!feedDown || !downAWhile || feedDownSince === null) return null;
    return (
      <div className="offline-notice offline-notice-reconnecting" role="status">
        <span>{`Reconnecting… live data as of ${formatClock(feedDownSince / 1000)}`}</span>
      </div>
    );
  }
  const time = storedSince ?? shownTime;
  return (
    <div className="offline-notice" role="status">
      <OfflineIcon />
      <span>{time === null ? 'Offline — no data saved on this device yet' : `Offline — data from ${formatDateFr(time / 1000)}`}</span>
    </div>
  );
}
