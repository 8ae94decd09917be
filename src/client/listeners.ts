/**
 * The change signal of the client's small stores (the session, the connection, reachability, the
 * offline status, the outbox, a waiting service worker): who to tell, and telling them. A store
 * keeps its own state and hands `subscribe` to React's useSyncExternalStore.
 */
export interface Listeners {
  /** Adds a listener; returns what removes it. */
  subscribe: (listener: () => void) => () => void;
  /** Tells each listener there is when it is called, once (one removed meanwhile is still told). */
  emit: () => void;
}

export function listeners(): Listeners {
  const set = new Set<() => void>();
  return {
    subscribe(listener) {
      set.add(listener);
      return () => {
        set.delete(listener);
      };
    },
    emit() {
      for (const listener of [...set]) listener();
    },
  };
}
