import { describe, expect, it } from 'vitest';
import { DEFAULT_PUSH_SERVICE_ORIGINS } from '#server/config.ts';
import { isAllowedPushEndpoint, pushFor } from './rules.ts';

describe('push services the server may post to', () => {
  const defaults = DEFAULT_PUSH_SERVICE_ORIGINS;

  it('are the browsers’ own by default', () => {
    expect(isAllowedPushEndpoint('https://fcm.googleapis.com/fcm/send/abc:APA91b', defaults)).toBe(true);
    expect(isAllowedPushEndpoint('https://updates.push.services.mozilla.com/wpush/v2/gAAAA', defaults)).toBe(true);
    expect(isAllowedPushEndpoint('https://web.push.apple.com/QGuQ', defaults)).toBe(true);
    expect(isAllowedPushEndpoint('https://wns2-par02p.notify.windows.com/w/?token=x', defaults)).toBe(true);
  });

  it('refuse anything else: internal addresses, look-alike hosts, another scheme or port, credentials', () => {
    expect(isAllowedPushEndpoint('http://127.0.0.1:6379/', defaults)).toBe(false);
    expect(isAllowedPushEndpoint('http://169.254.169.254/latest/meta-data', defaults)).toBe(false);
    expect(isAllowedPushEndpoint('https://fcm.googleapis.com.evil.example/x', defaults)).toBe(false);
    expect(isAllowedPushEndpoint('https://evilnotify.windows.com/x', defaults)).toBe(false);
    expect(isAllowedPushEndpoint('https://notify.windows.com/x', defaults)).toBe(false);
    expect(isAllowedPushEndpoint('http://fcm.googleapis.com/fcm/send/x', defaults)).toBe(false);
    expect(isAllowedPushEndpoint('https://fcm.googleapis.com:8443/fcm/send/x', defaults)).toBe(false);
    expect(isAllowedPushEndpoint('https://user:pw@fcm.googleapis.com/fcm/send/x', defaults)).toBe(false);
    expect(isAllowedPushEndpoint('not a url', defaults)).toBe(false);
  });

  it('match a `*.` entry only with well-formed host names under it (parsed, not compared as text)', () => {
    expect(isAllowedPushEndpoint('https://api.push.apple.com/3/device/x', defaults)).toBe(true);
    expect(isAllowedPushEndpoint('https://API.Push.Apple.com/x', defaults)).toBe(true);
    expect(isAllowedPushEndpoint('https://a.b.notify.windows.com/x', defaults)).toBe(true);
    for (const host of ['.push.apple.com', 'a..push.apple.com', '%2e.push.apple.com', '-a.push.apple.com', 'a-.push.apple.com', 'a_b.push.apple.com', 'push.apple.com', 'web.push.apple.com.']) {
      expect(isAllowedPushEndpoint(`https://${host}/x`, defaults), host).toBe(false);
    }
    expect(isAllowedPushEndpoint(`https://${'a'.repeat(64)}.push.apple.com/x`, defaults)).toBe(false);
  });

  it('are exactly the configured list when one is given', () => {
    const local = ['http://127.0.0.1:4555'];
    expect(isAllowedPushEndpoint('http://127.0.0.1:4555/push/1', local)).toBe(true);
    expect(isAllowedPushEndpoint('http://127.0.0.1:4556/push/1', local)).toBe(false);
    expect(isAllowedPushEndpoint('https://fcm.googleapis.com/fcm/send/x', local)).toBe(false);
  });
});

describe('who receives an alert on their phone', () => {
  const fxInvestor = { portfolioAuth: ['Global FX'], kinds: null };
  const drawdownOnGlobalFx = { type: 'drawdown', accountId: 7, teikoCategory: 'global forex' };

  it('a user who may see the account and never chose: every pushed kind', () => {
    expect(pushFor(drawdownOnGlobalFx, fxInvestor)).toBe('drawdown');
    expect(pushFor({ ...drawdownOnGlobalFx, type: 'equity_stop' }, fxInvestor)).toBe('equity_stop');
  });

  it('never a user who may not see the account', () => {
    expect(pushFor({ ...drawdownOnGlobalFx, teikoCategory: 'SMA' }, fxInvestor)).toBeNull();
    expect(pushFor({ ...drawdownOnGlobalFx, teikoCategory: null }, fxInvestor)).toBeNull();
  });

  it('a Consolidated Portfolio user sees the global accounts too', () => {
    expect(pushFor(drawdownOnGlobalFx, { portfolioAuth: ['Consolidated Portfolio'], kinds: null })).toBe('drawdown');
  });

  it('a system alert (the bridge) reaches everyone who wants that kind', () => {
    const bridge = { type: 'bridge', accountId: null, teikoCategory: null };
    expect(pushFor(bridge, fxInvestor)).toBe('bridge');
    expect(pushFor(bridge, { ...fxInvestor, kinds: ['drawdown'] })).toBeNull();
  });

  it('only the kinds the user chose, and never a kind that is not pushed', () => {
    expect(pushFor(drawdownOnGlobalFx, { ...fxInvestor, kinds: ['margin'] })).toBeNull();
    expect(pushFor(drawdownOnGlobalFx, { ...fxInvestor, kinds: [] })).toBeNull();
    expect(pushFor({ ...drawdownOnGlobalFx, type: 'slippage' }, fxInvestor)).toBeNull();
  });
});
