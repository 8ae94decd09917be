import { describe, expect, it } from 'vitest';
import { rolloversBetween } from './calendar.ts';
import { dayOf, endsMonth, monthOf } from '#shared/domain/days.ts';

const at = (iso: string) => Date.parse(iso) / 1000;

describe('swap nights (rollover at 22:00 UTC, weekdays)', () => {
  it('Monday 21:00 to Tuesday 23:00 pays two nights', () => {
    expect(rolloversBetween(at('2026-09-28T21:00:00Z'), at('2026-09-29T23:00:00Z'))).toBe(2);
  });

  it('Friday 21:00 to Monday 23:00 pays Friday and Monday: no weekend rollover', () => {
    expect(rolloversBetween(at('2026-09-25T21:00:00Z'), at('2026-09-28T23:00:00Z'))).toBe(2);
  });

  it('opened after a rollover and closed before the next: none', () => {
    expect(rolloversBetween(at('2026-09-28T22:30:00Z'), at('2026-09-29T21:59:59Z'))).toBe(0);
  });

  it('opened at the rollover does not pay it; closed at it does', () => {
    expect(rolloversBetween(at('2026-09-28T22:00:00Z'), at('2026-09-28T23:00:00Z'))).toBe(0);
    expect(rolloversBetween(at('2026-09-28T21:00:00Z'), at('2026-09-28T22:00:00Z'))).toBe(1);
  });

  it('one tick over the rollover pays one night (the live market)', () => {
    expect(rolloversBetween(at('2026-09-30T21:59:58Z'), at('2026-09-30T22:00:01Z'))).toBe(1);
  });
});

describe('months', () => {
  it('keys a month by its first day', () => {
    expect(monthOf(at('2026-09-30T23:59:59Z'))).toBe('2026-09-01');
    expect(monthOf(at('2026-10-01T00:00:00Z'))).toBe('2026-10-01');
  });

  it('knows the last day of a month, leap years included', () => {
    expect(endsMonth(dayOf(at('2026-09-30T12:00:00Z')))).toBe(true);
    expect(endsMonth(dayOf(at('2026-09-29T12:00:00Z')))).toBe(false);
    expect(endsMonth(dayOf(at('2026-02-28T12:00:00Z')))).toBe(true);
    expect(endsMonth(dayOf(at('2028-02-28T12:00:00Z')))).toBe(false);
    expect(endsMonth(dayOf(at('2028-02-29T12:00:00Z')))).toBe(true);
  });
});
