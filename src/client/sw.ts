/// <reference lib="webworker" />
/**
 * The service worker (vite-plugin-pwa, injectManifest): precaches the app shell and every lazy
 * chunk, answers navigations with the shell, and keeps the last NAV, rebate and alert responses
 * of each user in IndexedDB to serve them when the network fails (marked with OFFLINE_HEADER).
 * A new version waits until the page asks it to take over ('A new version is available — Reload').
 */
import { clientsClaim } from 'workbox-core';
import { cleanupOutdatedCaches, createHandlerBoundToURL, precacheAndRoute } from 'workbox-precaching';
import { NavigationRoute, registerRoute } from 'workbox-routing';
import { clear, get, set } from 'idb-keyval';
import { API_KEY_HEADER } from '#shared/contract/common.ts';
import {
  isOfflineApiPath,
  OFFLINE_HEADER,
  responseKey,
  responsesStore,
  userPrefix,
  type StoredResponse,
} from './offline/offline-api.ts';

declare const self: ServiceWorkerGlobalScope & { __WB_MANIFEST: (string | { url: string; revision: string | null })[] };

export type WorkerMessage = { type: 'SKIP_WAITING' } | { type: 'CLEAR_USER_DATA' };

cleanupOutdatedCaches();
precacheAndRoute(self.__WB_MANIFEST);
// The first install controls open pages at once; later versions wait for the page's consent.
clientsClaim();

registerRoute(
  new NavigationRoute(createHandlerBoundToURL('/index.html'), {
    denylist: [/^\/api\//, /^\/ws\//],
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
