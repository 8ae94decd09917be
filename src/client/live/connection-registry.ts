import { useSyncExternalStore } from 'react';
import type { LiveStatus } from './live-socket.ts';
import { listeners } from '#client/listeners.ts';

/** What the top bar's indicator shows: a feed is live, one is (re)connecting, none can connect, or no feed on this screen. */
export type Connectivity = 'live' | 'reconnecting' | 'offline' | 'idle';

const feeds = new Map<number, LiveStatus>();
const changes = listeners();
let nextId = 1;
let browserOnline = typeof navigator === 'undefined' ? true : navigator.onLine;

/** Combines the open feeds: offline browser first, then any live feed, then any retrying one. */
export function combineConnectivity(statuses: Iterable<LiveStatus>, online: boolean): Connectivity {
  if (!online) return 'offline';
  let retrying = false;
  let failed = false;
  for (const status of statuses) {
    if (status === 'live') return 'live';
    if (status === 'connecting' || status === 'reconnecting') retrying = true;
    if (status === 'offline') failed = true;
  }
  return retrying ? 'reconnecting' : failed ? 'offline' : 'idle';
}

let snapshot: Connectivity = combineConnectivity([], browserOnline);
/** Date.now() when the live data stopped being live (a feed dropped, the browser went offline); null while live. */
let staleSince: number | null = null;

function recompute(): void {
  const next = combineConnectivity(feeds.values(), browserOnline);
  if (next === snapshot) return;
  // A feed's first connection is not an outage: nothing is marked stale (and nothing moves on
  // screen) until data that was live drops, a connection fails, or the browser goes offline.
  const firstConnection = snapshot !== 'live' && next === 'reconnecting' && [...feeds.values()].every((s) => s === 'connecting');
  if (next === 'live' || next === 'idle') staleSince = null;
  else if (!firstConnection && (snapshot === 'live' || staleSince === null)) staleSince ??= Date.now();
  snapshot = next;
  changes.emit();
}

let listening = false;
function subscribe(listener: () => void): () => void {
  if (!listening && typeof window !== 'undefined') {
    listening = true;
    const onChange = () => {
      browserOnline = navigator.onLine;
      recompute();
    };
    window.addEventListener('online', onChange);
    window.addEventListener('offline', onChange);
  }
  return changes.subscribe(listener);
}

/** Registers one live feed; returns its status reporter and the unregister function. */
export function registerFeed(): { report: (status: LiveStatus) => void; unregister: () => void } {
  const id = nextId++;
  feeds.set(id, 'connecting');
  recompute();
  return {
    report: (status) => {
      if (!feeds.has(id)) return;
      feeds.set(id, status);
      recompute();
    },
    unregister: () => {
      feeds.delete(id);
      recompute();
    },
  };
}

export function useConnectivity(): Connectivity {
  return useSyncExternalStore(subscribe, () => snapshot, () => snapshot);
}

/** Since when the live data on screen is stale (Date.now() of the drop), or null while it is live. */
export function useStaleSince(): number | null {
  return useSyncExternalStore(subscribe, () => staleSince, () => staleSince);
}
