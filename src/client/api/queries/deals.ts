import { queryOptions } from '@tanstack/react-query';
import { endpoints } from '#shared/contract/endpoints.ts';
import { HISTORICAL_DEALS_STALE_MS } from '#shared/domain/constants.ts';
import { interval } from '#client/config/runtime-config.ts';
import { apiRequest } from '#client/api/http.ts';

/** docs/product.md#errors: historical deals need an account. */
export const ACCOUNT_REQUIRED = 'Account is required';

export interface HistoricalDealsParams {
  account: string | undefined;
  filterRebalancing: boolean;
  /** Epoch seconds; undefined for all time (docs/product.md#constants periods). */
  startDate?: number | undefined;
}

export const dealKeys = {
  all: () => ['deals'] as const,
  historical: ({ account, filterRebalancing, startDate }: HistoricalDealsParams) =>
    ['deals', 'historical', { account: account || null, filterRebalancing, startDate: startDate ?? null }] as const,
};

export const dealQueries = {
  /** Deals, series and stats of one account (docs/product.md#calls: refetch 30 s, stale 60 s); disabled until an account is chosen. */
  historical: (params: HistoricalDealsParams) =>
    queryOptions({
      queryKey: dealKeys.historical(params),
      queryFn: async ({ signal }) => {
        if (!params.account) throw new Error(ACCOUNT_REQUIRED);
        return apiRequest(endpoints.historicalDeals, {
          query: { account: params.account, filter_rebalancing: params.filterRebalancing ? 'true' : 'false', start_date: params.startDate },
          signal,
        });
      },
      enabled: Boolean(params.account),
      refetchInterval: interval('historical_deals_ms'),
      staleTime: HISTORICAL_DEALS_STALE_MS,
    }),
};
