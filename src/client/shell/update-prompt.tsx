import { useSyncExternalStore } from 'react';
import { applyUpdate, hasUpdateReady, onUpdateReady } from '#client/offline/sw-register.ts';

/** 'A new version is available — Reload' once a new service worker waits (workbox-window). */
export function UpdatePrompt() {
  const ready = useSyncExternalStore(onUpdateReady, hasUpdateReady, hasUpdateReady);
  if (!ready) return null;
  return (
    <div className="update-prompt" role="alert">
      <span>A new version is available — </span>
      <button type="button" className="button primary" onClick={applyUpdate}>
        Reload
      </button>
    </div>
  );
}
