import { lazy, Suspense, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { alertQueries } from '#client/api/queries/alerts.ts';
import { ALERTS_SEEN_KEY } from '#client/offline/offline-api.ts';
import { BellIcon } from '#client/ui/icons.tsx';

function readSeen(): number {
  try {
    return Number(localStorage.getItem(ALERTS_SEEN_KEY)) || 0;
  } catch {
    return 0;
  }
}

const NotificationsPanel = lazy(() => import('./notifications-panel.tsx').then((m) => ({ default: m.NotificationsPanel })));

/** The bell and its panel: a bottom sheet on phones, a panel under the bar on large screens. */
export function Notifications() {
  const [open, setOpen] = useState(false);
  // The panel (and framer-motion with it) loads on the first open, not with the shell.
  const [opened, setOpened] = useState(false);
  const [seen, setSeen] = useState(readSeen);
  const alerts = useQuery(alertQueries.list());
  const newest = alerts.data?.reduce((max, a) => Math.max(max, a.id), 0) ?? 0;
  const unread = alerts.data?.filter((a) => a.id > seen).length ?? 0;
  // The badge's words are in the button's name (WCAG 2.5.3: what is seen can be said).
  const badge = unread > 99 ? '99+' : String(unread);

  const toggle = () => {
    setOpen((wasOpen) => !wasOpen);
    setOpened(true);
    if (newest > seen) {
      setSeen(newest);
      try {
        localStorage.setItem(ALERTS_SEEN_KEY, String(newest));
      } catch {
        // Not kept: the badge comes back after a reload, nothing else.
      }
    }
  };

  return (
    <>
      <button
        type="button"
        className="icon-button bell"
        aria-label={unread > 0 ? `Notifications, ${badge} new` : 'Notifications'}
        aria-haspopup="dialog"
        aria-expanded={open}
        onClick={toggle}
      >
        <BellIcon />
        {unread > 0 ? (
          <span className="bell-badge" aria-hidden="true">
            {badge}
          </span>
        ) : null}
      </button>
      {opened ? (
        <Suspense fallback={null}>
          <NotificationsPanel open={open} onClose={() => setOpen(false)} />
        </Suspense>
      ) : null}
    </>
  );
}
