import { describe, expect, it } from 'vitest';
import { AGENT_SILENCE_ALERT_S, marginAlert, silenceAlert, type WatchedAccount } from './rules.ts';

const NOW = 1_790_000_000;
const account = (over: Partial<WatchedAccount> = {}): WatchedAccount => ({
  id: 3,
  name: 'AMC Follower 04',
  brokerName: 'Exante',
  equity: 10_000,
  margin: 5_000,
  lastUpdate: NOW,
  ...over,
});

describe('margin level alert (under 150 %, at most once an hour)', () => {
  it('stays quiet at 200 %', () => {
    expect(marginAlert(account(), NOW, undefined)).toBeNull();
  });

  it('alerts at 149 %, with the level rounded in the message', () => {
    // 7,450 / 5,000 = 149 %
    expect(marginAlert(account({ equity: 7_450 }), NOW, undefined)).toEqual({
      type: 'margin',
      message: 'Margin level on AMC Follower 04 fell to 149 % (alert below 150 %).',
      at: NOW,
      accountId: 3,
    });
  });

  it('does not alert at exactly 150 %', () => {
    expect(marginAlert(account({ equity: 7_500 }), NOW, undefined)).toBeNull();
  });

  it('waits an hour after the last alert', () => {
    const low = account({ equity: 6_000 });
    expect(marginAlert(low, NOW, NOW - 3_600)).toBeNull();
    expect(marginAlert(low, NOW, NOW - 3_601)?.message).toBe('Margin level on AMC Follower 04 fell to 120 % (alert below 150 %).');
  });

  it('knows no level without margin in use', () => {
    expect(marginAlert(account({ equity: 0, margin: 0 }), NOW, undefined)).toBeNull();
  });
});

describe("'no update' alert (silent over 180 s, once per silence)", () => {
  it('stays quiet at 180 s', () => {
    expect(silenceAlert(account({ lastUpdate: NOW - 180 }), NOW, false)).toEqual({ alert: null, alerted: false });
  });

  it('alerts at 181 s with the minutes and the broker', () => {
    const step = silenceAlert(account({ lastUpdate: NOW - 300 }), NOW, false);
    expect(step.alert).toEqual({ type: 'ping', message: 'No update from AMC Follower 04 for 5 minutes (Exante).', at: NOW, accountId: 3 });
    expect(step.alerted).toBe(true);
  });

  it('says it once while the silence lasts', () => {
    expect(silenceAlert(account({ lastUpdate: NOW - 900 }), NOW, true)).toEqual({ alert: null, alerted: true });
  });

  it('re-arms once the account reports again within 60 s', () => {
    expect(silenceAlert(account({ lastUpdate: NOW - 59 }), NOW, true).alerted).toBe(false);
    expect(silenceAlert(account({ lastUpdate: NOW - 60 }), NOW, true).alerted).toBe(true);
  });

  it("waits 10 minutes for a terminal agent's account", () => {
    expect(silenceAlert(account({ lastUpdate: NOW - 600 }), NOW, false, AGENT_SILENCE_ALERT_S).alert).toBeNull();
    expect(silenceAlert(account({ lastUpdate: NOW - 601 }), NOW, false, AGENT_SILENCE_ALERT_S).alert?.message).toBe(
      'No update from AMC Follower 04 for 10 minutes (Exante).',
    );
  });
});
