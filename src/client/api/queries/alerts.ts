import { queryOptions } from '@tanstack/react-query';
import { endpoints } from '#shared/contract/endpoints.ts';
import { interval } from '#client/config/runtime-config.ts';
import { apiRequest } from '#client/api/http.ts';

export const alertKeys = {
  all: () => ['alerts'] as const,
  list: () => ['alerts', 'list'] as const,
};

export const alertQueries = {
  /** Newest alerts first (docs/product.md#calls: refetch 30 s). */
  list: () =>
    queryOptions({
      queryKey: alertKeys.list(),
      queryFn: async ({ signal }) => (await apiRequest(endpoints.alerts, { signal })).alerts,
      refetchInterval: interval('alerts_ms'),
    }),
};
