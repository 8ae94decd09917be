import { queryOptions } from '@tanstack/react-query';
import { endpoints } from '#shared/contract/endpoints.ts';
import { MAE_MFE_STALE_MS } from '#shared/domain/constants.ts';
import { interval } from '#client/config/runtime-config.ts';
import { apiRequest } from '#client/api/http.ts';

export const statsKeys = {
  all: () => ['stats'] as const,
  maeMfe: (symbol: string) => ['stats', 'mae-mfe', symbol] as const,
};

export const statsQueries = {
  /** MAE/MFE of a symbol's closed deals, in pips (docs/product.md#calls: refetch 30 s, stale 15 s). */
  maeMfe: (symbol: string) =>
    queryOptions({
      queryKey: statsKeys.maeMfe(symbol),
      queryFn: ({ signal }) => apiRequest(endpoints.maeMfe, { query: { symbol }, signal }),
      enabled: symbol !== '',
      refetchInterval: interval('mae_mfe_ms'),
      staleTime: MAE_MFE_STALE_MS,
    }),
};
