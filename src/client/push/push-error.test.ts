import { describe, expect, it } from 'vitest';
import { ApiError } from '#client/api/http.ts';
import { PUSH_BLOCKED, PUSH_FAILED, PUSH_SERVICE_UNREACHABLE, pushErrorText } from './push-error.ts';

describe('pushErrorText', () => {
  it("never shows the browser's raw text: permission granted and the push service unreachable", () => {
    const raw = new DOMException('Registration failed - permission denied', 'NotAllowedError');
    expect(pushErrorText(raw, 'granted')).toBe(PUSH_SERVICE_UNREACHABLE);
    expect(pushErrorText(raw, 'granted')).not.toContain('Registration failed');
    expect(pushErrorText(new DOMException('Registration failed - push service error', 'AbortError'), 'granted')).toBe(PUSH_SERVICE_UNREACHABLE);
  });

  it('says where to allow notifications when they are blocked', () => {
    expect(pushErrorText(new DOMException('Registration failed - permission denied', 'NotAllowedError'), 'denied')).toBe(PUSH_BLOCKED);
  });

  it("gives the spec's network error with the next step when the server does not answer, and the server's message otherwise", () => {
    expect(pushErrorText(new ApiError(0, 'Network error. Please check your connection.'), 'granted')).toBe(
      'Network error. Please check your connection. Then choose Turn on again.',
    );
    expect(pushErrorText(new ApiError(400, 'Push is not configured on this server.'), 'granted')).toBe('Push is not configured on this server.');
  });

  it('keeps its own sentences and has words for anything else', () => {
    expect(pushErrorText(new Error('Notifications were not allowed for this site.'), 'default')).toBe('Notifications were not allowed for this site.');
    expect(pushErrorText('???', 'default')).toBe(PUSH_FAILED);
  });
});
