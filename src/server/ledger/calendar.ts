/** The books' calendar: UTC days, the 22:00 UTC rollover, months. */
export const DAY_S = 86_400;
/** Swap is charged at the daily rollover, 22:00 UTC (17:00 New York), on weekdays. */
export const ROLLOVER_S = 22 * 3600;

export const dayOf = (epochSeconds: number): number => Math.floor(epochSeconds / DAY_S);

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

/** The month of an instant, as its first day ('YYYY-MM-01'): the key of a month's rebate row. */
export function monthOf(epochSeconds: number): string {
  const d = new Date(epochSeconds * 1000);
  return `${d.getUTCFullYear()}-${String(d.getUTCMonth() + 1).padStart(2, '0')}-01`;
}

/** Is `day` the last day of its month (its end settles the month)? */
export const endsMonth = (day: number): boolean => monthOf((day + 1) * DAY_S) !== monthOf(day * DAY_S);
