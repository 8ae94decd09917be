import { mutationOptions, queryOptions, type QueryClient } from '@tanstack/react-query';
import { endpoints } from '#shared/contract/endpoints.ts';
import type { PushKind } from '#shared/domain/push-alerts.ts';
import { apiRequest } from '#client/api/http.ts';

export const pushKeys = {
  preferences: () => ['push', 'preferences'] as const,
};

export const pushQueries = {
  /** The kinds of alert pushed to the caller's devices, and how many devices receive them. */
  preferences: () =>
    queryOptions({
      queryKey: pushKeys.preferences(),
      queryFn: async ({ signal }) => apiRequest(endpoints.pushPreferences, { signal }),
    }),
};

export async function vapidPublicKey(): Promise<string> {
  return (await apiRequest(endpoints.vapidKey, {})).public_key;
}

export async function saveSubscription(subscription: PushSubscriptionJSON): Promise<void> {
  const { endpoint, keys } = subscription;
  if (!endpoint || !keys?.p256dh || !keys.auth) throw new Error('The browser gave an incomplete subscription.');
  await apiRequest(endpoints.pushSubscribe, { body: { endpoint, keys: { p256dh: keys.p256dh, auth: keys.auth } } });
}

export async function forgetSubscription(endpoint: string): Promise<void> {
  await apiRequest(endpoints.pushUnsubscribe, { body: { endpoint } });
}

export async function setPushKinds(kinds: PushKind[]) {
  return apiRequest(endpoints.setPushPreferences, { body: { kinds } });
}

export const pushMutations = {
  /** Which kinds of alert reach every device of the user; the preferences shown are the server's answer. */
  kinds: (queryClient: QueryClient) =>
    mutationOptions({
      mutationKey: ['push', 'kinds'],
      mutationFn: setPushKinds,
      onSuccess: (data) => queryClient.setQueryData(pushKeys.preferences(), data),
    }),
};
