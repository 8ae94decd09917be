import { queryOptions } from '@tanstack/react-query';
import { MessageResponse } from '#shared/contract/common.ts';
import { BridgeStatusResponse } from '#shared/contract/bridge.ts';
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
      queryFn: async ({ signal }) => (await apiRequest('/api/bridge/status', { schema: BridgeStatusResponse, signal })).data,
    }),
};

function switchBridge(path: '/api/bridge/start' | '/api/bridge/stop', options: WriteOptions) {
  return apiRequest(path, {
    method: 'POST',
    schema: MessageResponse,
    fallbackMessage: UPDATE_FAILED,
    headers: idempotencyHeaders(options),
    signal: options.signal,
  });
}

/** Starts copying master trades (SPEC §7). */
export const startBridge = (options: WriteOptions = {}) => switchBridge('/api/bridge/start', options);
/** Stops copying master trades (SPEC §7). */
export const stopBridge = (options: WriteOptions = {}) => switchBridge('/api/bridge/stop', options);
