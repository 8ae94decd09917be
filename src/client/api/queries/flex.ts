import { mutationOptions, queryOptions, type QueryClient } from '@tanstack/react-query';
import { endpoints } from '#shared/contract/endpoints.ts';
import type { SetFlexBody } from '#shared/contract/flex.ts';
import { apiRequest } from '#client/api/http.ts';
import { accountKeys } from '#client/api/queries/accounts.ts';
import { dealKeys } from '#client/api/queries/deals.ts';
import { IMPORT_FAILED } from '#client/api/queries/statement-import.ts';
import { idempotencyHeaders, UPDATE_FAILED } from '#client/api/queries/write.ts';

/** The account a Flex panel is about. */
export interface FlexAccount {
  /** The account_id, the path parameter of the Flex routes. */
  account_id: string;
  /** The login (U1234567), as statements name it. */
  account: string;
  account_name: string;
}

/** The settings change when a write user changes them; the schedule's fetch moves the status once a day. */
const STATUS_REFRESH_MS = 60_000;
/** While a fetch is due, the status is read again this often. */
const DUE_REFRESH_MS = 5_000;
const DUE_WATCH_MS = 10 * 60_000;

export const flexKeys = {
  all: () => ['flex'] as const,
  status: (account: string) => ['flex', 'status', account] as const,
};

export const flexQueries = {
  /** Whether an Interactive Brokers account has a Flex token (never the token), its query id and how its fetches went. */
  status: (account: string) =>
    queryOptions({
      queryKey: flexKeys.status(account),
      queryFn: async ({ signal }) => (await apiRequest(endpoints.flexStatus, { params: { account }, signal })).data,
      // A fetch that is due (the first one runs as soon as a token is set) is read again soon, so its
      // outcome shows without waiting a minute.
      refetchInterval: (query) => {
        const next = query.state.data?.next_fetch_at;
        const overdueMs = next == null ? -1 : Date.now() - next * 1000;
        // A fetch long overdue (no instance runs the schedule) is not asked after every few seconds.
        return overdueMs >= 0 && overdueMs < DUE_WATCH_MS ? DUE_REFRESH_MS : STATUS_REFRESH_MS;
      },
      staleTime: DUE_REFRESH_MS,
    }),
};

const write = (fallbackMessage: string) => ({ fallbackMessage, headers: idempotencyHeaders({}) });

/**
 * The Flex writes of one account (`account` is its account_id), each with what it makes stale: the
 * status after any of them; the account's deals and figures too after a fetch, which books a statement.
 */
export const flexMutations = {
  set: (queryClient: QueryClient, account: string) =>
    mutationOptions({
      mutationKey: [...flexKeys.all(), 'set', account],
      mutationFn: async (body: SetFlexBody) => (await apiRequest(endpoints.setFlex, { params: { account }, body, ...write(UPDATE_FAILED) })).data,
      onSuccess: async (status) => {
        queryClient.setQueryData(flexKeys.status(account), status);
        await queryClient.invalidateQueries({ queryKey: flexKeys.all() });
      },
    }),
  remove: (queryClient: QueryClient, account: string) =>
    mutationOptions({
      mutationKey: [...flexKeys.all(), 'remove', account],
      mutationFn: () => apiRequest(endpoints.deleteFlex, { params: { account }, ...write(UPDATE_FAILED) }),
      onSuccess: () => queryClient.invalidateQueries({ queryKey: flexKeys.all() }),
    }),
  fetchNow: (queryClient: QueryClient, account: string) =>
    mutationOptions({
      mutationKey: [...flexKeys.all(), 'fetch', account],
      mutationFn: () => apiRequest(endpoints.fetchFlex, { params: { account }, ...write(IMPORT_FAILED) }),
      // Read again in the background, so the summary shows at once and the panels catch up: the
      // books after a statement was booked, the status (the last fetch) either way.
      onSuccess: () => {
        void queryClient.invalidateQueries({ queryKey: dealKeys.all() });
        void queryClient.invalidateQueries({ queryKey: accountKeys.all() });
      },
      onSettled: () => void queryClient.invalidateQueries({ queryKey: flexKeys.all() }),
    }),
};
