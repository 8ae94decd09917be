import { afterEach, describe, expect, it, vi } from 'vitest';
import type { MarketSnapshot } from '#server/broker/port.ts';
import type { ExcursionCache } from './excursion-cache.ts';
import { LiveHub } from './live-hub.ts';

const snapshotAt = (at: number): MarketSnapshot => ({
  at, seq: at, instruments: new Map(), rates: new Map(), mids: new Map(), accounts: new Map(), positions: [],
});

afterEach(() => {
  vi.useRealTimers();
});

describe('the live feeds\' pace', () => {
  it('sends each 1-second tick at once even when ticks come a little early, and skips none (no drift)', () => {
    vi.useFakeTimers();
    const hub = new LiveHub({ refresh: async () => {}, get: () => undefined } as unknown as ExcursionCache, 1000, () => Date.now());
    const sent: { at: number; snapshot: number }[] = [];
    hub.broadcast = (s: MarketSnapshot) => void sent.push({ at: Date.now(), snapshot: s.at });
    // Ticks heard 995 ms apart (a follower hearing the leader over Redis, timers a little early),
    // 300 of them: each goes out within a few ms of its arrival.
    for (let i = 0; i < 300; i++) {
      hub.update(snapshotAt(Date.now()));
      vi.advanceTimersByTime(995);
    }
    vi.advanceTimersByTime(2_000);
    expect(sent).toHaveLength(300);
    const delays = sent.map((s) => s.at - s.snapshot);
    expect(Math.max(...delays)).toBeLessThan(50);
    hub.close();
  });

  it('still holds a burst between ticks: at most one message per 0.8 interval, the last change last', () => {
    vi.useFakeTimers();
    const hub = new LiveHub({ refresh: async () => {}, get: () => undefined } as unknown as ExcursionCache, 1000, () => Date.now());
    const sent: number[] = [];
    const times: number[] = [];
    hub.broadcast = (s: MarketSnapshot) => {
      sent.push(s.at);
      times.push(Date.now());
    };
    const start = Date.now();
    for (let i = 0; i < 10; i++) {
      hub.update(snapshotAt(Date.now()));
      vi.advanceTimersByTime(50);
    }
    vi.advanceTimersByTime(2_000);
    // The first at once, the other nine coalesced into one with the last change.
    expect(sent).toEqual([start, start + 450]);
    // …sent 0.8 interval after the first.
    expect(times).toEqual([start, start + 800]);
    hub.close();
  });
});
