import { useSyncExternalStore } from 'react';
import { SessionData } from '#shared/contract/auth.ts';
import { listeners } from '#client/listeners.ts';

/** Local-storage key of the stored user record (docs/product.md#fields). */
export const USER_DATA_KEY = 'user_data';

const changes = listeners();
let cached: { raw: string | null; session: SessionData | null } = { raw: null, session: null };

function read(): SessionData | null {
  let raw: string | null;
  try {
    raw = localStorage.getItem(USER_DATA_KEY);
  } catch {
    return null;
  }
  if (raw === cached.raw) return cached.session;
  let session: SessionData | null = null;
  if (raw) {
    try {
      const parsed = SessionData.safeParse(JSON.parse(raw));
      session = parsed.success ? parsed.data : null;
    } catch {
      // Unparsable stored data means signed out (docs/product.md#states).
      session = null;
    }
  }
  cached = { raw, session };
  return session;
}

const emit = changes.emit;
const subscribe = changes.subscribe;

export const sessionStore = {
  get: read,
  /** Signed in whenever the stored data holds an api key (docs/product.md#states). */
  isAuthenticated: (): boolean => Boolean(read()?.api_key),
  save(session: SessionData): void {
    localStorage.setItem(USER_DATA_KEY, JSON.stringify(session));
    emit();
  },
  clear(): void {
    localStorage.removeItem(USER_DATA_KEY);
    emit();
  },
  subscribe,
};

// Another tab signing in or out changes this one too.
if (typeof window !== 'undefined') {
  window.addEventListener('storage', (e) => {
    if (e.key === USER_DATA_KEY || e.key === null) emit();
  });
}

export function useSession(): SessionData | null {
  return useSyncExternalStore(subscribe, read, () => null);
}
