import { describe, expect, it } from 'vitest';
import { combineConnectivity } from './connection-registry.ts';

describe('combineConnectivity', () => {
  it('is offline whenever the browser is, whatever the feeds say', () => {
    expect(combineConnectivity(['live'], false)).toBe('offline');
    expect(combineConnectivity([], false)).toBe('offline');
  });
  it('is live when any feed is live', () => {
    expect(combineConnectivity(['reconnecting', 'live', 'offline'], true)).toBe('live');
  });
  it('is reconnecting while a feed connects or retries and none is live', () => {
    expect(combineConnectivity(['offline', 'connecting'], true)).toBe('reconnecting');
    expect(combineConnectivity(['reconnecting'], true)).toBe('reconnecting');
  });
  it('is offline when every feed has given up, idle with no feed or only closed ones', () => {
    expect(combineConnectivity(['offline', 'closed'], true)).toBe('offline');
    expect(combineConnectivity([], true)).toBe('idle');
    expect(combineConnectivity(['closed'], true)).toBe('idle');
  });
});
