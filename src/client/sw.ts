/// <reference lib="webworker" />
/**
 * The service worker (vite-plugin-pwa, injectManifest): precaches the app shell and every lazy
 * chunk, answers navigations with the shell, and keeps the last NAV, rebate and alert responses
 * of each user in IndexedDB to serve them when the network fails (marked with OFFLINE_HEADER).
 * The runtime configuration (/config.json) goes network first and its last copy is kept too, so
 * an installed app starts offline with the last configuration it saw.
 * A new version waits until the page asks it to take over ('A new version is available — Reload').
 */
import { clientsClaim } from 'workbox-core';
import { cleanupOutdatedCaches, createHandlerBoundToURL, precacheAndRoute } from 'workbox-precaching';
import { NavigationRoute, registerRoute } from 'workbox-routing';
import { clear, createStore, get, set, type UseStore } from 'idb-keyval';
import { API_KEY_HEADER } from '#shared/contract/common.ts';
import {
  isOfflineApiPath,
  OFFLINE_HEADER,
  responseKey,
  responsesStore,
  userPrefix,
  type StoredResponse,
} from './offline/offline-api.ts';
import { CONFIG_DB, CONFIG_STORE, CONFIG_URL } from './config/config-url.ts';
import { destinationOf, readNotice } from './push/notice.ts';

declare const self: ServiceWorkerGlobalScope & { __WB_MANIFEST: (string | { url: string; revision: string | null })[] };

export type WorkerMessage = { type: 'SKIP_WAITING' } | { type: 'CLEAR_USER_DATA' };

cleanupOutdatedCaches();
precacheAndRoute(self.__WB_MANIFEST);
// The first install controls open pages at once; later versions wait for the page's consent.
clientsClaim();

registerRoute(
  new NavigationRoute(createHandlerBoundToURL('/index.html'), {
    denylist: [/^\/api\//, /^\/ws\//, /^\/config\.json$/],
  }),
);

/** When the stores were last cleared (sign-out): a response to a request sent before that is not kept. */
let clearedAt = 0;

async function networkThenStored(request: Request): Promise<Response> {
  const startedAt = Date.now();
  const apiKey = request.headers.get(API_KEY_HEADER);
  const key = apiKey ? responseKey(await userPrefix(apiKey), new URL(request.url)) : null;
  try {
    const response = await fetch(request);
    if (key && response.ok && startedAt >= clearedAt) {
      const copy = response.clone();
      const stored: StoredResponse = {
        body: await copy.text(),
        contentType: copy.headers.get('content-type') ?? 'application/json',
        savedAt: Date.now(),
      };
      if (startedAt >= clearedAt) await set(key, stored, responsesStore());
    }
    return response;
  } catch (error) {
    const stored = key ? await get<StoredResponse>(key, responsesStore()) : undefined;
    if (!stored) throw error;
    return new Response(stored.body, {
      status: 200,
      headers: { 'content-type': stored.contentType, [OFFLINE_HEADER]: String(stored.savedAt) },
    });
  }
}

registerRoute(({ url, request, sameOrigin }) => sameOrigin && request.method === 'GET' && isOfflineApiPath(url.pathname), ({ request }) =>
  networkThenStored(request),
);

/**
 * How long a start waits for the network's /config.json when a copy is kept (a connection that
 * answers nothing must not hold the app on its splash); the network's answer still replaces the
 * copy when it comes.
 */
const CONFIG_NETWORK_WAIT_MS = 4_000;

let config: UseStore | undefined;
/** The configuration's own database: not user data, so sign-out leaves it. */
function configStore(): UseStore {
  config ??= createStore(CONFIG_DB, CONFIG_STORE);
  return config;
}

async function keepConfig(response: Response): Promise<void> {
  const stored: StoredResponse = {
    body: await response.text(),
    contentType: response.headers.get('content-type') ?? 'application/json',
    savedAt: Date.now(),
  };
  await set(CONFIG_URL, stored, configStore());
}

async function keptConfig(): Promise<Response | undefined> {
  const stored = await get<StoredResponse>(CONFIG_URL, configStore()).catch(() => undefined);
  if (!stored) return undefined;
  return new Response(stored.body, {
    status: 200,
    headers: { 'content-type': stored.contentType, 'cache-control': 'no-cache', [OFFLINE_HEADER]: String(stored.savedAt) },
  });
}

/** Network first; the kept copy when the network fails, answers an error status or is slow. */
async function configNetworkFirst(request: Request, event: ExtendableEvent): Promise<Response> {
  const network = fetch(request);
  // Keeps a good answer even when it arrives after the kept copy was served.
  event.waitUntil(network.then((response) => (response.ok ? keepConfig(response.clone()) : undefined)).catch(() => undefined));
  const fallback = async () => (await keptConfig()) ?? network;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const slow = new Promise<'slow'>((resolve) => (timer = setTimeout(() => resolve('slow'), CONFIG_NETWORK_WAIT_MS)));
  try {
    const first = await Promise.race([network, slow]);
    if (first === 'slow') return await fallback();
    return first.ok ? first : ((await keptConfig()) ?? first);
  } catch {
    const kept = await keptConfig();
    if (kept) return kept;
    throw new TypeError(`${CONFIG_URL}: no network and no kept copy`);
  } finally {
    clearTimeout(timer);
  }
}

registerRoute(({ url, request, sameOrigin }) => sameOrigin && request.method === 'GET' && url.pathname === CONFIG_URL, ({ request, event }) =>
  configNetworkFirst(request, event),
);

// A first install keeps the configuration at once: the app may next start offline.
self.addEventListener('install', (event: ExtendableEvent) => {
  event.waitUntil(
    fetch(CONFIG_URL, { cache: 'no-cache', headers: { accept: 'application/json' } })
      .then((response) => (response.ok ? keepConfig(response) : undefined))
      .catch(() => undefined),
  );
});

self.addEventListener('message', (event: ExtendableMessageEvent) => {
  const message = event.data as WorkerMessage | undefined;
  if (message?.type === 'SKIP_WAITING') void self.skipWaiting();
  if (message?.type === 'CLEAR_USER_DATA') {
    clearedAt = Date.now();
    event.waitUntil(
      clear(responsesStore()).then(() => {
        event.ports[0]?.postMessage('cleared');
      }),
    );
  }
});

// Alerts pushed by the server (Web Push): shown even when no page of the app is open; a tap opens
// the alert's screen in an open window of the app, or in a new one.
self.addEventListener('push', (event: PushEvent) => {
  const notice = readNotice(event.data?.text() ?? null);
  event.waitUntil(
    self.registration.showNotification(notice.title, {
      body: notice.body,
      tag: notice.tag,
      data: { url: notice.url },
      icon: '/icons/icon-192.png',
      badge: '/icons/icon-192.png',
      timestamp: notice.at * 1000,
    } as NotificationOptions),
  );
});

self.addEventListener('notificationclick', (event: NotificationEvent) => {
  event.notification.close();
  const opening = openScreen(destinationOf(event.notification.data));
  try {
    event.waitUntil(opening);
  } catch {
    // An event the browser did not dispatch itself (the end-to-end test's) cannot be extended.
  }
});

/** Shows a screen in an open window of the app (focused), or in a new one. */
async function openScreen(path: string): Promise<void> {
  const windows = await self.clients.matchAll({ type: 'window', includeUncontrolled: true });
  const open = windows.find((w) => new URL(w.url).origin === self.location.origin);
  if (!open) {
    await self.clients.openWindow(path);
    return;
  }
  await open.navigate(path).catch(() => undefined);
  await open.focus().catch(() => undefined);
}
