/**
 * The page's entry: lets the browser paint the static skeleton of index.html first, then loads the
 * app in steps, each evaluated in a task of its own with the browser free in between: React DOM,
 * then the HTTP client with the payload schemas it builds (zod), then the app itself (main.tsx,
 * which builds its clients and router in steps too). Evaluating all of it at once, before or after
 * the first paint, would hold a slow phone's main thread for one long stretch.
 */
import { nextTask } from './next-task.ts';

function afterFirstPaint(): Promise<void> {
  return new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)));
}

async function boot(): Promise<void> {
  await afterFirstPaint();
  await import('react-dom/client');
  await nextTask();
  await import('./api/http.ts');
  await nextTask();
  await import('./main.tsx');
}

void boot();
