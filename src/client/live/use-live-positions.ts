import { useContext, useEffect, useState } from 'react';
import { QueryClientContext, type QueryClient } from '@tanstack/react-query';
import type { LiveFeedRequest } from '#shared/contract/live.ts';
import type { Position } from '#shared/contract/positions.ts';
import { POSITION_FEED_ATTEMPTS } from '#shared/domain/backoff.ts';
import {
  createLiveSocket,
  onConnectivityRegained,
  type LivePath,
  type LiveSocketOptions,
  type LiveStatus,
} from './live-socket.ts';
import { registerFeed } from './connection-registry.ts';
import { createProbeLoop, onServerRegained } from './reachability.ts';
import { LIVE_SNAPSHOT_ROOT } from '#client/offline/query-persister.ts';
import { asOf } from '#client/offline/as-of.ts';

/** A feed of the table (path and typed parameters), whether it is wanted now, and the socket's test seams. */
export type UseLivePositionsOptions = LiveFeedRequest & {
  enabled?: boolean;
  /** Test seams, passed through to createLiveSocket. */
  socketOptions?: Pick<LiveSocketOptions, 'fetchTicket' | 'WebSocketImpl' | 'timers' | 'baseUrl'>;
};

export interface LivePositions {
  /**
   * null until the feed's first message, and again whenever the feed (path or params) changes; before
   * the first message, the device's last snapshot of this feed when one is kept (see keptAt).
   */
  positions: Position[] | null;
  status: LiveStatus;
  error: string | null;
  /** Set while the rows shown are the device's kept snapshot of an earlier visit: when it arrived (epoch ms). */
  keptAt?: number;
}

/** The last snapshot of one feed, kept in the query cache (and so on the device, per user) for offline reading. */
export interface KeptSnapshot {
  positions: Position[];
  /** Date.now() when the snapshot arrived. */
  at: number;
}

/** A kept snapshot is written at most this often (a feed sends one a second). */
export const KEEP_SNAPSHOT_EVERY_MS = 2_000;

/**
 * Shown instead of the socket's error while the browser is offline (the device, not the server, is the
 * cause): 'Offline — positions as of 14:07'.
 */
export function offlineFeedMessage(at: number | undefined): string {
  return at === undefined ? 'Offline — no positions kept on this device yet' : `Offline — positions ${asOf(at)}`;
}

export const liveSnapshotKey = (feed: string) => [LIVE_SNAPSHOT_ROOT, feed] as const;

function keptSnapshot(client: QueryClient | undefined, feed: string): KeptSnapshot | undefined {
  return client?.getQueryData<KeptSnapshot>(liveSnapshotKey(feed));
}

const browserOffline = () => typeof navigator !== 'undefined' && navigator.onLine === false;

interface FeedState extends LivePositions {
  feed: string;
  /** Date.now() of the feed's last message. */
  at?: number;
}

/** One string per feed, independent of the params object's identity and key order. */
function feedKey(path: LivePath, params: UseLivePositionsOptions['params']): string {
  const entries = Object.entries(params)
    .filter((entry): entry is [string, string] => typeof entry[1] === 'string')
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return JSON.stringify([path, entries]);
}

/** A mounted feed as the dropped-feed banner sees it: is it live, when did it last deliver, how to reconnect it. */
interface FeedHealth {
  live: boolean;
  /** Down and retrying (or given up after its attempts): what the reachability probe runs for. */
  down: boolean;
  /** Date.now() of the feed's last message; null before the first. */
  updatedAt: number | null;
  reconnect: (options?: { abandonPending?: boolean }) => void;
}

const mountedFeeds = new Set<FeedHealth>();

/** How long an open feed may stay silent before it is pinged, and how long the ping may go unanswered. */
export const FEED_HEARTBEAT = { idleMs: 10_000, timeoutMs: 5_000 } as const;

// While a feed is down, the server is probed; when it answers after having been unreachable (or any
// HTTP call does), every dropped feed reconnects at once (src/client/live/reachability.ts).
const probe = createProbeLoop(() => [...mountedFeeds].some((feed) => feed.down));
onServerRegained(() => {
  for (const feed of mountedFeeds) if (!feed.live) feed.reconnect({ abandonPending: true });
});

/**
 * Reconnects every mounted feed at once, attempts reset, as coming back online does (a feed that is
 * open or opening is left alone). A screen's feeds share one server, so the Retry of one panel's
 * banner is the Retry of them all; the panels that show a feed's rows need not hold its socket.
 */
export function retryLiveFeeds(): void {
  for (const feed of mountedFeeds) feed.reconnect();
}

/**
 * When the newest rows of a dropped feed arrived (Date.now()), or null when none did: the age the
 * banner of a stalled panel shows. Live feeds are ignored while any feed is down.
 */
export function lastLiveUpdate(): number | null {
  const feeds = [...mountedFeeds];
  const down = feeds.filter((feed) => !feed.live);
  let newest: number | null = null;
  for (const feed of down.length > 0 ? down : feeds) {
    if (feed.updatedAt !== null && (newest === null || feed.updatedAt > newest)) newest = feed.updatedAt;
  }
  return newest;
}

/** Live position rows of one feed (docs/product.md#calls), reconnecting as position feeds do (docs/product.md#constants). */
export function useLivePositions({ path, params, enabled = true, socketOptions }: UseLivePositionsOptions): LivePositions {
  const feed = feedKey(path, params);
  // Optional: without a query client (unit tests of the hook) nothing is kept.
  const queryClient = useContext(QueryClientContext);
  const [state, setState] = useState<FeedState>({ feed, positions: null, status: 'connecting', error: null });

  useEffect(() => {
    if (!enabled) return;
    const [feedPath, entries] = JSON.parse(feed) as [LivePath, [string, string][]];
    let active = true;
    const connectivity = registerFeed();
    // The banner's age of a feed that has not delivered yet is the age of its kept snapshot.
    const health: FeedHealth = { live: false, down: false, updatedAt: keptSnapshot(queryClient, feed)?.at ?? null, reconnect: () => undefined };
    let keptWrittenAt = 0;
    mountedFeeds.add(health);
    const socket = createLiveSocket({
      ...socketOptions,
      path: feedPath,
      params: Object.fromEntries(entries),
      maxAttempts: POSITION_FEED_ATTEMPTS,
      heartbeat: FEED_HEARTBEAT,
      onMessage: (positions) => {
        health.updatedAt = Date.now();
        if (queryClient && health.updatedAt - keptWrittenAt >= KEEP_SNAPSHOT_EVERY_MS) {
          keptWrittenAt = health.updatedAt;
          queryClient.setQueryData<KeptSnapshot>(liveSnapshotKey(feed), { positions, at: health.updatedAt });
        }
        if (active) setState((s) => ({ ...(s.feed === feed ? s : { status: 'live', error: null }), feed, positions, at: health.updatedAt ?? undefined }));
      },
      onStatus: (status, error, waiting) => {
        health.live = status === 'live';
        health.down = waiting;
        if (waiting) probe.wake();
        connectivity.report(status);
        if (active) setState((s) => ({ positions: s.feed === feed ? s.positions : null, at: s.feed === feed ? s.at : undefined, feed, status, error }));
      },
    });
    health.reconnect = (options) => socket.reconnectNow(options);
    const stopListening = onConnectivityRegained(() => socket.reconnectNow());
    return () => {
      active = false;
      mountedFeeds.delete(health);
      stopListening();
      socket.close();
      connectivity.unregister();
      // Rows of a closed feed are not shown again if the same feed is later re-enabled.
      setState({ feed, positions: null, status: 'closed', error: null });
    };
    // socketOptions are test seams fixed for a component's life.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [feed, enabled]);

  if (!enabled) return { positions: null, status: 'closed', error: null };
  // Rows of another feed (the previous broker or account) are never shown for this one.
  const current = state.feed === feed ? state : { positions: null, status: 'connecting' as const, error: null, at: undefined };
  // Before this feed's first message: the device's last snapshot of it, marked with its time.
  const kept = current.positions === null ? keptSnapshot(queryClient, feed) : undefined;
  const error = current.error !== null && browserOffline() ? offlineFeedMessage(kept?.at ?? current.at) : current.error;
  if (kept) return { positions: kept.positions, status: current.status, error, keptAt: kept.at };
  return { positions: current.positions, status: current.status, error };
}
