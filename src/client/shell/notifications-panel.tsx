import { useQuery } from '@tanstack/react-query';
import type { Alert } from '#shared/contract/alerts.ts';
import { formatDateFr } from '#shared/format/dates.ts';
import { alertQueries } from '#client/api/queries/alerts.ts';
import { BottomSheet } from '#client/ui/bottom-sheet.tsx';
import { Skeleton } from '#client/ui/skeleton.tsx';
import { PushSettings } from './push-settings.tsx';

/** Newest first, whatever order the server sent (docs/product.md#screens). */
export function newestFirst(alerts: readonly Alert[]): Alert[] {
  return [...alerts].sort((a, b) => b.datetime - a.datetime || b.id - a.id);
}

function AlertList() {
  const alerts = useQuery(alertQueries.list());
  if (alerts.isPending) {
    return (
      <ul className="alert-list" aria-busy="true" aria-label="Loading notifications">
        {[0, 1, 2, 3].map((i) => (
          <li key={i} className="alert-item">
            <Skeleton width="30%" height={12} />
            <Skeleton width="90%" height={14} />
            <Skeleton width="40%" height={12} />
          </li>
        ))}
      </ul>
    );
  }
  if (alerts.isError && !alerts.data) return <p className="alert-state error" role="alert">Error loading notifications</p>;
  if (alerts.data.length === 0) return <p className="alert-state">No notifications available</p>;
  return (
    <ul className="alert-list">
      {newestFirst(alerts.data).map((alert) => (
        <li key={alert.id} className="alert-item" data-alert-type={alert.type}>
          <span className="alert-type">{alert.type}</span>
          <span className="alert-message">{alert.message}</span>
          {(alert.count ?? 1) > 1 && <span className="alert-count">{`and ${(alert.count ?? 1) - 1} more like it within the hour`}</span>}
          <time className="alert-date" dateTime={new Date(alert.datetime * 1000).toISOString()}>
            {formatDateFr(alert.datetime)}
          </time>
        </li>
      ))}
    </ul>
  );
}

/** The notifications panel: a bottom sheet on phones (drag down or Escape closes it), a panel on large screens. */
export function NotificationsPanel({ open, onClose }: { open: boolean; onClose: () => void }) {
  return (
    <BottomSheet open={open} onClose={onClose} title="Notifications" className="notifications-panel">
      <PushSettings />
      <AlertList />
    </BottomSheet>
  );
}
