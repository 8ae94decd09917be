/**
 * The outbox's calls (the rules are in outbox.ts): the server's state now, fetched fresh for a
 * review, and the confirmed send with the change's own Idempotency-Key.
 */
import { endpoints } from '#shared/contract/endpoints.ts';
import { liveFeeds } from '#shared/contract/live.ts';
import type { Position } from '#shared/contract/positions.ts';
import { ApiError, apiRequest, NETWORK_ERROR } from '#client/api/http.ts';
import { setAllowedPairs } from '#client/api/queries/copy-rules.ts';
import { setTpSl } from '#client/api/queries/positions.ts';
import { createLiveSocket } from '#client/live/live-socket.ts';
import type { CurrentState, FreshNeeds, OutboxEntry } from './outbox.ts';

/** Longest wait for a fresh snapshot of positions; past it the review waits for the next reconnect. */
const SNAPSHOT_WAIT_MS = 20_000;

/**
 * The position rows (by account) of a portfolio as the server has them now: the first snapshot of a
 * feed opened for the purpose (the rows the Summary shows), then the feed is closed. Rejects with a
 * network ApiError when the feed cannot be opened.
 */
export function fetchPositionsNow(portfolio: string): Promise<Position[]> {
  return new Promise((resolve, reject) => {
    let settled = false;
    const finish = (outcome: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      // Closed after this tick: the socket may still be reporting the status that settled it.
      setTimeout(() => socket.close(), 0);
      outcome();
    };
    const timer = setTimeout(() => finish(() => reject(new ApiError(0, NETWORK_ERROR))), SNAPSHOT_WAIT_MS);
    const socket = createLiveSocket({
      path: liveFeeds.aggregateBy.path,
      params: { portfolio: portfolio || undefined, aggregate_by: 'account' },
      maxAttempts: 0,
      onMessage: (positions) => finish(() => resolve(positions)),
      onStatus: (status, error) => {
        if (status === 'offline' || status === 'closed') finish(() => reject(new ApiError(0, error ?? NETWORK_ERROR)));
      },
    });
  });
}

/** Everything the entries need, fetched fresh; rejects when any part cannot be fetched. */
export async function fetchCurrentState(needs: FreshNeeds, signal?: AbortSignal): Promise<CurrentState> {
  const [rules, ...positions] = await Promise.all([
    needs.rules ? apiRequest(endpoints.copyRules, { signal }).then((r) => r.copy_rules) : Promise.resolve(null),
    ...needs.portfolios.map((p) => fetchPositionsNow(p)),
  ]);
  return { rules, positions: new Map(needs.portfolios.map((p, i) => [p, positions[i] ?? []])) };
}

/** Sends a kept change as it was made, with its Idempotency-Key; answers the server's message. */
export async function sendEntry(entry: OutboxEntry): Promise<string> {
  const options = { idempotencyKey: entry.key };
  const response = entry.kind === 'tp-sl' ? await setTpSl(entry.request, options) : await setAllowedPairs(entry.request, options);
  return response.message;
}
