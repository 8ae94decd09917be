/** Age under which an account's last_update counts as fresh (docs/product.md#states, §9). */
export const FRESHNESS_SECONDS = 120;

/** Green freshness dot: last_update (epoch s) under 120 s old and not in the future (docs/product.md#states); 120 s is stale. */
export function isFresh(lastUpdateEpochSeconds: number | null | undefined, nowEpochMs: number): boolean {
  if (lastUpdateEpochSeconds == null || !Number.isFinite(lastUpdateEpochSeconds) || !Number.isFinite(nowEpochMs)) {
    return false;
  }
  const ageSeconds = nowEpochMs / 1000 - lastUpdateEpochSeconds;
  return ageSeconds >= 0 && ageSeconds < FRESHNESS_SECONDS;
}
