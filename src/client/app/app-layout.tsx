import { Outlet } from '@tanstack/react-router';
import { OfflineNotice } from '#client/shell/offline-notice.tsx';
import { TopBar } from './top-bar.tsx';

export function AppLayout() {
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
