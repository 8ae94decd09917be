import { describe, expect, it } from 'vitest';
import { isPersistedKey, shouldPersistQuery } from './query-persister.ts';
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
  it('keeps nothing else', () => {
    expect(isPersistedKey(accountKeys.maxDrawdown('GFX Master'))).toBe(false);
    expect(isPersistedKey(accountKeys.brokers())).toBe(false);
    expect(isPersistedKey(['deals', 'x'])).toBe(false);
  });
  it('keeps only successful answers', () => {
    const key = alertKeys.list();
    expect(shouldPersistQuery({ queryKey: key, state: { status: 'success' } as never })).toBe(true);
    expect(shouldPersistQuery({ queryKey: key, state: { status: 'error' } as never })).toBe(false);
  });
});
