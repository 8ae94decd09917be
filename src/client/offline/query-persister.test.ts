import { describe, expect, it } from 'vitest';
import { asLastSuccess, isPersistedKey, LIVE_SNAPSHOT_ROOT, shouldPersistQuery } from './query-persister.ts';
import { accountKeys } from '#client/api/queries/accounts.ts';
import { alertKeys } from '#client/api/queries/alerts.ts';
import { navKeys } from '#client/api/queries/nav.ts';
import { rebateKeys } from '#client/api/queries/rebates.ts';

describe('what is kept for offline reading', () => {
  it('keeps NAV (real-time and historical), rebates and alerts', () => {
    expect(isPersistedKey(accountKeys.info('SMA'))).toBe(true);
    expect(isPersistedKey(navKeys.historical('3.2026'))).toBe(true);
    expect(isPersistedKey(rebateKeys.list({ portfolio: 'All', groupBy: 'account' }))).toBe(true);
    expect(isPersistedKey(alertKeys.list())).toBe(true);
  });
  it('keeps every screen\'s answers and the live feeds\' snapshots (issue 40), not push preferences', () => {
    expect(isPersistedKey(accountKeys.maxDrawdown('GFX Master'))).toBe(true);
    expect(isPersistedKey(accountKeys.historicalLosses())).toBe(true);
    expect(isPersistedKey(accountKeys.brokers())).toBe(true);
    expect(isPersistedKey(['deals', 'x'])).toBe(true);
    expect(isPersistedKey([LIVE_SNAPSHOT_ROOT, 'feed'])).toBe(true);
    expect(isPersistedKey(['push', 'preferences'])).toBe(false);
  });
  it('keeps answers with data, a failed refetch saved as the success it last was', () => {
    const key = alertKeys.list();
    expect(shouldPersistQuery({ queryKey: key, state: { status: 'success', data: [] } as never })).toBe(true);
    expect(shouldPersistQuery({ queryKey: key, state: { status: 'error', data: [] } as never })).toBe(true);
    expect(shouldPersistQuery({ queryKey: key, state: { status: 'error', data: undefined } as never })).toBe(false);
    const saved = asLastSuccess({
      timestamp: 1,
      buster: 'b',
      clientState: {
        mutations: [],
        queries: [{ queryHash: 'h', queryKey: key, dehydratedAt: 1, state: { status: 'error', data: [1], error: new Error('x') } as never }],
      },
    });
    expect(saved.clientState.queries[0]!.state).toMatchObject({ status: 'success', data: [1], error: null });
  });
});
