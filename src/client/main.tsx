import { startTransition, StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App, createQueryClient } from './app/app.tsx';
import { createAppRouter } from './app/router.tsx';
import { nextTask } from './next-task.ts';
import { createQueryPersister, startQueryPersistence } from './offline/query-persister.ts';
import { registerServiceWorker } from './offline/sw-register.ts';
import './styles.css';

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root element');

/**
 * The query client (with the device's copy of the kept queries restored into it) and the router
 * are built in tasks of their own before the first render, which a transition then lets React
 * split into slices (the static skeleton stays on screen meanwhile).
 * An async function rather than top-level await, which would keep the bundler from merging the
 * shell's modules into one chunk.
 */
async function start(container: HTMLElement): Promise<void> {
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
void start(root);

// The service worker exists only in production builds (vite-plugin-pwa, injectManifest).
if (import.meta.env.PROD) {
  // After the load event and once the main thread is idle: installing the worker (it downloads the
  // whole precache) must not compete with the first screen. main.tsx itself loads after the first
  // paint (boot.ts), often after the load event has fired.
  const whenIdle = () => (window.requestIdleCallback ?? ((fn: () => void) => setTimeout(fn, 1000)))(() => registerServiceWorker());
  if (document.readyState === 'complete') whenIdle();
  else window.addEventListener('load', whenIdle, { once: true });
}
