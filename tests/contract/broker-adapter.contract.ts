import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DayEnds } from '#server/books/day-ends.ts';
import { BrokerError, MarketPaused, NotTradable } from '#server/broker/errors.ts';
import type { BrokerAdapter, MarketSnapshot, OpenOrder, TradeEvent } from '#server/broker/port.ts';
import { CopyEngine } from '#server/copy/copy-engine.ts';
import type { Database } from '#server/db/database.ts';
import type { Ledger } from '#server/ledger/ledger.ts';

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
  /** Its books, where it keeps accounts in a database: the core's day end runs over them. */
  books?: { db: Database; ledger: Ledger };
  /**
   * A copy relation among its accounts, where it takes orders: master → follower in force, the bridge
   * on, the master's rule allowing the order's symbol.
   */
  copy?: {
    db: Database;
    /** Opens a master position the way this broker does; its id once the snapshot shows it. */
    openMaster(): Promise<number>;
    /** The copy the engine ordered shows on the follower, then closes, the way this broker does. */
    fillAndCloseCopy(masterPositionId: number): Promise<void>;
  };
}

/** What the suite checks beyond the port itself, by what the adapter declares and keeps. */
export interface ContractFeatures {
  /** It takes orders (its registry entry's capabilities.orders is set). */
  takesOrders: boolean;
  /** Its accounts are in a database (the harness gives `books`). */
  books: boolean;
  /** The harness gives `copy`. */
  copy: boolean;
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
export function brokerAdapterContract(name: string, make: () => Promise<ContractHarness>, features: ContractFeatures): void {
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

    if (!features.takesOrders) it('refuses orders with a domain error when it takes none, and closes or edits nothing', async () => {
      const id = await h.openPosition();
      await expect(attempt(() => h.adapter.open(h.order))).rejects.toBeInstanceOf(NotTradable);
      await expect(attempt(() => h.adapter.close([id]))).rejects.toBeInstanceOf(BrokerError);
      await expect(attempt(() => h.adapter.modifyStops([id], null, null))).rejects.toBeInstanceOf(NotTradable);
      expect(h.adapter.snapshot().positions.some((p) => p.id === id)).toBe(true);
      await h.closePosition(id);
    });

    if (features.books) it("books a day end once for its accounts through the core's clock, whichever process ends it", async () => {
      const { db, ledger } = h.books!;
      // An account its adapter has not reported yet gets no row: its figures are unknown, not 0.
      const all = [...h.adapter.snapshot().accounts.values()];
      const mine = all.filter((a) => a.last_update > 0).map((a) => a.id);
      const unreported = all.filter((a) => a.last_update === 0).map((a) => a.id);
      // The books' clock at noon today, then at noon tomorrow: today has ended. Two processes end it (a
      // restart, or two leaders one after the other).
      const today = Math.floor(Date.now() / 86_400_000);
      let clock = today * 86_400_000 + 12 * 3_600_000;
      const rows = async () =>
        (await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM nav_snapshots WHERE NOT derived AND day = DATE '1970-01-01' + $1::int AND account_id = ANY($2::int[])`, [today, mine]))[0]!.n;
      const books = async () => db.query('SELECT id, balance, hwm, fee_accrued FROM accounts WHERE id = ANY($1::int[]) ORDER BY id', [mine]);
      const fail = (err: unknown) => {
        throw err;
      };
      const first = new DayEnds(ledger, () => h.adapter.snapshot(), () => clock, fail);
      await first.start();
      clock += 86_400_000;
      await first.check();
      first.stop();
      expect(await rows()).toBe(mine.length);
      expect((await db.query<{ n: number }>('SELECT count(*)::int AS n FROM nav_snapshots WHERE NOT derived AND account_id = ANY($1::int[])', [unreported]))[0]!.n).toBe(0);
      const after = await books();
      const second = new DayEnds(ledger, () => h.adapter.snapshot(), () => clock, fail);
      await second.start();
      await second.check();
      second.stop();
      expect(await rows()).toBe(mine.length);
      expect(await books()).toEqual(after);
    });

    if (features.copy) it('copies a master trade once: a copy opened then closed is not copied again after a restart', async () => {
      const copy = h.copy!;
      const sent: OpenOrder[] = [];
      const original = h.adapter.open.bind(h.adapter);
      h.adapter.open = (order) => {
        sent.push(order);
        return original(order);
      };
      try {
        const first = new CopyEngine(copy.db, h.adapter);
        await first.start();
        const master = await copy.openMaster();
        await until(() => sent.some((o) => o.masterPositionId === master), 'the copy order');
        await copy.fillAndCloseCopy(master);
        first.stop();
        const orders = sent.filter((o) => o.masterPositionId === master).length;
        // The process restarts: the master's trade is still open, its copy is not.
        const second = new CopyEngine(copy.db, h.adapter);
        await second.start();
        await new Promise((resolve) => setTimeout(resolve, 300));
        second.stop();
        expect(sent.filter((o) => o.masterPositionId === master)).toHaveLength(orders);
        expect(new Set(sent.filter((o) => o.masterPositionId === master).map((o) => o.accountId)).size).toBe(orders);
      } finally {
        h.adapter.open = original;
      }
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
