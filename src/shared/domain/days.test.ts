import { describe, expect, it } from 'vitest';
import { dayOf, dayOfIso, endsMonth, isoOfDay, monthOf, periodDays } from './days.ts';

describe('days', () => {
  it('numbers UTC days from 1970-01-01 and writes them as ISO days', () => {
    expect(dayOf(0)).toBe(0);
    expect(dayOf(Date.UTC(2026, 2, 31, 23, 59, 59) / 1000)).toBe(dayOfIso('2026-03-31'));
    expect(isoOfDay(dayOfIso('2024-02-29'))).toBe('2024-02-29');
    expect(dayOfIso('1970-01-02')).toBe(1);
  });

  it('reads a month and a quarter as their days, both ends included', () => {
    expect(periodDays('2026-03')).toEqual({ fromDay: dayOfIso('2026-03-01'), toDay: dayOfIso('2026-03-31') });
    expect(periodDays('2024-02')).toEqual({ fromDay: dayOfIso('2024-02-01'), toDay: dayOfIso('2024-02-29') });
    expect(periodDays('2026-Q1')).toEqual({ fromDay: dayOfIso('2026-01-01'), toDay: dayOfIso('2026-03-31') });
    expect(periodDays('2025-Q4')).toEqual({ fromDay: dayOfIso('2025-10-01'), toDay: dayOfIso('2025-12-31') });
  });

  it('keys a month by its first day, and knows its last', () => {
    expect(monthOf(Date.UTC(2026, 10, 29, 12) / 1000)).toBe('2026-11-01');
    expect(endsMonth(dayOfIso('2026-11-30'))).toBe(true);
    expect(endsMonth(dayOfIso('2026-11-29'))).toBe(false);
  });
});
