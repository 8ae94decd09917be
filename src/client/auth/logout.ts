import { endpoints } from '#shared/contract/endpoints.ts';
import { apiRequest } from '#client/api/http.ts';
import { sessionStore } from './session-store.ts';
import { clearStoredUserData } from '#client/offline/clear-user-data.ts';

/**
 * Revokes the key on the server (best effort: offline, the local session goes anyway), forgets it
 * and removes the user's data kept on the device.
 */
export async function logout(): Promise<void> {
  if (sessionStore.get()) {
    // This device stops receiving the user's alerts (while the session can still say so).
    await import('#client/push/device-push.ts').then((push) => push.turnOffPush()).catch(() => undefined);
    await apiRequest(endpoints.logout, {}).catch(() => undefined);
  }
  sessionStore.clear();
  await clearStoredUserData();
}
