import { mutationOptions, queryOptions, type QueryClient } from '@tanstack/react-query';
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

export const bridgeMutations = {
  /**
   * Starts (true) or stops (false) the bridge. The switch moves at once (optimistic) and moves back
   * when the call fails; the failure is logged (docs/product.md#errors), and the state is then read
   * again from the server either way.
   */
  toggle: (queryClient: QueryClient) =>
    mutationOptions({
      mutationKey: [...bridgeKeys.all(), 'toggle'],
      mutationFn: (running: boolean) => (running ? startBridge() : stopBridge()),
      onMutate: async (running) => {
        await queryClient.cancelQueries({ queryKey: bridgeKeys.status() });
        const previous = queryClient.getQueryData(bridgeKeys.status());
        queryClient.setQueryData(bridgeKeys.status(), (old) => (old ? { ...old, running } : { running, changed_at: Math.floor(Date.now() / 1000) }));
        return { previous };
      },
      onError: (error, running, context) => {
        console.error(`Bridge ${running ? 'start' : 'stop'} failed:`, error);
        queryClient.setQueryData(bridgeKeys.status(), context?.previous);
      },
      onSettled: () => queryClient.invalidateQueries({ queryKey: bridgeKeys.status() }),
    }),
};
