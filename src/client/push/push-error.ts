/**
 * What a failure to turn alerts on or off says, in words with the next step (docs/client.md,
 * "Honest outcomes"): never the browser's raw text ('Registration failed - permission denied' is
 * Chromium's when its push service cannot be reached, even with permission granted).
 */
import { ApiError, NETWORK_ERROR } from '#client/api/http.ts';

export const PUSH_SERVICE_UNREACHABLE =
  "This browser's push service could not be reached, so alerts were not turned on for this device. Check your connection and try again later; meanwhile alerts still appear under the bell.";
export const PUSH_BLOCKED = "Notifications are blocked for this site. Allow them in the browser's site settings, then choose Turn on again.";
export const PUSH_FAILED = 'Alerts could not be turned on for this device. Try again; meanwhile alerts still appear under the bell.';

/** The sentence for a failed turn on or off; `permission` is Notification.permission at the time. */
export function pushErrorText(error: unknown, permission: NotificationPermission): string {
  if (error instanceof ApiError) return error.status === 0 ? `${NETWORK_ERROR} Then choose Turn on again.` : error.message;
  if (typeof DOMException !== 'undefined' && error instanceof DOMException) {
    if (permission === 'denied') return PUSH_BLOCKED;
    // NotAllowedError with permission granted, AbortError, NetworkError …: the push service itself.
    return PUSH_SERVICE_UNREACHABLE;
  }
  // turnOnPush's own sentences already say what to do.
  if (error instanceof Error && error.message) return error.message;
  return PUSH_FAILED;
}
