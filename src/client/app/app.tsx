import { useEffect, useRef } from 'react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { RouterProvider } from '@tanstack/react-router';
import { useSession } from '#client/auth/session-store.ts';
import { DEFAULT_RETRY, DEFAULT_STALE_MS } from '#shared/domain/constants.ts';
import { clearStoredUserData } from '#client/offline/clear-user-data.ts';
import { PERSIST_MAX_AGE_MS } from '#client/offline/query-persister.ts';
import { ToastProvider } from '#client/ui/toast.tsx';
import { UpdatePrompt } from '#client/shell/update-prompt.tsx';
import type { AppRouter } from './router.tsx';

/** Query keys whose data is kept on the device for offline reading (NAV, rebates, alerts). */
const KEPT_KEYS = [['nav'], ['rebates'], ['alerts'], ['accounts', 'info']] as const;

/** Query defaults of docs/product.md#constants: no refetch on focus, one retry, 5 s stale time. */
export function createQueryClient(): QueryClient {
  const client = new QueryClient({
    defaultOptions: { queries: { refetchOnWindowFocus: false, retry: DEFAULT_RETRY, staleTime: DEFAULT_STALE_MS } },
  });
  for (const key of KEPT_KEYS) {
    // Kept data lives as long as it may be restored, and is asked for even when the browser says
    // offline, so the service worker can answer from the device's store.
    client.setQueryDefaults(key, { gcTime: PERSIST_MAX_AGE_MS, networkMode: 'offlineFirst' });
  }
  return client;
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

  return (
    <QueryClientProvider client={queryClient}>
      <ToastProvider>
        <RouterProvider router={router} context={{ queryClient, auth: { isAuthenticated } }} />
        <UpdatePrompt />
      </ToastProvider>
    </QueryClientProvider>
  );
}
