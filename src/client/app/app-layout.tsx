import { useEffect } from 'react';
import { Outlet } from '@tanstack/react-router';
import { OfflineNotice } from '#client/shell/offline-notice.tsx';
import { OutboxReview } from '#client/offline/outbox-review.tsx';
import { useStagedMount } from '#client/ui/use-staged-mount.ts';
import { TopBar } from './top-bar.tsx';
import { warmUpIntl } from './warm-up-intl.ts';

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
  // The router draws this layout and the screen in one synchronous render; the top bar, with its
  // links, queries and menus, follows a moment later as a transition React renders in slices.
  const stage = useStagedMount(1);
  return (
    <div className="app">
      {stage === 0 ? <TopBarPlaceholder /> : <TopBar />}
      <OfflineNotice />
      <OutboxReview />
      <main className="page" id="main">
        <Outlet />
      </main>
    </div>
  );
}
