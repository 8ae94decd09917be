import { queryOptions } from '@tanstack/react-query';
import { endpoints } from '#shared/contract/endpoints.ts';
import { apiRequest } from '#client/api/http.ts';
import { idempotencyHeaders, UPDATE_FAILED, type WriteOptions } from './write.ts';

export const bridgeKeys = {
  all: () => ['bridge'] as const,
  status: () => ['bridge', 'status'] as const,
};

export const bridgeQueries = {
  /** Whether the data bridge copies trades, for the top bar's toggle. */
  status: () =>
    queryOptions({
      queryKey: bridgeKeys.status(),
      queryFn: async ({ signal }) => (await apiRequest(endpoints.bridgeStatus, { signal })).data,
    }),
};

function switchBridge(endpoint: typeof endpoints.bridgeStart | typeof endpoints.bridgeStop, options: WriteOptions) {
  return apiRequest(endpoint, {
    fallbackMessage: UPDATE_FAILED,
    headers: idempotencyHeaders(options),
    signal: options.signal,
  });
}

/** Starts copying master trades (docs/product.md#calls). */
export const startBridge = (options: WriteOptions = {}) => switchBridge(endpoints.bridgeStart, options);
/** Stops copying master trades (docs/product.md#calls). */
export const stopBridge = (options: WriteOptions = {}) => switchBridge(endpoints.bridgeStop, options);
