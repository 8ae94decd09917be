import { queryOptions } from '@tanstack/react-query';
import { endpoints } from '#shared/contract/endpoints.ts';
import { interval } from '#client/config/runtime-config.ts';
import type { RebatePortfolio } from '#shared/domain/portfolios.ts';
import { apiRequest } from '#client/api/http.ts';

export type RebateGrouping = 'account' | 'broker';

export interface RebatesParams {
  portfolio: RebatePortfolio | null | undefined;
  groupBy: RebateGrouping;
}

export const rebateKeys = {
  all: () => ['rebates'] as const,
  list: ({ portfolio, groupBy }: RebatesParams) => ['rebates', 'list', { portfolio: portfolio ?? null, groupBy }] as const,
};

export const rebateQueries = {
  /** Rebate rows (docs/product.md#calls): only once a portfolio is set; refetch and stale 5 min; no refetch on focus. */
  list: (params: RebatesParams) =>
    queryOptions({
      queryKey: rebateKeys.list(params),
      queryFn: async ({ signal }) => {
        if (!params.portfolio) throw new Error('A portfolio is required.');
        const response = await apiRequest(endpoints.rebates, {
          query: { group_by: params.groupBy, portfolio: params.portfolio },
          signal,
        });
        return response.data;
      },
      enabled: Boolean(params.portfolio),
      refetchInterval: interval('rebates_ms'),
      staleTime: interval('rebates_ms'),
      refetchOnWindowFocus: false,
    }),
};
