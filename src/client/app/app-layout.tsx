import { lazy, Suspense, useEffect } from 'react';
import { Outlet } from '@tanstack/react-router';
import { OfflineNotice } from '#client/shell/offline-notice.tsx';
import { useMarkLiveStale } from '#client/offline/stale.ts';
import { useStagedMount } from '#client/ui/use-staged-mount.ts';
import { warmUpIntl } from './warm-up-intl.ts';

// The bar's menus, picker and bell are not needed before sign-in: their code follows the shell, and
// the placeholder holds the bar's place until it has come.
const TopBar = lazy(() => import('./top-bar.tsx').then((m) => ({ default: m.TopBar })));

// Edits kept offline are reviewed on reconnect: rare, so the review's code comes after the shell.
const OutboxReview = lazy(() => import('#client/offline/outbox-review.tsx').then((m) => ({ default: m.OutboxReview })));

/** The bar as index.html's splash draws it, shown for the moment before the real one. */
function TopBarPlaceholder() {
  return (
    <header className="topbar" aria-hidden="true">
      <div className="topbar-inner">
        {/* Where the real bar has its menu button (phones only, by CSS), so nothing moves when it comes. */}
        <span className="icon-button menu-toggle" />
        <span className="brand">
          <span className="brand-mark" />
          <span className="brand-name">Copy Monitor</span>
        </span>
      </div>
    </header>
  );
}

export function AppLayout() {
  // Signed-in screens are full of figures; the sign-in page has none and skips this.
  useEffect(() => warmUpIntl(), []);
  // While the live feed is down, every P/L on the page is drawn muted (stale.css).
  useMarkLiveStale();
  // The router draws this layout and the screen in one synchronous render; the top bar, with its
  // links, queries and menus, follows a moment later as a transition React renders in slices.
  const stage = useStagedMount(1);
  return (
    <div className="app">
      {stage === 0 ? (
        <TopBarPlaceholder />
      ) : (
        <Suspense fallback={<TopBarPlaceholder />}>
          <TopBar />
        </Suspense>
      )}
      <OfflineNotice />
      {stage === 0 ? null : (
        <Suspense fallback={null}>
          <OutboxReview />
        </Suspense>
      )}
      <main className="page" id="main">
        <Outlet />
      </main>
    </div>
  );
}
