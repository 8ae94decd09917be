/**
 * The page's entry: lets the browser paint the static skeleton of index.html first, then loads the
 * app in steps, each evaluated in a task of its own with the browser free in between: React DOM,
 * then the HTTP client with the payload schemas it builds (zod), then the app itself (main.tsx,
 * which builds its clients and router in steps too). Evaluating all of it at once, before or after
 * the first paint, would hold a slow phone's main thread for one long stretch.
 *
 * The runtime configuration (/config.json, docs/product.md#errors) is fetched first thing, while those chunks
 * load, so it adds no round trip of its own; main.tsx checks it against its contract (zod is there
 * by then) and the app starts only with a valid one. Until then the splash says 'Loading
 * configuration...'; when it fails, 'Error loading configuration. Please try again later.' with a
 * Retry button, and the app does not start.
 */
import { loadConfigJson, showConfigState } from './config/boot-config.ts';
import { nextTask } from './next-task.ts';

function afterFirstPaint(): Promise<void> {
  return new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)));
}

async function boot(): Promise<void> {
  let config = loadConfigJson();
  await afterFirstPaint();
  await import('react-dom/client');
  await nextTask();
  await import('./api/http.ts');
  await nextTask();
  const { applyClientConfig, startApp } = await import('./main.tsx');
  while (!applyClientConfig(await config)) config = loadConfigJson(true);
  showConfigState('ready');
  startApp();
}

void boot();
