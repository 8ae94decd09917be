import { DAY_S, dayOf } from '#shared/domain/days.ts';

/** The books' swap calendar: the 22:00 UTC rollover on weekdays (days are src/shared/domain/days.ts). */

/** Swap is charged at the daily rollover, 22:00 UTC (17:00 New York), on weekdays. */
export const ROLLOVER_S = 22 * 3600;

export const isWeekend = (day: number): boolean => {
  const dow = new Date(day * DAY_S * 1000).getUTCDay();
  return dow === 0 || dow === 6;
};

/** Rollovers in (from, to]: the nights a position open from `from` to `to` pays swap for. */
export function rolloversBetween(from: number, to: number): number {
  let n = 0;
  for (let d = dayOf(from); d <= dayOf(to); d++) {
    const roll = d * DAY_S + ROLLOVER_S;
    if (roll > from && roll <= to && !isWeekend(d)) n++;
  }
  return n;
}
