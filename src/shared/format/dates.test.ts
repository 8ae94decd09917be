import { describe, expect, it } from 'vitest';
import { formatAxisDate, formatDateFr, formatDayFr, formatMonthYear } from './dates.ts';

// 5 March 2026 14:07:09 UTC = 1 772 719 629 s.
const march5 = Date.UTC(2026, 2, 5, 14, 7, 9) / 1000;

describe('French dates', () => {
  it('show dd/mm/yyyy HH:mm in the given zone', () => {
    expect(formatDateFr(march5, 'UTC')).toBe('05/03/2026 14:07');
    expect(formatDateFr(march5, 'Europe/Paris')).toBe('05/03/2026 15:07');
    expect(formatDateFr(Date.UTC(2026, 0, 1, 0, 5) / 1000, 'UTC')).toBe('01/01/2026 00:05');
  });
  it('default to the runtime zone (UTC under test)', () => {
    expect(formatDateFr(march5)).toBe('05/03/2026 14:07');
  });
  it('show the day alone', () => {
    expect(formatDayFr(march5, 'UTC')).toBe('05/03/2026');
    expect(formatDayFr(Date.UTC(2026, 11, 31, 23, 30) / 1000, 'Europe/Paris')).toBe('01/01/2027');
  });
  it('show — without a time', () => {
    expect(formatDateFr(null)).toBe('—');
    expect(formatDayFr(Number.NaN)).toBe('—');
  });
});

describe('chart axis dates', () => {
  it('use en-US short month and day', () => {
    expect(formatAxisDate(march5, 'UTC')).toBe('Mar 5');
    expect(formatAxisDate(Date.UTC(2026, 11, 31, 23, 59) / 1000, 'UTC')).toBe('Dec 31');
    expect(formatAxisDate(undefined)).toBe('—');
  });
});

describe('month and year', () => {
  it('show the month name and year', () => {
    expect(formatMonthYear(new Date(Date.UTC(2026, 2, 1)), 'en-US', 'UTC')).toBe('March 2026');
    expect(formatMonthYear(new Date(Date.UTC(2026, 2, 1)), 'fr-FR', 'UTC')).toBe('mars 2026');
    expect(formatMonthYear(new Date(Date.UTC(2026, 2, 1)))).toBe('March 2026');
    expect(formatMonthYear(new Date(Number.NaN))).toBe('—');
  });
});
