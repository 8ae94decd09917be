import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MarketPaused } from '#server/broker/errors.ts';
import type { BrokerAdapter, MarketSnapshot, OpenOrder, TradeEvent } from '#server/broker/port.ts';

/** One adapter under the contract, built (not started) with what the suite needs to drive it. */
export interface ContractHarness {
  adapter: BrokerAdapter;
  /** An order this adapter would take (for the paused checks: it is never placed). */
  order: OpenOrder;
  /** Makes a position open as this broker does (an order filled, a terminal's report); its id once the snapshot shows it. */
  openPosition(): Promise<number>;
  /** Makes it close as this broker does; resolves once the snapshot no longer shows it. */
  closePosition(id: number): Promise<void>;
  /** Frees what the harness holds (its database). The suite stops the adapter itself. */
  dispose(): Promise<void>;
}

/** A position id no adapter holds. */
const UNKNOWN_POSITION = 2_000_000_000;

async function until(check: () => boolean, what: string, ms = 10_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** A call whose synchronous throw counts as its rejection. */
const attempt = <T>(call: () => Promise<T>): Promise<T> => Promise.resolve().then(call);

/**
 * What every broker adapter keeps (src/server/broker/port.ts; docs/architecture.md): the suite
 * is run for each adapter of the registry and for the test's fake (tests/integration/broker-contract.test.ts).
 */
export function brokerAdapterContract(name: string, make: () => Promise<ContractHarness>): void {
  describe(`broker adapter contract: ${name}`, () => {
    let h: ContractHarness;

    beforeAll(async () => {
      h = await make();
      await h.adapter.start();
    });
    afterAll(async () => {
      await h?.adapter.stop();
      await h?.dispose();
    });

    it('has a snapshot once start resolves', () => {
      const s = h.adapter.snapshot();
      expect(typeof s.at).toBe('number');
      expect(typeof s.seq).toBe('number');
      for (const map of [s.instruments, s.rates, s.mids, s.accounts]) expect(map).toBeInstanceOf(Map);
      expect(Array.isArray(s.positions)).toBe(true);
      expect(s.accounts.size).toBeGreaterThan(0);
    });

    it('delivers snapshots to onUpdate listeners', async () => {
      const seen: MarketSnapshot[] = [];
      const off = h.adapter.onUpdate((s) => seen.push(s));
      try {
        const id = await h.openPosition();
        await until(() => seen.some((s) => s.positions.some((p) => p.id === id)), 'a snapshot with the new position');
        await h.closePosition(id);
        await until(() => !seen.at(-1)!.positions.some((p) => p.id === id), 'a snapshot without it');
      } finally {
        off();
      }
    });

    it('tells trade listeners of one position: opened, then closed', async () => {
      const events: TradeEvent[] = [];
      const off = h.adapter.onTrade(async (e) => {
        events.push(e);
      });
      try {
        const id = await h.openPosition();
        await h.closePosition(id);
        const mine = () =>
          events.flatMap((e) => (e.kind === 'opened' ? (e.position.id === id ? ['opened'] : []) : e.positions.some((p) => p.id === id) ? ['closed'] : []));
        await until(() => mine().length === 2, 'both events');
        expect(mine()).toEqual(['opened', 'closed']);
        const opened = events.find((e) => e.kind === 'opened' && e.position.id === id);
        expect(opened?.kind === 'opened' && opened.account.id).toBe(h.order.accountId);
      } finally {
        off();
      }
    });

    it('closes a closed or unknown position as nothing: 0 and no change', async () => {
      const id = await h.openPosition();
      await h.closePosition(id);
      const before = h.adapter.snapshot().positions.map((p) => p.id);
      expect(await h.adapter.close([id])).toBe(0);
      expect(await h.adapter.close([UNKNOWN_POSITION])).toBe(0);
      expect(h.adapter.snapshot().positions.map((p) => p.id)).toEqual(before);
    });

    it('refuses writes with MarketPaused while paused, and takes them again once resumed', async () => {
      h.adapter.pause();
      try {
        await expect(attempt(() => h.adapter.open(h.order))).rejects.toBeInstanceOf(MarketPaused);
        await expect(attempt(() => h.adapter.close([UNKNOWN_POSITION]))).rejects.toBeInstanceOf(MarketPaused);
        await expect(attempt(() => h.adapter.modifyStops([UNKNOWN_POSITION], null, null))).rejects.toBeInstanceOf(MarketPaused);
      } finally {
        await h.adapter.resume();
      }
      expect(await h.adapter.close([UNKNOWN_POSITION])).toBe(0);
    });
  });
}
