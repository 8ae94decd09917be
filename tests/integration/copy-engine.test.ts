import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CopyEngine } from '#server/copy/copy-engine.ts';
import { activeRelations } from '#server/db/copy-relations-repo.ts';
import type { LiveAccount, LivePosition } from '#server/broker/port.ts';
import { BACKENDS, simulatorOf, startServer, type TestServer } from './helpers/server.ts';

/** The copy size worked out here: the master's lot × the follower's ratio, to 0.01 lot, at least 0.01. */
const expectedLot = (lots: number, ratio: number) => Math.max(0.01, Math.round(lots * ratio * 100) / 100);

async function until(check: () => boolean, ms = 3_000): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe.each(BACKENDS)('the copy engine over the simulated broker (%s)', (backend) => {
  let server: TestServer;
  let master: LiveAccount;
  let followers: LiveAccount[];
  /** Each follower's copy ratio, as its relation stores it. */
  let ratioOf: Map<number, number>;
  const market = () => simulatorOf(server.app);
  const copier = () => server.app.copier;
  const copiesOf = (p: LivePosition) => market().snapshot().positions.filter((c) => c.master_position_id === p.id);
  const isOpen = (id: number) => market().snapshot().positions.some((p) => p.id === id);
  const count = async (sql: string, params: unknown[] = []) => (await server.app.db.query<{ n: number }>(sql, params))[0]!.n;

  beforeAll(async () => {
    server = await startServer(backend);
    const accounts = [...market().snapshot().accounts.values()];
    master = accounts.find((a) => a.account_name === 'AMC FX Master')!;
    followers = accounts.filter((a) => a.master_id === master.id);
    const relations = await activeRelations(server.app.db);
    ratioOf = new Map(relations.flatMap((r) => (r.terms.sizing.mode === 'ratio' ? [[r.followerId, r.terms.sizing.ratio] as const] : [])));
  });
  afterAll(async () => server.close());

  it("opens a master's trade on each follower at its ratio", async () => {
    const p = await market().openMasterTrade(master.id, 'EURUSD', 'Buy', 1.37);
    const copies = copiesOf(p);
    expect(copies).toHaveLength(followers.length);
    for (const f of followers) {
      const copy = copies.find((c) => c.account_id === f.id)!;
      expect(copy.type).toBe('Buy');
      expect(copy.quantity).toBeCloseTo(expectedLot(1.37, ratioOf.get(f.id)!), 10);
    }
  });

  it("closes a master's trade and its copies as one order: all of them or none", async () => {
    const p = await market().openMasterTrade(master.id, 'EURUSD', 'Sell', 2);
    const ids = [p.id, ...copiesOf(p).map((c) => c.id)];
    const before = await count('SELECT count(*)::int AS n FROM deals');
    await expect(copier().close([p.id], async () => Promise.reject(new Error('the audit row failed')))).rejects.toThrow('the audit row failed');
    expect(ids.every(isOpen)).toBe(true);
    expect(await count('SELECT count(*)::int AS n FROM positions WHERE id = ANY($1::bigint[])', [ids])).toBe(ids.length);
    expect(await count('SELECT count(*)::int AS n FROM deals')).toBe(before);

    expect(await copier().close([p.id])).toBe(ids.length);
    expect(ids.some(isOpen)).toBe(false);
    expect(await count('SELECT count(*)::int AS n FROM deals')).toBe(before + ids.length);
  });

  it('closes the copies in the same step when the master closes in its terminal', async () => {
    const p = await market().openMasterTrade(master.id, 'EURUSD', 'Buy', 1);
    const copies = copiesOf(p).map((c) => c.id);
    expect(copies.length).toBeGreaterThan(0);
    await market().close([p.id]);
    expect(copies.some(isOpen)).toBe(false);
  });

  it('leaves copies alone while the bridge is off, and closes them once it is on again', async () => {
    const p = await market().openMasterTrade(master.id, 'EURUSD', 'Buy', 1);
    const copies = copiesOf(p).map((c) => c.id);
    copier().setCopying(false);
    await market().close([p.id]);
    expect(copies.every(isOpen)).toBe(true);
    copier().setCopying(true);
    await until(() => !copies.some(isOpen));
  });

  it('closes copies a crash left without their master when it starts again', async () => {
    const p = await market().openMasterTrade(master.id, 'EURUSD', 'Sell', 1);
    const copies = copiesOf(p).map((c) => c.id);
    // The master's close committed, then the process died before its copies' closes.
    copier().stop();
    await market().close([p.id]);
    expect(copies.every(isOpen)).toBe(true);
    const restarted = new CopyEngine(server.app.db, market());
    await restarted.start();
    await market().tick();
    await until(() => !copies.some(isOpen));
    restarted.stop();
    await copier().start();
  });
});
