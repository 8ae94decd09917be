import { describe, expect, it } from 'vitest';
import { groupAlerts } from './alert-groups.ts';

const alert = (id: number, type: string, datetime: number, accountId: number | null = 7) => ({ id, type, datetime, accountId });

describe('the notifications list folds a burst of alerts', () => {
  it('makes one line of the alerts of one kind on one account within an hour of the newest, with their count', () => {
    const lines = groupAlerts([alert(5, 'copy', 10_000), alert(4, 'copy', 9_000), alert(3, 'copy', 6_500), alert(2, 'margin', 6_400), alert(1, 'copy', 6_399)]);
    expect(lines.map((l) => [l.id, l.count])).toEqual([[5, 3], [2, 1], [1, 1]]);
  });

  it('keeps accounts apart, and kinds apart', () => {
    const lines = groupAlerts([alert(3, 'copy', 100, 1), alert(2, 'copy', 90, 2), alert(1, 'ping', 80, 1)]);
    expect(lines.map((l) => [l.id, l.count])).toEqual([[3, 1], [2, 1], [1, 1]]);
  });

  it('never folds a change of state: each bridge switch and each guard level stays a line', () => {
    const lines = groupAlerts([alert(4, 'bridge', 100, null), alert(3, 'bridge', 90, null), alert(2, 'guard', 80), alert(1, 'guard', 70)]);
    expect(lines.map((l) => l.count)).toEqual([1, 1, 1, 1]);
  });
});
