import { formatClock, formatDateFr } from '#shared/format/dates.ts';

/**
 * 'as of 14:07' for a time of today, 'as of 27/11/2026 14:07' for an older one: the time a stale or
 * kept figure dates from, written where the user reads the figure (docs/client.md, "Offline").
 */
export function asOf(epochMs: number, now: number = Date.now()): string {
  const sameDay = new Date(epochMs).toDateString() === new Date(now).toDateString();
  return `as of ${sameDay ? formatClock(epochMs / 1000).slice(0, 5) : formatDateFr(epochMs / 1000)}`;
}
