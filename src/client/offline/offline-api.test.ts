import { describe, expect, it } from 'vitest';
import { endpoints } from '#shared/contract/endpoints.ts';
import { OFFLINE_API_PATHS } from './offline-api.ts';

// The service worker names the calls it keeps by path (it does not load the schemas); each must be a
// GET of the one endpoint table, so a renamed route cannot silently stop being kept offline.
describe('the calls kept for offline reading', () => {
  it('are GET endpoints of the shared table', () => {
    const gets = new Set<string>(Object.values(endpoints).filter((e) => e.method === 'GET').map((e) => e.path));
    expect(OFFLINE_API_PATHS.filter((p) => !gets.has(p))).toEqual([]);
    expect(OFFLINE_API_PATHS).toEqual([
      endpoints.accountsInfo.path,
      endpoints.historicalNav.path,
      endpoints.rebates.path,
      endpoints.alerts.path,
    ]);
  });
});
