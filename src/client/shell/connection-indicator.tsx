import { formatClock } from '#shared/format/dates.ts';
import { useConnectivity, useStaleSince, type Connectivity } from '#client/live/connection-registry.ts';

const LABELS: Record<Connectivity, string> = {
  live: 'Live',
  reconnecting: 'Reconnecting…',
  offline: 'Offline',
  idle: 'Online',
};

const TITLES: Record<Connectivity, string> = {
  live: 'Live feed connected',
  reconnecting: 'Live feed reconnecting',
  offline: 'Offline: live data paused',
  idle: 'Online (no live feed on this screen)',
};

/** A dot and a word on the state of the live feeds (the word is hidden on phones, the title stays). */
export function ConnectionIndicator() {
  const state = useConnectivity();
  const since = useStaleSince();
  const stale = since !== null && (state === 'reconnecting' || state === 'offline') ? ` since ${formatClock(since / 1000)}` : '';
  return (
    <span className={`connection connection-${state}`} role="status" title={`${TITLES[state]}${stale}`} data-connection={state}>
      <span className="connection-dot" aria-hidden="true" />
      <span className="connection-label">
        {LABELS[state]}
        {stale ? <span className="connection-since">{stale}</span> : null}
      </span>
    </span>
  );
}
