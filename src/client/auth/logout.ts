import { MessageResponse } from '#shared/contract/common.ts';
import { apiRequest } from '#client/api/http.ts';
import { sessionStore } from './session-store.ts';

/** Revokes the key on the server (best effort: offline, the local session goes anyway) and forgets it. */
export async function logout(): Promise<void> {
  if (sessionStore.get()) {
    await apiRequest('/api/logout', { method: 'POST', schema: MessageResponse }).catch(() => undefined);
  }
  sessionStore.clear();
}
