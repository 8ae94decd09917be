/**
 * No close without evidence (docs/ingest-api.md, 'Closes need evidence'): a master terminal that
 * restarts mid-day sends a full snapshot with no positions before it has loaded them; that closes
 * nothing, on the master or on any follower, and raises an alert. A position left out is closed by
 * its closing deal at once, or by an absence of five minutes while the terminal says it is connected
 * and may trade — never while it says it is not.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertBroker } from '#server/db/accounts-repo.ts';
import { insertRelation } from '#server/db/copy-relations-repo.ts';
import { insertRule } from '#server/db/copy-rules-repo.ts';
import { insertRegisteredAccount } from '#server/db/registry-repo.ts';
import { BACKENDS, startServer, type TestServer } from './helpers/server.ts';
import { deal, position, Terminal } from './helpers/terminal.ts';

const SERVER = 'Evidence-Live';

describe.each(BACKENDS)('closes need evidence (%s)', (backend) => {
  let server: TestServer;
  let now = Date.parse('2026-11-24T10:00:00Z');
  const master = new Terminal(() => server, '71000001', SERVER);
  const follower = new Terminal(() => server, '71000002', SERVER);
  const t0 = Math.floor(now / 1000) - 600;
  let masterId = 0;

  const openOf = (accountId: number) => server.app.market.snapshot().positions.filter((p) => p.account_id === accountId);
  const closes = async () => (await follower.poll(0)).filter((c) => c.kind === 'close');
  const alerts = async () =>
    (await server.app.db.query<{ message: string }>("SELECT message FROM alerts WHERE type = 'ping' AND account_id = $1 ORDER BY id", [masterId])).map((r) => r.message);

  beforeAll(async () => {
    // The real window: five minutes, on the market's clock this test moves.
    server = await startServer(backend, { demo: false, market: { now: () => now }, agents: { unconfirmedCloseAfterS: 300 } });
    const db = server.app.db;
    const broker = await insertBroker(db, { broker_name: 'EvidenceBroker', img_path: '', spread_pips: 0, latency_ms: 0, commission_per_lot: 0, rebate_per_lot: 0 });
    const account = (t: Terminal, name: string) =>
      insertRegisteredAccount(db, { source: 'agent', account_id: `evidence-${t.login}`, account: t.login, account_name: name, broker_id: broker, server: SERVER, server_name: SERVER, teiko_category: 'global forex', currency: 'USD', leverage: 100 });
    masterId = await account(master, 'Evidence Master');
    const followerId = await account(follower, 'Evidence Follower');
    await master.register(masterId);
    await follower.register(followerId);
    await insertRelation(db, { masterId, followerId, terms: { sizing: { mode: 'ratio', ratio: 1 }, maxLot: null }, equityStop: null, startedAt: new Date(now - 3_600_000) });
    await insertRule(db, { master_id: masterId, market_type: 'Forex', allowed_pairs: ['EURUSD', 'GBPUSD'] });
    await server.app.copier.reloadRules();
    for (const t of [master, follower]) {
      t.state = { balance: 10_000, equity: 10_000, margin: 0, free_margin: 10_000, leverage: 100, currency: 'USD', connected: true, trade_allowed: true };
      await t.report();
    }
    // The master holds two trades; the follower copies both.
    master.open = [position(501, 'EURUSD', 'buy', 0.5, 1.085, t0), position(502, 'GBPUSD', 'sell', 0.3, 1.27, t0)];
    await master.report([deal(501, 'in', 'buy', 'EURUSD', 0.5, 1.085, t0), deal(502, 'in', 'sell', 'GBPUSD', 0.3, 1.27, t0)]);
    const orders = await follower.collect(2);
    expect(orders.filter((c) => c.kind === 'open')).toHaveLength(2);
    for (const o of orders) await follower.answer(o.id);
    follower.open = [position(601, 'EURUSD', 'buy', 0.5, 1.0851, t0 + 1, 501), position(602, 'GBPUSD', 'sell', 0.3, 1.2699, t0 + 1, 502)];
    await follower.report();
    expect(openOf(followerId)).toHaveLength(2);
  });
  afterAll(async () => server?.close());

  it('a master terminal restarted mid-day: its first snapshot empty, its positions back a minute later — nothing closes anywhere', async () => {
    master.restart();
    const held = master.open;
    master.open = [];
    master.state = { ...master.state!, connected: false };
    await master.report();
    // Kept, unconfirmed, with their last figures; the copies untouched; an alert says why.
    expect(openOf(masterId).map((p) => [p.symbol, p.unconfirmed_since !== undefined])).toEqual([['EURUSD', true], ['GBPUSD', true]]);
    expect(await closes()).toEqual([]);
    expect((await alerts()).at(-1)).toMatch(/reported no open position while the books hold 2: they are kept, unconfirmed/);
    // A minute later the terminal is connected and has loaded its positions.
    now += 60_000;
    master.open = held;
    master.state = { ...master.state, connected: true };
    await master.report();
    expect(openOf(masterId).map((p) => [p.symbol, p.unconfirmed_since])).toEqual([['EURUSD', undefined], ['GBPUSD', undefined]]);
    expect(await closes()).toEqual([]);
    expect(openOf((await server.app.db.query<{ id: number }>("SELECT id FROM accounts WHERE account = '71000002'"))[0]!.id)).toHaveLength(2);
  });

  it('left out while the terminal says it is not connected: not closed, however long', async () => {
    master.open = held(master.open, 'GBPUSD');
    master.state = { ...master.state!, connected: false };
    await master.report();
    now += 3_600_000;
    await master.report();
    expect(openOf(masterId).map((p) => p.symbol)).toEqual(['EURUSD', 'GBPUSD']);
    expect(await closes()).toEqual([]);
  });

  it('left out five minutes while connected and trading is allowed: closed then, and its copy with it', async () => {
    master.state = { ...master.state!, connected: true, trade_allowed: true };
    // Missing since the report an hour ago; connected now: five minutes have passed.
    await master.report();
    expect(openOf(masterId).map((p) => p.symbol)).toEqual(['EURUSD']);
    const toClose = (await follower.collect(1, 'close')).filter((c) => c.kind === 'close');
    expect(toClose).toHaveLength(1);
    expect(toClose[0]!.payload.identifier).toBe(602);
  });

  it('closed at once by its closing deal', async () => {
    master.open = [];
    await master.report([deal(501, 'out', 'sell', 'EURUSD', 0.5, 1.09, Math.floor(now / 1000), 250)]);
    expect(openOf(masterId)).toEqual([]);
    const toClose = (await follower.collect(1, 'close')).filter((c) => c.kind === 'close');
    expect(toClose.map((c) => c.payload.identifier)).toEqual([601]);
  });
});

/** The positions of `list` but the one of `symbol` (a terminal that left it out). */
function held<T extends { symbol: string }>(list: T[], symbol: string): T[] {
  return list.filter((p) => p.symbol !== symbol);
}
