import type { QueryClient } from '@tanstack/react-query';
import { nextTask } from '#client/next-task.ts';

/** Starts one query of a factory: `(client) => client.prefetchQuery(accountQueries.info(p))`. */
export type Prefetch = (client: QueryClient) => Promise<void>;

/**
 * Starts a screen's queries from its route's loader, before the screen renders, one task apart,
 * without waiting for any of them: the requests leave while the screen's code is still on its way,
 * and its components find them in flight (or answered) instead of each starting its own in the
 * effects of one commit (a signed-in Summary spent 20 to 30 ms in that one task). Nothing waits on
 * them, so a query that pauses offline or fails holds no route back: the component that reads it
 * shows its state as usual. A query still fresh (staleTime) is not fetched again.
 */
export function prefetchInSteps(client: QueryClient, prefetches: readonly Prefetch[]): void {
  void (async () => {
    for (const prefetch of prefetches) {
      await nextTask();
      void prefetch(client);
    }
  })();
}
