/** docs/product.md#errors fallbacks when a write fails without a server message. */
export const UPDATE_FAILED = 'Update failed.';
export const CLOSE_FAILED = 'Failed to send close request.';

export interface WriteOptions {
  /**
   * Sent as Idempotency-Key so the server acts once (docs/architecture.md). A fresh UUID by default; pass the
   * same key again when retrying the same write after a network error.
   */
  idempotencyKey?: string;
  signal?: AbortSignal;
}

export function idempotencyHeaders(options: WriteOptions): Record<string, string> {
  return { 'Idempotency-Key': options.idempotencyKey ?? crypto.randomUUID() };
}
