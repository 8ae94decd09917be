import type { Workbox } from 'workbox-window';
import { listeners } from '#client/listeners.ts';

type Listener = () => void;
const updateReady = listeners();
let workbox: Workbox | null = null;
let updateWaiting = false;
/** How often an open app (an installed PWA may stay open for days) asks for a new version. */
const UPDATE_CHECK_MS = 60 * 60 * 1000;

/**
 * Registers the service worker (production builds only). When a new version has installed and
 * waits, `onUpdateReady` listeners are told; `applyUpdate` lets it take over. Every open tab
 * reloads once a new version controls it, so none keeps running code whose chunks are gone.
 */
export function registerServiceWorker(): void {
  if (!('serviceWorker' in navigator)) return;
  // workbox-window is loaded when the worker is registered (once the page is idle), not with the shell.
  void import('workbox-window').then(({ Workbox }) => register(new Workbox('/sw.js', { scope: '/' })));
}

function register(wb: Workbox): void {
  workbox = wb;
  wb.addEventListener('waiting', () => {
    updateWaiting = true;
    updateReady.emit();
  });
  wb.addEventListener('controlling', (event) => {
    if (event.isUpdate) window.location.reload();
  });
  void wb
    .register()
    .then(() => setInterval(() => void wb.update(), UPDATE_CHECK_MS))
    .catch((error: unknown) => console.error('Service worker registration failed:', error));
}

export function hasUpdateReady(): boolean {
  return updateWaiting;
}

export function onUpdateReady(listener: Listener): () => void {
  return updateReady.subscribe(listener);
}

/** Lets the waiting version take over (the page reloads when it does); reloads at once if none waits any more. */
export function applyUpdate(): void {
  void navigator.serviceWorker.getRegistration().then((registration) => {
    if (workbox && registration?.waiting) workbox.messageSkipWaiting();
    else window.location.reload();
  });
}
