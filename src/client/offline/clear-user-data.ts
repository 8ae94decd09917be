import { clear } from 'idb-keyval';
import { ALERTS_SEEN_KEY, responsesStore } from './offline-api.ts';
import { indexedDbAvailable, LOCAL_CACHE_PREFIX, queryCacheStore } from './query-persister.ts';
import { offlineStatus } from './offline-status.ts';

/**
 * Removes everything a signed-in user left on the device: the persisted query cache (IndexedDB or
 * the localStorage fallback), the changes kept while offline (the outbox: they are not sent for the
 * next user), the service worker's stored API responses and any runtime cache,
 * so the next user of the same phone reads nothing of the last one, online or offline.
 * The app shell (workbox precache) is not user data and stays.
 */
export async function clearStoredUserData(): Promise<void> {
  offlineStatus.reset();
  // The outbox's code is not part of the app's shell: loaded here, on the way out.
  const { outbox, outboxStore } = await import('./outbox-store.ts');
  outbox.reset();
  const tasks: Promise<unknown>[] = [];
  if (indexedDbAvailable()) tasks.push(clear(queryCacheStore()), clear(responsesStore()), clear(outboxStore()));
  try {
    localStorage.removeItem(ALERTS_SEEN_KEY);
    for (const key of Object.keys(localStorage)) if (key.startsWith(LOCAL_CACHE_PREFIX)) localStorage.removeItem(key);
  } catch {
    // Storage blocked: nothing was saved there either.
  }
  if (typeof caches !== 'undefined') {
    tasks.push(
      caches.keys().then((names) => Promise.all(names.filter((n) => !n.startsWith('workbox-precache')).map((n) => caches.delete(n)))),
    );
  }
  const worker = typeof navigator === 'undefined' ? undefined : navigator.serviceWorker?.controller;
  if (worker) {
    // The worker also forgets responses still on their way; wait (briefly) for it to confirm.
    tasks.push(
      new Promise<void>((resolve) => {
        const channel = new MessageChannel();
        const timer = setTimeout(resolve, 2000);
        channel.port1.onmessage = () => {
          clearTimeout(timer);
          resolve();
        };
        worker.postMessage({ type: 'CLEAR_USER_DATA' }, [channel.port2]);
      }),
    );
  }
  await Promise.allSettled(tasks);
}
