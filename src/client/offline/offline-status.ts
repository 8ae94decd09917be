import { useSyncExternalStore } from 'react';
import { listeners } from '#client/listeners.ts';

/**
 * Whether what the screen shows came from the device rather than the server: the browser is
 * offline, or the service worker answered from its store (OFFLINE_HEADER). Read by the
 * 'Offline — data from {time}' notice.
 */
interface State {
  /** When the stored response being shown was saved (epoch ms); null once the server answers again. */
  storedSince: number | null;
  browserOnline: boolean;
}

const changes = listeners();
let state: State = { storedSince: null, browserOnline: typeof navigator === 'undefined' ? true : navigator.onLine };

function update(next: Partial<State>): void {
  const merged = { ...state, ...next };
  if (merged.storedSince === state.storedSince && merged.browserOnline === state.browserOnline) return;
  state = merged;
  changes.emit();
}

let listening = false;
function subscribe(listener: () => void): () => void {
  if (!listening && typeof window !== 'undefined') {
    listening = true;
    window.addEventListener('online', () => update({ browserOnline: true }));
    window.addEventListener('offline', () => update({ browserOnline: false }));
  }
  return changes.subscribe(listener);
}

export const offlineStatus = {
  get: (): State => state,
  subscribe,
  /** A response of an offline-kept call arrived: from the store (savedAt) or from the server (null). */
  reportResponse(savedAt: number | null): void {
    if (savedAt === null) update({ storedSince: null });
    // Several stored responses on one screen: the notice gives the oldest.
    else update({ storedSince: state.storedSince === null ? savedAt : Math.min(state.storedSince, savedAt) });
  },
  /** Forgets everything, e.g. on sign-out. */
  reset(): void {
    update({ storedSince: null });
  },
};

export function useOfflineStatus(): State {
  return useSyncExternalStore(offlineStatus.subscribe, offlineStatus.get, offlineStatus.get);
}
