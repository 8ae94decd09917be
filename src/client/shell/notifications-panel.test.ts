import { describe, expect, it } from 'vitest';
import { newestFirst } from './notifications-panel.tsx';

describe('newestFirst', () => {
  it('puts the latest alert first whatever order they came in, the higher id first at equal times', () => {
    const alerts = [
      { id: 1, type: 'ping', message: 'a', datetime: 100 },
      { id: 3, type: 'margin', message: 'b', datetime: 300 },
      { id: 2, type: 'bridge', message: 'c', datetime: 300 },
      { id: 4, type: 'ping', message: 'd', datetime: 200 },
    ];
    expect(newestFirst(alerts).map((a) => a.id)).toEqual([3, 2, 4, 1]);
    expect(alerts.map((a) => a.id)).toEqual([1, 3, 2, 4]);
  });
});
