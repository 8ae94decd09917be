import { useEffect, useState } from 'react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { RouterProvider } from '@tanstack/react-router';
import { useSession } from '#client/auth/session-store.ts';
import { DEFAULT_RETRY, DEFAULT_STALE_MS } from '#shared/domain/constants.ts';
import { createAppRouter } from './router.tsx';

/** Query defaults of SPEC §9: no refetch on focus, one retry, 5 s stale time. */
export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: { queries: { refetchOnWindowFocus: false, retry: DEFAULT_RETRY, staleTime: DEFAULT_STALE_MS } },
  });
}

export function App() {
  const [queryClient] = useState(createQueryClient);
  const [router] = useState(() => createAppRouter(queryClient));
  const session = useSession();
  const isAuthenticated = Boolean(session?.api_key);

  useEffect(() => {
    // Saving or clearing the session re-runs the route guards (SPEC §4).
    if (!isAuthenticated) queryClient.clear();
    void router.invalidate();
  }, [isAuthenticated, router, queryClient]);

  return (
    <QueryClientProvider client={queryClient}>
      <RouterProvider router={router} context={{ queryClient, auth: { isAuthenticated } }} />
    </QueryClientProvider>
  );
}
