import { describe, expect, it } from 'vitest';
import { newestFirst } from './newest-first.ts';

interface Row {
  id: string;
  time: number;
}
const byTime = (rows: Row[]) => newestFirst(rows, (r) => r.time, (r) => r.id).map((r) => r.id);
// 24/11 07:32, 07:38 and 07:40 UTC, in the order issue 16 saw Brokers' cards in.
const at = (hh: number, mm: number) => Date.UTC(2026, 10, 24, hh, mm) / 1000;

describe('newestFirst', () => {
  it('puts the newest trade first whatever order the feed sent', () => {
    expect(byTime([{ id: 'a', time: at(7, 40) }, { id: 'b', time: at(7, 32) }, { id: 'c', time: at(7, 38) }])).toEqual(['a', 'c', 'b']);
  });

  it('orders trades of the same second by key, the same whatever their order in the snapshot', () => {
    const same = at(7, 40);
    const rows = [{ id: 'EURUSD', time: same }, { id: 'AUDUSD', time: same }, { id: 'GBPUSD', time: at(7, 41) }];
    expect(byTime(rows)).toEqual(['GBPUSD', 'AUDUSD', 'EURUSD']);
    expect(byTime(rows.toReversed())).toEqual(['GBPUSD', 'AUDUSD', 'EURUSD']);
  });

  it('leaves the input untouched', () => {
    const rows = [{ id: 'a', time: 1 }, { id: 'b', time: 2 }];
    byTime(rows);
    expect(rows.map((r) => r.id)).toEqual(['a', 'b']);
  });
});
