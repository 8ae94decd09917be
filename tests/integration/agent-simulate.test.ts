import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runAsAgent } from '#agent/reporter.ts';
import { startSimulation, type Simulation } from '#server/broker/simulated/terminals.ts';
import { insertAccount, insertBroker } from '#server/db/accounts-repo.ts';
import { grantAccount, insertAgent } from '#server/db/agents-repo.ts';
import { insertRelation } from '#server/db/copy-relations-repo.ts';
import { hashToken, newToken } from '#server/auth/tokens.ts';
import { BACKENDS, startServer, type TestServer } from './helpers/server.ts';

describe.each(BACKENDS)("the simulated market's accounts as one terminal agent (%s)", (backend) => {
  let server: TestServer;
  let sim: Simulation;
  let key: string;

  beforeAll(async () => {
    sim = await startSimulation(42, 200);
    server = await startServer(backend, { demo: false });
    const db = server.app.db;
    // Registered as `npm run agent -- simulate --print-setup` prints (here through the repositories).
    const brokers = new Map<number, number>();
    for (const b of sim.brokers) brokers.set(b.id, await insertBroker(db, { ...b }));
    const ids = new Map<number, number>();
    for (const a of [...sim.accounts].sort((x, y) => x.id - y.id)) {
      ids.set(a.id, await insertAccount(db, {
        account_id: a.account_id, account: a.account, account_name: a.account_name, broker_id: brokers.get(a.broker.id)!, server: a.server,
        server_name: a.server_name, teiko_category: a.teiko_category, currency: a.currency, leverage: a.leverage, ping: 0, last_update: 0,
        source: 'agent',
      }));
    }
    for (const r of sim.relations) {
      await insertRelation(db, { masterId: ids.get(r.masterId)!, followerId: ids.get(r.followerId)!, terms: r.terms, equityStop: null, startedAt: new Date() });
    }
    key = newToken();
    const agent = await insertAgent(db, 'simulated-42', hashToken(key));
    for (const id of ids.values()) await grantAccount(db, agent, id, 'trade');
  });
  afterAll(async () => {
    await server.close();
    await sim.stop();
  });

  it('reports every account, its open positions and its closed trades; the server books them as the simulator did', async () => {
    const stop = new AbortController();
    const running = runAsAgent(sim, { url: server.url, key, everyMs: 200, signal: stop.signal });
    const served = () => server.app.market.snapshot();
    await expect.poll(() => served().accounts.size, { timeout: 20_000 }).toBe(sim.accounts.length);
    await expect.poll(() => served().positions.length, { timeout: 20_000 }).toBeGreaterThan(0);
    stop.abort();
    await running;
    // The market still, one last report (a new session sends everything again; nothing changes twice).
    sim.market.pause();
    await sim.market.tick(); // waits for a step under way; a paused market takes no new one
    await runAsAgent(sim, { url: server.url, key, everyMs: 0, signal: AbortSignal.timeout(1) });
    // Every closed trade of the simulation is one round trip on the server, with the same net result.
    const local = await sim.db.query<{ n: number; net: number }>("SELECT count(*)::int AS n, round(sum(net), 2) AS net FROM deals WHERE kind = 'trade'");
    const remote = await server.app.db.query<{ n: number; net: number }>("SELECT count(*)::int AS n, round(sum(net), 2) AS net FROM deals WHERE kind = 'trade'");
    expect(remote[0]!.n).toBeGreaterThan(0);
    expect(remote[0]).toEqual(local[0]);
    // The balances are the simulator's (the broker's figures are the truth).
    const mine = sim.market.snapshot().accounts;
    const theirs = await server.app.db.query<{ account: string; balance: number }>('SELECT account, balance FROM accounts');
    for (const row of theirs) {
      const a = [...mine.values()].find((x) => x.account === row.account)!;
      expect(row.balance, row.account).toBeCloseTo(a.balance, 2);
    }
  });
});
