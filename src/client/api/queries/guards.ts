import { mutationOptions, queryOptions, type QueryClient } from '@tanstack/react-query';
import { endpoints } from '#shared/contract/endpoints.ts';
import type { SetGuardBody } from '#shared/contract/guards.ts';
import { apiRequest } from '#client/api/http.ts';
import { copyKeys } from '#client/api/queries/copy.ts';
import { idempotencyHeaders, UPDATE_FAILED } from '#client/api/queries/write.ts';
import { relationKeys } from './relations.ts';

/** A guard moves with the follower's equity (each snapshot is measured): read again every 15 s. */
const REFRESH_MS = 15_000;

export const guardKeys = {
  all: () => ['copy-guards'] as const,
  ofAccount: (account: string) => ['copy-guards', 'account', account] as const,
};

export const guardQueries = {
  /** The guards that apply to an account (its own, its relations', its master's); `account` is its account_id. */
  ofAccount: (account: string) =>
    queryOptions({
      queryKey: guardKeys.ofAccount(account),
      queryFn: async ({ signal }) => (await apiRequest(endpoints.guards, { query: { account }, signal })).data,
      refetchInterval: REFRESH_MS,
      staleTime: REFRESH_MS / 2,
    }),
};

const write = () => ({ fallbackMessage: UPDATE_FAILED, headers: idempotencyHeaders({}) });

/**
 * After any guard write: the guards, and the relations and the report, which show a relation's
 * equity-floor guard as its equity stop.
 */
async function refresh(queryClient: QueryClient) {
  await Promise.all([
    queryClient.invalidateQueries({ queryKey: guardKeys.all() }),
    queryClient.invalidateQueries({ queryKey: relationKeys.all() }),
    queryClient.invalidateQueries({ queryKey: copyKeys.all() }),
  ]);
}

/**
 * The guard writes, each with its own Idempotency-Key. None is kept in the outbox: like a close, a
 * guard set, removed or re-armed later, against whatever the equity is by then, is not what was asked.
 */
export const guardMutations = {
  set: (queryClient: QueryClient) =>
    mutationOptions({
      mutationKey: [...guardKeys.all(), 'set'],
      mutationFn: (body: SetGuardBody) => apiRequest(endpoints.setGuard, { body, ...write() }),
      onSuccess: () => refresh(queryClient),
    }),
  remove: (queryClient: QueryClient) =>
    mutationOptions({
      mutationKey: [...guardKeys.all(), 'remove'],
      mutationFn: (id: number) => apiRequest(endpoints.deleteGuard, { params: { id }, ...write() }),
      onSuccess: () => refresh(queryClient),
    }),
  rearm: (queryClient: QueryClient) =>
    mutationOptions({
      mutationKey: [...guardKeys.all(), 'rearm'],
      mutationFn: ({ id, freshMark }: { id: number; freshMark: boolean }) =>
        apiRequest(endpoints.rearmGuard, { params: { id }, body: { fresh_mark: freshMark }, ...write() }),
      onSuccess: () => refresh(queryClient),
    }),
};
