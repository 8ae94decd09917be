import { startTransition, StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/app.tsx';
import { registerServiceWorker } from './offline/sw-register.ts';
import './styles.css';

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root element');
// A transition lets React render the app in slices, yielding to the browser between them, instead
// of one long task on a slow phone (the static skeleton stays on screen meanwhile).
startTransition(() => {
  createRoot(root).render(
    <StrictMode>
      <App />
    </StrictMode>,
  );
});

// The service worker exists only in production builds (vite-plugin-pwa, injectManifest).
if (import.meta.env.PROD) {
  // After the load event and once the main thread is idle: installing the worker (it downloads the
  // whole precache) must not compete with the first screen. main.tsx itself loads after the first
  // paint (boot.ts), often after the load event has fired.
  const whenIdle = () => (window.requestIdleCallback ?? ((fn: () => void) => setTimeout(fn, 1000)))(() => registerServiceWorker());
  if (document.readyState === 'complete') whenIdle();
  else window.addEventListener('load', whenIdle, { once: true });
}
