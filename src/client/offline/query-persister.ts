import type { Query, QueryClient, QueryKey } from '@tanstack/react-query';
import {
  persistQueryClientRestore,
  persistQueryClientSubscribe,
  type PersistedClient,
  type Persister,
} from '@tanstack/react-query-persist-client';
import { createSyncStoragePersister } from '@tanstack/query-sync-storage-persister';
import { createStore, del, get, set, type UseStore } from 'idb-keyval';
import { APP_VERSION } from '#shared/domain/constants.ts';
import { sessionStore } from '#client/auth/session-store.ts';
import { userPrefix } from './offline-api.ts';

/** Query cache persistence: IndexedDB through idb-keyval; localStorage only where IndexedDB is unavailable. */
export const QUERY_CACHE_DB = 'copy-monitor-query-cache';
export const QUERY_CACHE_STORE_NAME = 'clients';
/** localStorage keys of the fallback start with this, one per user. */
export const LOCAL_CACHE_PREFIX = 'copy-monitor-query-cache:';
/** Persisted data older than this is not restored. */
export const PERSIST_MAX_AGE_MS = 7 * 24 * 60 * 60 * 1000;
/**
 * Tells one build's saved cache from another's (set by vite.config.ts; the version alone in tests):
 * a new build may change a payload's shape, so data saved by another build is not restored.
 */
export const CACHE_BUSTER = (import.meta.env.VITE_BUILD_ID as string | undefined) ?? APP_VERSION;
/** Longest wait for the device's copy before the first render; a slower store fills the cache when it answers. */
export const RESTORE_WAIT_MS = 300;

/**
 * Query roots never kept on the device: a push subscription's preferences belong to the browser's
 * subscription, and a statement import is a one-off upload's answer. Every other answer is kept
 * (issue 40: offline is a full read of the last snapshot, every screen's figures included).
 */
const NOT_KEPT: ReadonlySet<unknown> = new Set(['push', 'statement-import']);

/** Query root of the live feeds' last snapshots (src/client/live/use-live-positions.ts), kept like the queries. */
export const LIVE_SNAPSHOT_ROOT = 'live-snapshot';

/** The answers kept for offline reading: every screen's queries and the live feeds' last positions. */
export function isPersistedKey(key: QueryKey): boolean {
  return !NOT_KEPT.has(key[0]);
}

/**
 * A query with data is kept even when its last refetch failed (the tunnel: the data shown is still
 * the last answer); one that never answered is not.
 */
export function shouldPersistQuery(query: Pick<Query, 'queryKey' | 'state'>): boolean {
  return query.state.data !== undefined && isPersistedKey(query.queryKey);
}

/**
 * The saved copy of a query whose last refetch failed is saved as the success it last was: restored
 * offline, its screen shows the data with its time, not the error of a fetch made without a network.
 */
export function asLastSuccess(client: PersistedClient): PersistedClient {
  const queries = client.clientState.queries.map((query) =>
    query.state.status === 'error' && query.state.data !== undefined
      ? { ...query, state: { ...query.state, status: 'success' as const, error: null, fetchFailureReason: null, fetchFailureCount: 0 } }
      : query,
  );
  return { ...client, clientState: { ...client.clientState, queries } };
}

let idbStore: UseStore | undefined;
export function queryCacheStore(): UseStore {
  idbStore ??= createStore(QUERY_CACHE_DB, QUERY_CACHE_STORE_NAME);
  return idbStore;
}

export function indexedDbAvailable(): boolean {
  try {
    return typeof indexedDB !== 'undefined' && indexedDB !== null;
  } catch {
    return false;
  }
}

/** Saves happen at most once a second, with the latest state (the cache changes on every fetch). */
export const PERSIST_THROTTLE_MS = 1000;

/** The signed-in key, and whether it is still the signed-in key (checked again right before every write). */
function currentKey(): string | null {
  return sessionStore.get()?.api_key ?? null;
}
const stillSignedIn = (apiKey: string) => currentKey() === apiKey;

/**
 * One persister that saves each user's cache under that user's own key, so a second user on the
 * same phone never restores the first one's data. A save is dropped when, by the time it is
 * written, its user has signed out (sign-out clears the stores; a late save must not refill them).
 */
function perUser(persisterFor: (prefix: string, owner: string) => Persister): Persister {
  const persisters = new Map<string, Persister>();
  const forKey = async (apiKey: string) => {
    const prefix = await userPrefix(apiKey);
    let persister = persisters.get(prefix);
    if (!persister) {
      persister = persisterFor(prefix, apiKey);
      persisters.set(prefix, persister);
    }
    return persister;
  };
  let pending: { client: PersistedClient; apiKey: string } | null = null;
  let timer: ReturnType<typeof setTimeout> | null = null;
  const flush = async () => {
    timer = null;
    const job = pending;
    pending = null;
    if (!job || !stillSignedIn(job.apiKey)) return;
    const persister = await forKey(job.apiKey);
    if (stillSignedIn(job.apiKey)) await persister.persistClient(job.client);
  };
  // A reload or a closed tab must not lose the last second's save.
  const flushNow = () => {
    if (timer === null) return;
    clearTimeout(timer);
    void flush();
  };
  if (typeof window !== 'undefined') {
    window.addEventListener('pagehide', flushNow);
    document.addEventListener('visibilitychange', () => {
      if (document.visibilityState === 'hidden') flushNow();
    });
  }
  return {
    persistClient: (client: PersistedClient) => {
      const apiKey = currentKey();
      if (!apiKey) return;
      pending = { client: asLastSuccess(client), apiKey };
      timer ??= setTimeout(() => void flush(), PERSIST_THROTTLE_MS);
    },
    restoreClient: async () => {
      const apiKey = currentKey();
      return apiKey ? (await forKey(apiKey)).restoreClient() : undefined;
    },
    removeClient: async () => {
      pending = null;
      const apiKey = currentKey();
      if (apiKey) await (await forKey(apiKey)).removeClient();
    },
  };
}

export function createQueryPersister(): Persister {
  if (indexedDbAvailable()) {
    return perUser((prefix) => ({
      persistClient: (client) => set(prefix, client, queryCacheStore()),
      restoreClient: () => get<PersistedClient>(prefix, queryCacheStore()),
      removeClient: () => del(prefix, queryCacheStore()),
    }));
  }
  // query-sync-storage-persister is synchronous, so it cannot wrap IndexedDB: it is only the
  // fallback for browsers without IndexedDB (e.g. some private modes). Its own delayed writes go
  // through a storage that refuses them once their user has signed out.
  return perUser((prefix, owner) =>
    createSyncStoragePersister({
      key: `${LOCAL_CACHE_PREFIX}${prefix}`,
      storage: {
        getItem: (key) => window.localStorage.getItem(key),
        setItem: (key, value) => {
          if (stillSignedIn(owner)) window.localStorage.setItem(key, value);
        },
        removeItem: (key) => window.localStorage.removeItem(key),
      },
    }),
  );
}

/**
 * Restores this user's saved queries into the cache, then keeps saving them. Resolves once the
 * copy is in, or after RESTORE_WAIT_MS: the app renders with the device's data already there, and
 * its screens start their own requests at once instead of all together once a restore completes
 * (what PersistQueryClientProvider does, holding every query back while it restores).
 */
export async function startQueryPersistence(queryClient: QueryClient, persister: Persister): Promise<void> {
  const restored = persistQueryClientRestore({ queryClient, persister, maxAge: PERSIST_MAX_AGE_MS, buster: CACHE_BUSTER })
    // A copy that cannot be read is dropped by the restore itself; the app starts without it.
    .catch(() => undefined)
    .then(() => {
      persistQueryClientSubscribe({
        queryClient,
        persister,
        buster: CACHE_BUSTER,
        dehydrateOptions: { shouldDehydrateQuery: shouldPersistQuery },
      });
    });
  await Promise.race([restored, new Promise((resolve) => setTimeout(resolve, RESTORE_WAIT_MS))]);
}
