// @vitest-environment happy-dom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '#client/api/http.ts';
import { sessionStore } from '#client/auth/session-store.ts';
import { createAllowedPairsEntry } from './outbox.ts';
import { outbox, sendOrKeep } from './outbox-store.ts';

// Without IndexedDB (happy-dom) the outbox lives in memory: what is tested here is the thin layer
// around the pure rules (outbox.test.ts): when a write is kept rather than sent or shown as failed.

const rule = { master_id: 'm-1', account_name: 'AMC FX Master', allowed_pairs: ['EURUSD'] };
const entry = (pairs: string[], key: string) => createAllowedPairsEntry({ master_id: 'm-1', new_allowed_pairs: pairs }, rule, Date.now(), key);

describe('sending a change or keeping it for later', () => {
  beforeEach(() => {
    sessionStore.save({ api_key: 'key-1', portfolio_auth: ['AMC'], status: 'active', restrictions: ['write'] });
    outbox.reset();
  });
  afterEach(() => {
    vi.restoreAllMocks();
    sessionStore.clear();
  });

  it('keeps the change without trying while the browser is offline', async () => {
    vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(false);
    const send = vi.fn();
    await expect(sendOrKeep(entry(['EURUSD', 'USDJPY'], 'k1'), send)).resolves.toEqual({ kept: true });
    expect(send).not.toHaveBeenCalled();
    expect(outbox.entries().map((e) => e.key)).toEqual(['k1']);
  });

  it('sends online with the change’s own Idempotency-Key', async () => {
    const send = vi.fn().mockResolvedValue({ message: 'Allowed pairs of AMC FX Master updated.' });
    await expect(sendOrKeep(entry(['EURUSD', 'USDJPY'], 'k1'), send)).resolves.toEqual({ kept: false, result: { message: 'Allowed pairs of AMC FX Master updated.' } });
    expect(send).toHaveBeenCalledWith('k1');
    expect(outbox.entries()).toEqual([]);
  });

  it('keeps the change, with the key its first attempt used, when that attempt got no answer', async () => {
    const send = vi.fn().mockRejectedValue(new ApiError(0, 'Network error. Please check your connection.'));
    await expect(sendOrKeep(entry(['EURUSD', 'USDJPY'], 'k1'), send)).resolves.toEqual({ kept: true });
    expect(send).toHaveBeenCalledWith('k1');
    expect(outbox.entries().map((e) => e.key)).toEqual(['k1']);
  });

  it('shows a refusal of the server instead of keeping the change', async () => {
    const send = vi.fn().mockRejectedValue(new ApiError(400, 'Pairs outside the rule’s market.'));
    await expect(sendOrKeep(entry(['AAPL'], 'k1'), send)).rejects.toThrow('Pairs outside the rule’s market.');
    expect(outbox.entries()).toEqual([]);
  });

  it('a change sent online supersedes a pending change of the same master', async () => {
    vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(false);
    await sendOrKeep(entry(['EURUSD', 'USDJPY'], 'k1'), vi.fn());
    vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(true);
    await sendOrKeep(entry(['EURUSD', 'GBPUSD'], 'k2'), vi.fn().mockResolvedValue({ message: 'ok' }));
    expect(outbox.entries()).toEqual([]);
  });

  it('belongs to the signed-in user: signed out, none is shown', async () => {
    vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(false);
    await sendOrKeep(entry(['EURUSD', 'USDJPY'], 'k1'), vi.fn());
    expect(outbox.entries()).toHaveLength(1);
    sessionStore.clear();
    expect(outbox.entries()).toEqual([]);
  });
});
