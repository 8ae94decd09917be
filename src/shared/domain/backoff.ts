/** Websocket connection limits and reconnect backoff (docs/product.md#constants). */
export const WS_CONNECT_TIMEOUT_MS = 15_000;
export const POSITION_FEED_ATTEMPTS = 10;
export const DEFAULT_ATTEMPTS = 1;
export const RECONNECT_BASE_MS = 1_000;
export const RECONNECT_MAX_MS = 30_000;

/** Delay before reconnect number `attempt` (0 for the first retry): 1000 ms × 2^attempt, capped at 30 s (docs/product.md#constants). */
export function reconnectDelay(attempt: number): number {
  const n = Number.isFinite(attempt) && attempt > 0 ? Math.floor(attempt) : 0;
  return Math.min(RECONNECT_BASE_MS * 2 ** n, RECONNECT_MAX_MS);
}
