/**
 * The page's entry: lets the browser paint the static skeleton of index.html first, then loads the
 * app (React, router, shell). Evaluating the app's JavaScript before the first paint would hold
 * the skeleton back on slow phones.
 */
function afterFirstPaint(): Promise<void> {
  return new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)));
}

void afterFirstPaint().then(() => import('./main.tsx'));
