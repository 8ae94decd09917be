import { describe, expect, it } from 'vitest';
import { isStale, STALE_GRACE_MS } from './stale.ts';
import { asOf } from './as-of.ts';
import { firstReported, hasReported } from './first-report.ts';

describe('stale figures (issue 40 item 2)', () => {
  const period = 5_000;
  it('are fresh within two refresh periods and the grace, stale after', () => {
    expect(isStale(0, period, 2 * period + STALE_GRACE_MS, false, false)).toBe(false);
    expect(isStale(0, period, 2 * period + STALE_GRACE_MS + 1, false, false)).toBe(true);
  });
  it('are stale at once while a feed is down or the device offline', () => {
    expect(isStale(0, period, 1, true, false)).toBe(true);
    expect(isStale(0, period, 1, false, true)).toBe(true);
  });
  it("say 'as of hh:mm' today and the date before", () => {
    const now = new Date(2026, 10, 28, 15, 36).getTime();
    expect(asOf(new Date(2026, 10, 28, 9, 5).getTime(), now)).toBe('as of 09:05');
    expect(asOf(new Date(2026, 10, 27, 9, 5).getTime(), now)).toBe('as of 27/11/2026 09:05');
  });
});

describe('an account that never reported', () => {
  it('is told by last_update 0 and is never the default while another has reported', () => {
    expect(hasReported({ last_update: 0 })).toBe(false);
    expect(hasReported({ last_update: 1 })).toBe(true);
    expect(firstReported([{ id: 'a', last_update: 0 }, { id: 'b', last_update: 5 }])?.id).toBe('b');
    expect(firstReported([{ id: 'a', last_update: 0 }])?.id).toBe('a');
    expect(firstReported([])).toBeUndefined();
  });
});
