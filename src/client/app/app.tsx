import { useEffect, useRef } from 'react';
import { QueryClient } from '@tanstack/react-query';
import { PersistQueryClientProvider, type Persister } from '@tanstack/react-query-persist-client';
import { RouterProvider } from '@tanstack/react-router';
import { useSession } from '#client/auth/session-store.ts';
import { APP_VERSION, DEFAULT_RETRY, DEFAULT_STALE_MS } from '#shared/domain/constants.ts';
import { clearStoredUserData } from '#client/offline/clear-user-data.ts';
import { PERSIST_MAX_AGE_MS, shouldPersistQuery } from '#client/offline/query-persister.ts';
import { ToastProvider } from '#client/ui/toast.tsx';
import { UpdatePrompt } from '#client/shell/update-prompt.tsx';
import type { AppRouter } from './router.tsx';

/** Set by vite.config.ts for each build; the version alone in tests. */
const BUILD_ID = (import.meta.env.VITE_BUILD_ID as string | undefined) ?? APP_VERSION;

/** Query keys whose data is kept on the device for offline reading (NAV, rebates, alerts). */
const KEPT_KEYS = [['nav'], ['rebates'], ['alerts'], ['accounts', 'info']] as const;

/** Query defaults of SPEC §9: no refetch on focus, one retry, 5 s stale time. */
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
  persister: Persister;
  router: AppRouter;
}

/** The app around its router; main.tsx builds the clients and the router (createQueryClient, createQueryPersister, createAppRouter). */
export function App({ queryClient, persister, router }: AppProps) {
  const session = useSession();
  const apiKey = session?.api_key ?? null;
  const isAuthenticated = apiKey !== null;
  const shownKey = useRef<string | null | undefined>(undefined);

  useEffect(() => {
    // Saving or clearing the session re-runs the route guards (SPEC §4). Signed out, or signed in
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
    <PersistQueryClientProvider
      client={queryClient}
      persistOptions={{
        persister,
        maxAge: PERSIST_MAX_AGE_MS,
        // A new build may change a payload's shape: data saved by another build is not restored.
        buster: BUILD_ID,
        dehydrateOptions: { shouldDehydrateQuery: shouldPersistQuery },
      }}
    >
      <ToastProvider>
        <RouterProvider router={router} context={{ queryClient, auth: { isAuthenticated } }} />
        <UpdatePrompt />
      </ToastProvider>
    </PersistQueryClientProvider>
  );
}
