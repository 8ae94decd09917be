import { useEffect } from 'react';
import { Outlet } from '@tanstack/react-router';
import { formatDateFr } from '#shared/format/dates.ts';
import { formatMoney } from '#shared/format/money.ts';
import { OfflineNotice } from '#client/shell/offline-notice.tsx';
import { TopBar } from './top-bar.tsx';

/**
 * The browser's first Intl formatter loads its locale data, tens of milliseconds on a phone. Doing
 * that in a task of its own while the screen's data is on its way keeps it out of the first
 * render of figures, which would otherwise pay for it inside one long task.
 */
function useFormattersWarmedUp(): void {
  useEffect(() => {
    const timer = setTimeout(() => {
      formatMoney(0, 'EUR');
      formatDateFr(0);
    }, 0);
    return () => clearTimeout(timer);
  }, []);
}

export function AppLayout() {
  useFormattersWarmedUp();
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
