import { describe, expect, it } from 'vitest';
import { DEFAULT_ATTEMPTS, POSITION_FEED_ATTEMPTS, reconnectDelay, WS_CONNECT_TIMEOUT_MS } from './backoff.ts';

describe('websocket backoff', () => {
  it('waits 1000 ms × 2^attempt', () => {
    expect(reconnectDelay(0)).toBe(1_000);
    expect(reconnectDelay(1)).toBe(2_000);
    expect(reconnectDelay(3)).toBe(8_000);
    expect(reconnectDelay(4)).toBe(16_000);
  });
  it('caps the delay at 30 s', () => {
    expect(reconnectDelay(5)).toBe(30_000); // 32 000 capped
    expect(reconnectDelay(10)).toBe(30_000);
    expect(reconnectDelay(1_000)).toBe(30_000);
  });
  it('treats a negative or invalid attempt as the first', () => {
    expect(reconnectDelay(-2)).toBe(1_000);
    expect(reconnectDelay(Number.NaN)).toBe(1_000);
  });
  it('has the limits of docs/product.md#constants', () => {
    expect(WS_CONNECT_TIMEOUT_MS).toBe(15_000);
    expect(POSITION_FEED_ATTEMPTS).toBe(10);
    expect(DEFAULT_ATTEMPTS).toBe(1);
  });
});
