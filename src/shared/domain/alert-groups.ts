/**
 * How the notifications list reads a burst of alerts: alerts of one kind on one account within an
 * hour of the newest of them are one line, the newest's text with how many it stands for. A change
 * of state (the bridge, a guard's level) is never folded: each one matters on its own.
 */
export const ALERT_GROUP_WINDOW_S = 3_600;
const NEVER_GROUPED = new Set(['bridge', 'guard']);

export interface GroupableAlert {
  id: number;
  type: string;
  /** epoch seconds */
  datetime: number;
  accountId: number | null;
}

/** Newest first in, newest first out: each line the newest alert of its group, with `count` ≥ 1. */
export function groupAlerts<T extends GroupableAlert>(newestFirst: readonly T[], windowS = ALERT_GROUP_WINDOW_S): (T & { count: number })[] {
  const lines: (T & { count: number })[] = [];
  const open = new Map<string, T & { count: number }>();
  for (const alert of newestFirst) {
    const key = `${alert.type}|${alert.accountId ?? 'all'}`;
    const line = NEVER_GROUPED.has(alert.type) ? undefined : open.get(key);
    if (line && line.datetime - alert.datetime <= windowS) {
      line.count++;
      continue;
    }
    const fresh = { ...alert, count: 1 };
    lines.push(fresh);
    open.set(key, fresh);
  }
  return lines;
}
