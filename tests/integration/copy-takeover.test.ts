/**
 * A master trade reported while no process copied (the leader died, or the only server restarted):
 * copying resumes with it. Recent, it is copied when copying starts again; opened long before, it is
 * recorded as a missed copy with its alert; either way once, however often copying restarts.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertBroker } from '#server/db/accounts-repo.ts';
import { insertRegisteredAccount } from '#server/db/registry-repo.ts';
import { hashPassword } from '#server/auth/password.ts';
import { BACKENDS, http, startServer, type TestServer } from './helpers/server.ts';
import { deal, position, Terminal } from './helpers/terminal.ts';

const SERVER = 'Pepperstone-Live01';

describe.each(BACKENDS)('master trades reported while no process copied (%s)', (backend) => {
  let server: TestServer;
  let key: string;
  const master = new Terminal(() => server, '71000001', SERVER);
  const follower = new Terminal(() => server, '71000002', SERVER);
  const call = <T = { message: string }>(method: string, path: string, body?: unknown) =>
    http<T>(server, method, path, { key, ...(body === undefined ? {} : { body }), headers: method === 'GET' ? {} : { 'idempotency-key': randomUUID() } });

  /** What the leader's loss does to this process, then what taking the lead again does (src/server/plugins/broker-stack.ts). */
  const loseLead = () => {
    server.app.copier.stop();
    server.app.market.pause();
  };
  const takeLead = async () => {
    await server.app.market.resume();
    await server.app.copier.start();
  };
  const missed = async () =>
    (await call<{ alerts: { type: string; message: string }[] }>('GET', '/api/alerts/infos')).body.alerts.filter((a) => a.type === 'copy');

  beforeAll(async () => {
    server = await startServer(backend, { demo: false });
    const db = server.app.db;
    const broker = await insertBroker(db, { broker_name: 'Pepperstone', img_path: '', spread_pips: 0, latency_ms: 0, commission_per_lot: 0, rebate_per_lot: 0 });
    const account = (t: Terminal, name: string) =>
      insertRegisteredAccount(db, { source: 'agent', account_id: `pp-${t.login}`, account: t.login, account_name: name, broker_id: broker, server: SERVER, server_name: SERVER, teiko_category: 'global forex', currency: 'EUR', leverage: 100 });
    await master.register(await account(master, 'Master'));
    await follower.register(await account(follower, 'Follower'));
    await server.app.authStore.upsertUser({ username: 'ops', password_hash: await hashPassword('ops-password-1'), status: 'active', permissions: ['write'], portfolio_auth: ['Global FX'] });
    key = (await http<{ data: { api_key: string } }>(server, 'POST', '/api/login', { body: { username: 'ops', password: 'ops-password-1' } })).body.data.api_key;
    master.state = { balance: 10_000, equity: 10_000, margin: 0, free_margin: 10_000, leverage: 100, currency: 'EUR' };
    follower.state = { balance: 10_000, equity: 10_000, margin: 0, free_margin: 10_000, leverage: 100, currency: 'EUR' };
    for (const t of [master, follower]) await t.report();
    expect((await call('POST', '/api/copy/relations', { master: 'pp-71000001', follower: 'pp-71000002', sizing: { mode: 'ratio', ratio: 1 } })).status).toBe(200);
    // The relation has been in force for two hours (trades opened before it are not the follower's to copy).
    await db.query("UPDATE copy_relations SET started_at = now() - interval '2 hours'");
    expect((await call('POST', '/api/copy-rules/allowed-pairs', { master_id: 'pp-71000001', new_allowed_pairs: ['EURUSD', 'GBPUSD'] })).status).toBe(200);
  });
  afterAll(async () => server?.close());

  it('copies a trade opened a minute ago once copying starts again, and only once', async () => {
    const at = Math.floor(Date.now() / 1000) - 60;
    loseLead();
    master.open = [position(7101, 'EURUSD', 'buy', 0.4, 1.085, at)];
    await master.report([deal(7101, 'in', 'buy', 'EURUSD', 0.4, 1.085, at)]);
    // Nobody copies meanwhile.
    expect(await follower.poll(1)).toEqual([]);
    await takeLead();
    const orders = await follower.poll();
    expect(orders).toHaveLength(1);
    expect(orders[0]).toMatchObject({ kind: 'open', payload: { symbol: 'EURUSD', type: 'buy', volume: 0.4, master_position_id: 7101, master_login: '71000001' } });
    // Another takeover before the follower's terminal filled it: no second order.
    loseLead();
    await takeLead();
    expect(await follower.poll(1)).toEqual([]);
    await follower.answer(orders[0]!.id);
    follower.open = [position(8101, 'EURUSD', 'buy', 0.4, 1.0851, at + 70, 7101)];
    await follower.report([deal(8101, 'in', 'buy', 'EURUSD', 0.4, 1.0851, at + 70)]);
    loseLead();
    await takeLead();
    expect(await follower.poll(1)).toEqual([]);
    expect(await missed()).toEqual([]);
  });

  it('records a trade opened longer ago than copying catches up as missed, with one alert however often copying restarts', async () => {
    const at = Math.floor(Date.now() / 1000) - 30 * 60;
    loseLead();
    master.open = [...master.open, position(7102, 'GBPUSD', 'sell', 0.2, 1.27, at)];
    await master.report([deal(7102, 'in', 'sell', 'GBPUSD', 0.2, 1.27, at)]);
    await takeLead();
    loseLead();
    await takeLead();
    expect(await follower.poll(1)).toEqual([]);
    const alerts = await missed();
    expect(alerts.map((a) => a.message)).toEqual([
      'Missed copy on Follower: Sell GBPUSD of Master was not copied (no server was copying when it opened, and it opened too long ago to copy now).',
    ]);
    const report = await call<{ data: { followers: { missed_by_reason: { reason: string; count: number }[] }[] } }>('GET', '/api/copy/report?portfolio=Global%20FX&period=all');
    expect(report.body.data.followers[0]!.missed_by_reason).toEqual([{ reason: 'server_down', count: 1 }]);
  });

  it('does not count a master trade from before the relation started as a missed copy', async () => {
    const nowS = Math.floor(Date.now() / 1000);
    // The follower's account was funded five hours ago; the master traded AUDUSD three hours ago,
    // before the relation (two hours old) existed.
    await follower.report([{ ...deal(0, 'in', 'buy', '', 0, 0, nowS - 5 * 3600, 10_000), type: 2 }]);
    await master.report([deal(7300, 'in', 'buy', 'EURUSD', 0.1, 1.08, nowS - 3 * 3600), deal(7300, 'out', 'sell', 'EURUSD', 0.1, 1.081, nowS - 2.5 * 3600, 10)]);
    const report = await call<{ data: { followers: { missed: number; missed_by_reason: { reason: string; count: number }[] }[] } }>('GET', '/api/copy/report?portfolio=Global%20FX&period=all');
    expect(report.body.data.followers[0]!.missed_by_reason).toEqual([{ reason: 'server_down', count: 1 }]);
  });
});
