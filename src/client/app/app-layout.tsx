import { useEffect } from 'react';
import { Outlet } from '@tanstack/react-router';
import { OfflineNotice } from '#client/shell/offline-notice.tsx';
import { TopBar } from './top-bar.tsx';
import { warmUpIntl } from './warm-up-intl.ts';

export function AppLayout() {
  // Signed-in screens are full of figures; the sign-in page has none and skips this.
  useEffect(() => warmUpIntl(), []);
  return (
    <div className="app">
      <TopBar />
      <OfflineNotice />
      <main className="page" id="main">
        <Outlet />
      </main>
    </div>
  );
}
