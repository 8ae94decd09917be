import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { IngestAccount, IngestPosition } from '#shared/contract/ingest.ts';
import { insertAccount, insertBroker } from '#server/db/accounts-repo.ts';
import { grantAccount, insertAgent } from '#server/db/agents-repo.ts';
import { insertRule } from '#server/db/copy-rules-repo.ts';
import { hashToken, newToken } from '#server/auth/tokens.ts';
import { BACKENDS, http, startServer, type TestServer } from './helpers/server.ts';

interface Command {
  id: string;
  login: string;
  kind: string;
  payload: { symbol?: string; type?: string; volume?: number; identifier?: number; master_position_id?: number };
}

/** One fake MT5 terminal with its own agent key, for one account. */
class Terminal {
  private session = randomUUID();
  private seq = 0;
  readonly key = newToken();
  open: IngestPosition[] = [];

  constructor(
    private readonly server: () => TestServer,
    readonly login: string,
  ) {}

  async report(extra: Partial<IngestAccount> = {}) {
    const res = await http<{ ack: number }>(this.server(), 'POST', '/api/ingest/v1/batches', {
      headers: { 'x-agent-key': this.key },
      body: {
        session: this.session, seq: ++this.seq, batch_id: randomUUID(), utc_offset_minutes: 0, sent_at: Date.now(),
        accounts: [{ login: this.login, server: 'Demo-Live', positions: { full: true, open: this.open, closed: [] }, ...extra }],
      },
    });
    expect(res.status).toBe(200);
  }

  async poll(wait = 5): Promise<Command[]> {
    const res = await http<{ commands: Command[] }>(this.server(), 'GET', `/api/ingest/v1/commands?wait=${wait}`, { headers: { 'x-agent-key': this.key } });
    expect(res.status).toBe(200);
    return res.body.commands;
  }

  async answer(id: string, state = 'done') {
    const res = await http(this.server(), 'POST', `/api/ingest/v1/commands/${id}`, { headers: { 'x-agent-key': this.key }, body: { state } });
    expect(res.status).toBe(200);
  }
}

const position = (identifier: number, symbol: string, volume: number, copyOf?: number): IngestPosition => ({
  identifier, symbol, type: 'buy', volume, price_open: 1.08, price_current: 1.08, sl: 0, tp: 0, profit: 0, swap: 0,
  time: Math.floor(Date.now() / 1000), ...(copyOf === undefined ? {} : { copy_of: copyOf }),
});

describe.each(BACKENDS)('a master and two followers on three terminals, copied by the rules (%s)', (backend) => {
  let server: TestServer;
  const master = new Terminal(() => server, '70000001');
  const followerA = new Terminal(() => server, '70000002');
  const followerB = new Terminal(() => server, '70000003');
  let admin: string;

  beforeAll(async () => {
    server = await startServer(backend, { demo: false });
    const db = server.app.db;
    const broker = await insertBroker(db, { broker_name: 'Demo Broker', img_path: '', spread_pips: 0, latency_ms: 0, commission_per_lot: 0, rebate_per_lot: 0 });
    const account = (login: string, masterId: number | null, ratio: number) =>
      insertAccount(db, {
        account_id: `demo-${login}`, account: login, account_name: `Account ${login}`, broker_id: broker, server: 'Demo-Live',
        server_name: 'Demo Live', teiko_category: 'SMA', currency: 'USD', is_master: masterId === null, master_id: masterId,
        copy_ratio: ratio, leverage: 100, ping: 0, last_update: 0, source: 'agent',
      });
    const masterId = await account(master.login, null, 1);
    const a = await account(followerA.login, masterId, 0.5);
    const b = await account(followerB.login, masterId, 2);
    await insertRule(db, { master_id: masterId, market_type: 'Forex', allowed_pairs: ['EURUSD'] });
    for (const [t, id] of [[master, masterId], [followerA, a], [followerB, b]] as const) {
      await grantAccount(db, await insertAgent(db, `agent-${t.login}`, hashToken(t.key)), id, 'trade');
    }
    await server.app.copier.reloadRules();
    for (const t of [master, followerA, followerB]) await t.report();
    const users = await import('#server/auth/password.ts');
    await server.app.authStore.upsertUser({
      username: 'ops', password_hash: await users.hashPassword('ops-password-1'), status: 'active', permissions: ['write'], portfolio_auth: ['SMA'],
    });
    const signIn = await http<{ data: { api_key: string } }>(server, 'POST', '/api/login', { body: { username: 'ops', password: 'ops-password-1' } });
    admin = signIn.body.data.api_key;
  });
  afterAll(async () => server.close());

  it("copies a master's trade to each follower's terminal at its ratio, and its close", async () => {
    master.open = [position(1000, 'EURUSD', 1.2)];
    await master.report();
    const masterPosition = server.app.market.snapshot().positions.find((p) => p.symbol === 'EURUSD' && p.quantity === 1.2)!;
    const [toA] = await followerA.poll();
    const [toB] = await followerB.poll();
    expect(toA).toMatchObject({ login: followerA.login, kind: 'open', payload: { symbol: 'EURUSD', type: 'buy', volume: 0.6, master_position_id: masterPosition.id } });
    expect(toB).toMatchObject({ login: followerB.login, kind: 'open', payload: { symbol: 'EURUSD', type: 'buy', volume: 2.4, master_position_id: masterPosition.id } });
    // Each terminal runs it, answers, and reports the copy with the master position it copies.
    await followerA.answer(toA!.id);
    await followerB.answer(toB!.id);
    followerA.open = [position(2000, 'EURUSD', 0.6, masterPosition.id)];
    followerB.open = [position(3000, 'EURUSD', 2.4, masterPosition.id)];
    await followerA.report();
    await followerB.report();
    expect(server.app.market.snapshot().positions.filter((p) => p.master_position_id === masterPosition.id)).toHaveLength(2);

    // The master closes in its terminal: each follower's terminal is told to close its copy.
    master.open = [];
    await master.report();
    const [closeA] = await followerA.poll();
    const [closeB] = await followerB.poll();
    expect(closeA).toMatchObject({ kind: 'close', payload: { identifier: 2000, volume: 0.6 } });
    expect(closeB).toMatchObject({ kind: 'close', payload: { identifier: 3000, volume: 2.4 } });
    await followerA.answer(closeA!.id);
    await followerB.answer(closeB!.id);
    followerA.open = [];
    followerB.open = [];
    await followerA.report();
    await followerB.report();
    // Closed once: no second close reached either terminal.
    expect(await followerA.poll(0)).toEqual([]);
    expect(await followerB.poll(0)).toEqual([]);
  });

  it('copies nothing the rules do not allow, and nothing while the bridge is off', async () => {
    master.open = [position(1001, 'GBPJPY', 1)];
    await master.report();
    expect(await followerA.poll(1)).toEqual([]);
    const stop = await http(server, 'POST', '/api/bridge/stop', { key: admin });
    expect(stop.status).toBe(200);
    master.open = [position(1001, 'GBPJPY', 1), position(1002, 'EURUSD', 1)];
    await master.report();
    expect(await followerA.poll(1)).toEqual([]);
    expect(await followerB.poll(0)).toEqual([]);
  });
});
