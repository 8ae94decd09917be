/**
 * What the service worker keeps for offline reading (docs/architecture.md: the last NAV, rebate and alert
 * responses in IndexedDB), shared by the worker and the page so both name the same store.
 */
import { createStore, type UseStore } from 'idb-keyval';

/** GET calls whose last response is kept: real-time NAV (accounts/info), historical NAV, rebates, alerts. */
export const OFFLINE_API_PATHS: readonly string[] = [
  '/api/brokers/accounts/info',
  '/api/brokers/accounts/historical_infos',
  '/api/stats/rebates',
  '/api/alerts/infos',
];

/** Set by the service worker on a response it served from the store: when that response was saved (epoch ms). */
export const OFFLINE_HEADER = 'x-offline-data-from';

export const OFFLINE_DB = 'copy-monitor-offline';
export const RESPONSES_STORE = 'responses';
/** Where TanStack Query's cache of the same calls is persisted (per user, see query-persister.ts). */
export const QUERY_CACHE_STORE = 'query-cache';

/** localStorage: the newest alert id seen in the notifications panel (cleared on sign-out). */
export const ALERTS_SEEN_KEY = 'alerts_seen';

export interface StoredResponse {
  body: string;
  contentType: string;
  savedAt: number;
}

let responses: UseStore | undefined;
/** The responses store; one database with one store, opened on first use. */
export function responsesStore(): UseStore {
  responses ??= createStore(OFFLINE_DB, RESPONSES_STORE);
  return responses;
}

export function isOfflineApiPath(pathname: string): boolean {
  return OFFLINE_API_PATHS.includes(pathname);
}

/**
 * A user's own prefix: SHA-256 of the session key, so one user's stored data is never served to
 * another, and the key itself is never written to disk in the clear.
 */
export async function userPrefix(apiKey: string): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(apiKey));
  return Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, '0')).join('');
}

/** The store key of one response: the user's prefix, then the path and query. */
export function responseKey(prefix: string, url: URL): string {
  return `${prefix}:${url.pathname}${url.search}`;
}
