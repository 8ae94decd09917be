import { queryOptions } from '@tanstack/react-query';
import { endpoints } from '#shared/contract/endpoints.ts';
import type { Period } from '#shared/domain/constants.ts';
import type { Portfolio } from '#shared/domain/portfolios.ts';
import { apiRequest } from '#client/api/http.ts';
import { UPDATE_FAILED } from './write.ts';

/** The report changes with the market: refreshed every 10 s while the screen is open. */
const REFRESH_MS = 10_000;

export const copyKeys = {
  all: () => ['copy'] as const,
  report: (portfolio: Portfolio, period: Period) => ['copy', 'report', { portfolio, period }] as const,
  growth: (account: string, period: Period) => ['copy', 'growth', { account, period }] as const,
  health: (portfolio: Portfolio) => ['copy', 'health', { portfolio }] as const,
};

export const copyQueries = {
  report: (portfolio: Portfolio, period: Period) =>
    queryOptions({
      queryKey: copyKeys.report(portfolio, period),
      queryFn: async ({ signal }) =>
        (await apiRequest(endpoints.copyReport, { query: { portfolio, period }, signal })).data,
      refetchInterval: REFRESH_MS,
      staleTime: REFRESH_MS / 2,
    }),
  health: (portfolio: Portfolio) =>
    queryOptions({
      queryKey: copyKeys.health(portfolio),
      queryFn: async ({ signal }) => (await apiRequest(endpoints.copyHealth, { query: { portfolio }, signal })).data,
      refetchInterval: 30_000,
      staleTime: 15_000,
    }),
  growth: (account: string | undefined, period: Period) =>
    queryOptions({
      queryKey: copyKeys.growth(account ?? '', period),
      queryFn: async ({ signal }) =>
        (await apiRequest(endpoints.copyGrowth, { query: { account: account ?? '', period }, signal })).data,
      enabled: Boolean(account),
      staleTime: REFRESH_MS,
    }),
};

export async function saveRiskLimits(body: { portfolio: Portfolio; max_drawdown_pct: number | null; min_margin_level_pct: number | null }): Promise<string> {
  return (await apiRequest(endpoints.riskLimits, { body, fallbackMessage: UPDATE_FAILED })).message;
}
