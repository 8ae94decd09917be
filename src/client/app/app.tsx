import { useEffect, useRef } from 'react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { RouterProvider } from '@tanstack/react-router';
import { useSession } from '#client/auth/session-store.ts';
import { DEFAULT_RETRY, DEFAULT_STALE_MS } from '#shared/domain/constants.ts';
import { clearStoredUserData } from '#client/offline/clear-user-data.ts';
import { PERSIST_MAX_AGE_MS } from '#client/offline/query-persister.ts';
import { onServerRegained } from '#client/live/reachability.ts';
import { ToastProvider } from '#client/ui/toast.tsx';
import { UpdatePrompt } from '#client/shell/update-prompt.tsx';
import type { AppRouter } from './router.tsx';

/** Query keys the service worker also answers from its own store offline (NAV, rebates, alerts). */
const WORKER_KEPT_KEYS = [['nav'], ['rebates'], ['alerts'], ['accounts', 'info']] as const;

/**
 * Query defaults of docs/product.md#constants: no refetch on focus, one retry, 5 s stale time.
 * Every answer is kept on the device (query-persister.ts) and lives in memory as long as it may be
 * restored, so a screen visited once reads offline. Other queries pause while the browser is offline
 * (their data stays, no error) and resume when it is back.
 */
export function createQueryClient(): QueryClient {
  const client = new QueryClient({
    defaultOptions: {
      queries: { refetchOnWindowFocus: false, retry: DEFAULT_RETRY, staleTime: DEFAULT_STALE_MS, gcTime: PERSIST_MAX_AGE_MS },
    },
  });
  for (const key of WORKER_KEPT_KEYS) {
    // Asked for even when the browser says offline, so the service worker can answer from its store.
    client.setQueryDefaults(key, { networkMode: 'offlineFirst' });
  }
  return client;
}

/**
 * When the server answers again after being unreachable (the network is back, or the app started
 * offline), every query is marked stale and the shown ones are fetched at once: a figure that failed
 * offline and has no refetch period of its own (P/L windows, the bridge switch) never stays '—' or '…'.
 */
export function refetchWhenServerRegained(queryClient: QueryClient): () => void {
  const refetch = () => void queryClient.invalidateQueries({ refetchType: 'active' });
  const onOnline = () => refetch();
  const stop = onServerRegained(refetch);
  window.addEventListener('online', onOnline);
  return () => {
    stop();
    window.removeEventListener('online', onOnline);
  };
}

export interface AppProps {
  queryClient: QueryClient;
  router: AppRouter;
}

/**
 * The app around its router. main.tsx builds the query client, restores the device's copy of the
 * kept queries into it (startQueryPersistence) and builds the router before the first render.
 */
export function App({ queryClient, router }: AppProps) {
  const session = useSession();
  const apiKey = session?.api_key ?? null;
  const isAuthenticated = apiKey !== null;
  const shownKey = useRef<string | null | undefined>(undefined);

  useEffect(() => {
    // Saving or clearing the session re-runs the route guards (docs/product.md#states). Signed out, or signed in
    // as someone else (another tab), nothing of the last user stays in memory or on the device.
    const previous = shownKey.current;
    shownKey.current = apiKey;
    if (apiKey === null || (previous !== undefined && previous !== null && previous !== apiKey)) {
      void queryClient.cancelQueries();
      queryClient.clear();
      void clearStoredUserData();
    }
    void router.invalidate();
  }, [apiKey, router, queryClient]);

  useEffect(() => refetchWhenServerRegained(queryClient), [queryClient]);

  return (
    <QueryClientProvider client={queryClient}>
      <ToastProvider>
        <RouterProvider router={router} context={{ queryClient, auth: { isAuthenticated } }} />
        <UpdatePrompt />
      </ToastProvider>
    </QueryClientProvider>
  );
}
