/**
 * No copy is ever sent a `close` while its master position is open, whatever the order of the
 * master's and the follower's reports; a copy whose master closed is closed exactly once
 * (docs/copying.md 'Linking a copy'). Each scenario plays one order of batches, step by step: the
 * server acts on each batch as it is applied, and the follower's agent is asked for its commands
 * between the steps.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CopyRelation } from '#shared/contract/copy-relations.ts';
import { insertBroker } from '#server/db/accounts-repo.ts';
import { insertRegisteredAccount } from '#server/db/registry-repo.ts';
import { hashPassword } from '#server/auth/password.ts';
import { BACKENDS, http, startServer, type TestServer } from './helpers/server.ts';
import { position, Terminal, type AgentCommand } from './helpers/terminal.ts';

const SERVER = 'Broker-Live';
const closes = (commands: AgentCommand[]) => commands.filter((c) => c.kind === 'close');

describe.each(BACKENDS)('the order of master and follower reports (%s)', (backend) => {
  let server: TestServer;
  let key: string;
  let relation: CopyRelation;
  const master = new Terminal(() => server, '60000001', SERVER);
  const follower = new Terminal(() => server, '60000002', SERVER);
  const other = new Terminal(() => server, '60000003', SERVER);
  const now = Math.floor(Date.now() / 1000);

  beforeAll(async () => {
    server = await startServer(backend, { demo: false });
    const db = server.app.db;
    const broker = await insertBroker(db, { broker_name: 'Broker', img_path: '', spread_pips: 0, latency_ms: 0, commission_per_lot: 0, rebate_per_lot: 0 });
    const account = (t: Terminal) =>
      insertRegisteredAccount(db, { source: 'agent', account_id: `broker-${t.login}`, account: t.login, account_name: `Account ${t.login}`, broker_id: broker, server: SERVER, server_name: SERVER, teiko_category: 'SMA', currency: 'USD', leverage: 100 });
    for (const t of [master, follower, other]) await t.register(await account(t));
    await server.app.authStore.upsertUser({ username: 'ops', password_hash: await hashPassword('ops-password-1'), status: 'active', permissions: ['write'], portfolio_auth: ['SMA'] });
    key = (await http<{ data: { api_key: string } }>(server, 'POST', '/api/login', { body: { username: 'ops', password: 'ops-password-1' } })).body.data.api_key;
    const created = await http<{ relation: CopyRelation }>(server, 'POST', '/api/copy/relations', { key, body: { master: '60000001', follower: '60000002', sizing: { mode: 'ratio', ratio: 1 } } });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    relation = created.body.relation;
    expect((await http(server, 'POST', '/api/copy-rules/allowed-pairs', { key, body: { master_id: 'broker-60000001', new_allowed_pairs: ['EURUSD'] } })).status).toBe(200);
    for (const t of [master, follower, other]) await t.report();
  });
  afterAll(async () => server?.close());

  /** The follower's agent takes the copy order for this master position, runs it, and answers. */
  const takeOpen = async (identifier: number) => {
    const commands = await follower.poll();
    expect(commands).toHaveLength(1);
    expect(commands[0]).toMatchObject({ kind: 'open', payload: { master_position_id: identifier } });
    await follower.answer(commands[0]!.id);
  };
  /** The follower's agent takes exactly one close, of this copy, runs it and reports the copy gone. */
  const takeTheClose = async (copy: number) => {
    const commands = await follower.poll();
    expect(commands).toHaveLength(1);
    expect(commands[0]).toMatchObject({ kind: 'close', payload: { identifier: copy } });
    // It reports once more before the close is run: no second close.
    await follower.report();
    expect(await follower.poll(1)).toEqual([]);
    await follower.answer(commands[0]!.id);
    follower.open = follower.open.filter((p) => p.identifier !== copy);
    await follower.report();
    expect(await follower.poll(1)).toEqual([]);
  };

  it('master open, follower copy, master closed: one close', async () => {
    master.open = [position(101, 'EURUSD', 'buy', 1, 1.1, now)];
    await master.report();
    await takeOpen(101);
    follower.open = [position(201, 'EURUSD', 'buy', 1, 1.1, now, 101)];
    await follower.report();
    await master.report();
    await follower.report();
    expect(closes(await follower.poll(1))).toEqual([]);
    master.open = [];
    await master.report();
    await takeTheClose(201);
  });

  it('the follower reports its copy before the master reports its position: no close, no second open; one close at the master’s', async () => {
    follower.open = [position(202, 'EURUSD', 'buy', 1, 1.1, now, 102)];
    await follower.report();
    await follower.report();
    expect(await follower.poll(1)).toEqual([]);
    master.open = [position(102, 'EURUSD', 'buy', 1, 1.1, now)];
    await master.report();
    await follower.report();
    // It holds the copy already: no open, and no close.
    expect(await follower.poll(1)).toEqual([]);
    master.open = [];
    await master.report();
    await takeTheClose(202);
  });

  it('the master closes before the follower reports its fill: one close when the fill shows', async () => {
    master.open = [position(103, 'EURUSD', 'sell', 1, 1.1, now)];
    await master.report();
    await takeOpen(103);
    master.open = [];
    await master.report();
    expect(await follower.poll(1)).toEqual([]);
    follower.open = [position(203, 'EURUSD', 'sell', 1, 1.1, now, 103)];
    await follower.report();
    await takeTheClose(203);
  });

  it('many reports both ways, restarts of both agents, changes-only batches: no close until the master’s is reported', async () => {
    master.open = [position(104, 'EURUSD', 'buy', 1, 1.1, now)];
    await master.report();
    await takeOpen(104);
    follower.open = [position(204, 'EURUSD', 'buy', 1, 1.1, now, 104)];
    for (let i = 0; i < 4; i++) {
      await follower.report();
      await master.report();
    }
    // The master's agent restarts: a new session with its full snapshot. The follower's agent
    // restarts too and forgets copy_of: the copy stays linked.
    master.restart();
    await master.report();
    follower.restart();
    await follower.report([], { positions: { full: true, open: [position(204, 'EURUSD', 'buy', 1, 1.1, now)], closed: [] } });
    expect(await follower.poll(1)).toEqual([]);
    // A batch of changes only, naming nothing closed.
    await master.report([], { positions: { full: false, open: [], closed: [] } });
    await follower.report([], { positions: { full: false, open: follower.open, closed: [] } });
    expect(await follower.poll(1)).toEqual([]);
    // The master's close as a change: its identifier in `closed`.
    master.open = [];
    await master.report([], { positions: { full: false, open: [], closed: [104] } });
    await takeTheClose(204);
  });

  it('the master’s close and the follower’s report at the same moment: one close', async () => {
    master.open = [position(105, 'EURUSD', 'buy', 1, 1.1, now)];
    await master.report();
    await takeOpen(105);
    follower.open = [position(205, 'EURUSD', 'buy', 1, 1.1, now, 105)];
    master.open = [];
    await Promise.all([master.report(), follower.report()]);
    await takeTheClose(205);
  });

  it('a copy_of that names a position of another account (not the master) links nothing and is never closed', async () => {
    other.open = [position(106, 'EURUSD', 'buy', 1, 1.1, now)];
    await other.report();
    follower.open = [position(206, 'EURUSD', 'buy', 1, 1.1, now, 106)];
    await follower.report();
    other.open = [];
    await other.report();
    await follower.report();
    expect(await follower.poll(1)).toEqual([]);
    follower.open = [];
    await follower.report();
  });

  it('a relation ended: its open copy still follows its master trade to one close; nothing new is copied', async () => {
    master.open = [position(107, 'EURUSD', 'buy', 1, 1.1, now)];
    await master.report();
    await takeOpen(107);
    follower.open = [position(207, 'EURUSD', 'buy', 1, 1.1, now, 107)];
    await follower.report();
    const ended = await http(server, 'DELETE', `/api/copy/relations/${relation.id}`, { key });
    expect(ended.status, JSON.stringify(ended.body)).toBe(200);
    await master.report();
    await follower.report();
    expect(await follower.poll(1)).toEqual([]);
    master.open = [...master.open, position(108, 'EURUSD', 'buy', 1, 1.1, now)];
    await master.report();
    expect(await follower.poll(1)).toEqual([]);
    master.open = [];
    await master.report();
    await takeTheClose(207);
  });
});
