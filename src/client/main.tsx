import { startTransition, StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App, createQueryClient } from './app/app.tsx';
import { createAppRouter } from './app/router.tsx';
import { warmUpIntl } from './app/warm-up-intl.ts';
import { sessionStore } from './auth/session-store.ts';
import { feature } from './config/runtime-config.ts';
import { nextTask } from './next-task.ts';
import { createQueryPersister, startQueryPersistence } from './offline/query-persister.ts';
import { registerServiceWorker } from './offline/sw-register.ts';
import './styles.css';
// The UI kit's styles, which nearly every screen uses: in the shell's stylesheet, after the base
// styles as before, rather than one small file each that a screen's route adds to the page (a
// signed-in Accounts load inserted seven of them with its code, a request and a millisecond or
// more of main thread each, in one task).
import './ui/section-panel.css';
import './ui/figure-list.css';
import './ui/trade-card.css';
import './ui/trade-cells.css';
import './ui/side-picker.css';
import './ui/sort-select.css';
import './ui/feed-banner.css';
import './ui/currency-summary.css';
import './export/csv-button.css';
import './pdf/report-button.css';

/**
 * The query client (with the device's copy of the kept queries restored into it) and the router
 * are built in tasks of their own before the first render, which a transition then lets React
 * split into slices (the static skeleton stays on screen meanwhile).
 * An async function rather than top-level await, which would keep the bundler from merging the
 * shell's modules into one chunk.
 */
async function start(container: HTMLElement): Promise<void> {
  // A signed-in screen formats figures: the locale data loads in steps meanwhile, not in the
  // screen's first render (a signed-in layout not yet drawn cannot start it: the screen's code
  // holds the first render back until it arrives).
  if (sessionStore.isAuthenticated()) warmUpIntl();
  const queryClient = createQueryClient();
  await startQueryPersistence(queryClient, createQueryPersister());
  await nextTask();
  const router = createAppRouter(queryClient);
  await nextTask();
  startTransition(() => {
    createRoot(container).render(
      <StrictMode>
        <App queryClient={queryClient} router={router} />
      </StrictMode>,
    );
  });
}

/** The runtime configuration turned the service worker off: an installed one goes at the next load. */
function unregisterServiceWorkers(): void {
  void navigator.serviceWorker?.getRegistrations().then((all) => Promise.all(all.map((registration) => registration.unregister())));
}

/**
 * Starts the app. boot.ts loads this module while /config.json may still be on its way, and calls
 * this once the configuration is applied (applyClientConfig, exported here so that the check and
 * the getters share this chunk instead of costing a request of their own).
 */
export function startApp(): void {
  const root = document.getElementById('root');
  if (!root) throw new Error('index.html has no #root element');
  void start(root);
  // The service worker exists only in production builds (vite-plugin-pwa, injectManifest).
  if (import.meta.env.PROD) {
    // After the load event and once the main thread is idle: installing the worker (it downloads the
    // whole precache) must not compete with the first screen. main.tsx itself loads after the first
    // paint (boot.ts), often after the load event has fired.
    const worker = () => (feature('service_worker') ? registerServiceWorker() : unregisterServiceWorkers());
    const whenIdle = () => (window.requestIdleCallback ?? ((fn: () => void) => setTimeout(fn, 1000)))(worker);
    if (document.readyState === 'complete') whenIdle();
    else window.addEventListener('load', whenIdle, { once: true });
  }
}
export { applyClientConfig } from './config/runtime-config.ts';
