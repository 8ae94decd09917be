import { describe, expect, it } from 'vitest';
import { noticeOf, pushKindOf, screenOfAlert, urgencyOf } from './push-alerts.ts';

describe('a pushed alert', () => {
  it('opens the screen where it can be acted on', () => {
    expect(screenOfAlert('drawdown')).toBe('/accounts');
    expect(screenOfAlert('margin')).toBe('/accounts');
    expect(screenOfAlert('ping')).toBe('/accounts');
    expect(screenOfAlert('equity_stop')).toBe('/copy');
    expect(screenOfAlert('copy')).toBe('/copy');
    expect(screenOfAlert('bridge')).toBe('/');
  });

  it('wakes the phone at once for a stop or a threshold, not for a late account or a copy', () => {
    expect(urgencyOf('equity_stop')).toBe('high');
    expect(urgencyOf('drawdown')).toBe('high');
    expect(urgencyOf('copy')).toBe('normal');
    expect(urgencyOf('ping')).toBe('normal');
  });

  it('is one of the kinds a user chooses; slippage stays in the app', () => {
    expect(pushKindOf('margin')).toBe('margin');
    expect(pushKindOf('slippage')).toBeNull();
    expect(pushKindOf('anything')).toBeNull();
  });

  it('collapses by kind and account: its tag is a valid push topic (≤ 32 URL-safe characters)', () => {
    const notice = noticeOf({ id: 9, type: 'equity_stop', message: 'Equity stop of Follower 1 fired at 900.00 €', at: 1_795_000_000, accountId: 12 });
    expect(notice).toEqual({
      title: 'Equity stop fired',
      body: 'Equity stop of Follower 1 fired at 900.00 €',
      url: '/copy',
      tag: 'equity-stop-12',
      at: 1_795_000_000,
    });
    expect(noticeOf({ id: 1, type: 'bridge', message: 'x', at: 0, accountId: null }).tag).toBe('bridge-all');
    expect(notice.tag).toMatch(/^[A-Za-z0-9_-]{1,32}$/);
  });
});
