import { describe, expect, it } from 'vitest';
import { missCallsForAlert } from './miss-alerts.ts';

describe('which missed copies are alerts', () => {
  it('records a copy the setup chose not to make without an alert: the pair not allowed, the bridge off, a guard or equity stop holding back', () => {
    for (const reason of ['pair_not_allowed', 'bridge_off', 'guard_close_only', 'guard_closed', 'equity_stop'] as const) expect(missCallsForAlert(reason), reason).toBe(false);
  });

  it('alerts a copy something went wrong for: a terminal away, refused, expired or silent, no server, no margin, no size', () => {
    for (const reason of ['agent_offline', 'server_down', 'rejected', 'expired', 'unanswered', 'no_margin', 'no_size'] as const) expect(missCallsForAlert(reason), reason).toBe(true);
  });
});
