/**
 * The copy link on the server: a copy is linked to its master by the copy order its terminal answered
 * it opened (the command's id against the identifier in its `done` answer), not only by the `copy_of`
 * it reports from its order comment, which brokers may rewrite or cut. A copy whose comment the broker
 * changed still closes with its master.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertBroker } from '#server/db/accounts-repo.ts';
import { insertRelation } from '#server/db/copy-relations-repo.ts';
import { insertRule } from '#server/db/copy-rules-repo.ts';
import { insertRegisteredAccount } from '#server/db/registry-repo.ts';
import { BACKENDS, startServer, type TestServer } from './helpers/server.ts';
import { deal, position, Terminal } from './helpers/terminal.ts';

const SERVER = 'Link-Live';

describe.each(BACKENDS)('the copy link on the server (%s)', (backend) => {
  let server: TestServer;
  const master = new Terminal(() => server, '72000001', SERVER);
  const follower = new Terminal(() => server, '72000002', SERVER);
  const t0 = Math.floor(Date.now() / 1000) - 600;
  let followerId = 0;

  beforeAll(async () => {
    server = await startServer(backend, { demo: false });
    const db = server.app.db;
    const broker = await insertBroker(db, { broker_name: 'LinkBroker', img_path: '', spread_pips: 0, latency_ms: 0, commission_per_lot: 0, rebate_per_lot: 0 });
    const account = (t: Terminal, name: string) =>
      insertRegisteredAccount(db, { source: 'agent', account_id: `link-${t.login}`, account: t.login, account_name: name, broker_id: broker, server: SERVER, server_name: SERVER, teiko_category: 'global forex', currency: 'USD', leverage: 100 });
    const masterId = await account(master, 'Link Master');
    followerId = await account(follower, 'Link Follower');
    await master.register(masterId);
    await follower.register(followerId);
    await insertRelation(db, { masterId, followerId, terms: { sizing: { mode: 'ratio', ratio: 1 }, maxLot: null }, equityStop: null, startedAt: new Date(Date.now() - 3_600_000) });
    await insertRule(db, { master_id: masterId, market_type: 'Forex', allowed_pairs: ['EURUSD'] });
    await server.app.copier.reloadRules();
    for (const t of [master, follower]) {
      t.state = { balance: 10_000, equity: 10_000, margin: 0, free_margin: 10_000, leverage: 100, currency: 'USD' };
      await t.report();
    }
  });
  afterAll(async () => server?.close());

  it('links a copy reported without copy_of (its comment rewritten) by the identifier its open command was answered with, and closes it with its master', async () => {
    master.open = [position(701, 'EURUSD', 'buy', 0.4, 1.085, t0)];
    await master.report([deal(701, 'in', 'buy', 'EURUSD', 0.4, 1.085, t0)]);
    const [open] = await follower.poll();
    expect(open).toMatchObject({ kind: 'open', payload: { master_position_id: 701 } });
    // The terminal opened position 8801 for it and says so; the broker then rewrote its comment: no copy_of.
    await follower.answer(open!.id, 'done', 8801);
    follower.open = [position(8801, 'EURUSD', 'buy', 0.4, 1.0851, t0 + 1)];
    await follower.report([deal(8801, 'in', 'buy', 'EURUSD', 0.4, 1.0851, t0 + 1)]);
    const masterRow = server.app.market.snapshot().positions.find((p) => p.account_id !== followerId && p.symbol === 'EURUSD')!;
    const copy = server.app.market.snapshot().positions.find((p) => p.account_id === followerId)!;
    expect(copy.master_position_id).toBe(masterRow.id);

    // The master closes: the copy gets its close, once.
    master.open = [];
    await master.report([deal(701, 'out', 'sell', 'EURUSD', 0.4, 1.09, t0 + 60, 200)]);
    const closes = (await follower.poll()).filter((c) => c.kind === 'close');
    expect(closes.map((c) => c.payload.identifier)).toEqual([8801]);
  });
});
