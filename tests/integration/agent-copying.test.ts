/**
 * Copying across real terminals, as documented (docs/copying.md, docs/ingest-api.md): an operator
 * registers a broker, its symbol names, three accounts and their agents (here through the
 * repositories the admin CLI writes with); a write user then sets everything up with documented
 * calls only: the copy relations (ratio capped by a maximum lot, equity proportion, then a fixed
 * lot) and the master's allowed pairs. Three fake terminals speak the Ingest API from its
 * documentation: the master opens, each follower's agent gets one `open` command of the right
 * size, the followers report their fills with `copy_of`, the copy report shows slippage and delay
 * per copy (and the alert past the threshold), the master closes and each copy gets exactly one
 * `close`, none earlier.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CopyRelation } from '#shared/contract/copy-relations.ts';
import type { CopyReportResponse } from '#shared/contract/copy.ts';
import { insertBroker } from '#server/db/accounts-repo.ts';
import { insertRegisteredAccount } from '#server/db/registry-repo.ts';
import { setSymbol } from '#server/db/symbol-map-repo.ts';
import { hashPassword } from '#server/auth/password.ts';
import { BACKENDS, http, startServer, type TestServer } from './helpers/server.ts';
import { deal, position, Terminal } from './helpers/terminal.ts';

const SERVER = 'Pepperstone-Live01';

describe.each(BACKENDS)('a master and two followers on three terminals, set up by a write user (%s)', (backend) => {
  let server: TestServer;
  let key: string;
  const master = new Terminal(() => server, '70000001', SERVER);
  const followerA = new Terminal(() => server, '70000002', SERVER);
  const followerB = new Terminal(() => server, '70000003', SERVER);
  const t0 = Math.floor(Date.now() / 1000) - 3600;
  const relations: Record<'A' | 'B', CopyRelation> = {} as Record<'A' | 'B', CopyRelation>;

  const call = <T = { message: string }>(method: string, path: string, body?: unknown) =>
    http<T>(server, method, path, { key, ...(body === undefined ? {} : { body }), headers: method === 'GET' ? {} : { 'idempotency-key': randomUUID() } });

  beforeAll(async () => {
    server = await startServer(backend, { demo: false });
    const db = server.app.db;
    // The operator's part (npm run admin -- broker add, symbol map, account add, agent create, user create).
    const broker = await insertBroker(db, { broker_name: 'Pepperstone', img_path: '', spread_pips: 0, latency_ms: 0, commission_per_lot: 0, rebate_per_lot: 0 });
    await setSymbol(db, broker, 'EURUSD.m', 'EURUSD');
    await setSymbol(db, broker, 'GBPUSD.m', 'GBPUSD');
    const account = (t: Terminal, name: string, currency: string) =>
      insertRegisteredAccount(db, { source: 'agent', account_id: `pepperstone-${t.login}`, account: t.login, account_name: name, broker_id: broker, server: SERVER, server_name: SERVER, teiko_category: 'global forex', currency, leverage: 100 });
    await master.register(await account(master, 'Master USD', 'USD'));
    await followerA.register(await account(followerA, 'Follower A', 'EUR'));
    await followerB.register(await account(followerB, 'Follower B', 'EUR'));
    await server.app.authStore.upsertUser({ username: 'ops', password_hash: await hashPassword('ops-password-1'), status: 'active', permissions: ['write'], portfolio_auth: ['Global FX'] });
    key = (await http<{ data: { api_key: string } }>(server, 'POST', '/api/login', { body: { username: 'ops', password: 'ops-password-1' } })).body.data.api_key;

    // The terminals come online. The master quotes under its broker's names (EURUSD.m): 1 USD = 1 / 1.1 EUR.
    master.state = { balance: 110_000, equity: 110_000, margin: 0, free_margin: 110_000, leverage: 100, currency: 'USD' };
    master.quotes = [{ symbol: 'EURUSD.m', bid: 1.0999, ask: 1.1001 }];
    followerA.state = { balance: 10_000, equity: 10_000, margin: 0, free_margin: 10_000, leverage: 100, currency: 'EUR' };
    followerB.state = { balance: 25_000, equity: 25_000, margin: 0, free_margin: 25_000, leverage: 100, currency: 'EUR' };
    for (const t of [master, followerA, followerB]) await t.report();
  });
  afterAll(async () => server?.close());

  it('maps the quotes a terminal sends under its broker’s names: the USD account is valued in EUR', async () => {
    expect(server.app.market.snapshot().rates.get('USD')).toBeCloseTo(1 / 1.1, 10);
    const info = await http<{ data: { account_id: string; balance_currency: number }[] }>(server, 'GET', '/api/brokers/accounts/info', { key });
    // 110,000 USD / 1.1 = 100,000 EUR
    expect(info.body.data.find((a) => a.account_id === 'pepperstone-70000001')!.balance_currency).toBeCloseTo(100_000, 2);
  });

  it('sets up the relations and the master’s allowed pairs through the documented calls', async () => {
    const a = await call<{ relation: CopyRelation }>('POST', '/api/copy/relations', {
      master: 'pepperstone-70000001', follower: 'pepperstone-70000002', sizing: { mode: 'ratio', ratio: 0.5 }, max_lot: 0.5,
    });
    expect(a.status, JSON.stringify(a.body)).toBe(200);
    const b = await call<{ relation: CopyRelation }>('POST', '/api/copy/relations', {
      master: '70000001', follower: '70000003', sizing: { mode: 'equity', multiplier: 1 },
    });
    expect(b.status, JSON.stringify(b.body)).toBe(200);
    relations.A = a.body.relation;
    relations.B = b.body.relation;

    // The master registered with the CLI has no rule yet: it shows with an empty one, and gets one.
    const infos = await call<{ copy_rules: { master_id: string; market_type: string; allowed_pairs: string[] }[] }>('GET', '/api/copy-rules/infos');
    expect(infos.body.copy_rules).toEqual([{ master_id: 'pepperstone-70000001', market_type: 'Forex', allowed_pairs: [], account_name: 'Master USD', broker_name: 'Pepperstone' }]);
    const pairs = await call('POST', '/api/copy-rules/allowed-pairs', { master_id: 'pepperstone-70000001', new_allowed_pairs: ['EURUSD', 'GBPUSD'] });
    expect(pairs.status, JSON.stringify(pairs.body)).toBe(200);
    const after = await call<{ copy_rules: { allowed_pairs: string[] }[] }>('GET', '/api/copy-rules/infos');
    expect(after.body.copy_rules[0]!.allowed_pairs).toEqual(['EURUSD', 'GBPUSD']);
  });

  it('sends each follower one open of its size; the fills reported with copy_of are linked, and nothing closes early', async () => {
    master.open = [position(7001, 'EURUSD.m', 'buy', 1.2, 1.085, t0)];
    await master.report([deal(7001, 'in', 'buy', 'EURUSD.m', 1.2, 1.085, t0)]);
    const toA = await followerA.poll();
    const toB = await followerB.poll();
    const copy = { kind: 'open', payload: { symbol: 'EURUSD', type: 'buy', master_position_id: 7001, master_login: '70000001', master_server: SERVER } };
    // A: 1.2 × 0.5 = 0.6, capped at its maximum lot 0.5.
    expect(toA).toHaveLength(1);
    expect(toA[0]).toMatchObject({ ...copy, payload: { ...copy.payload, volume: 0.5 } });
    // B: 1.2 × (25,000 EUR / (110,000 USD / 1.1 = 100,000 EUR)) = 0.30.
    expect(toB).toHaveLength(1);
    expect(toB[0]).toMatchObject({ ...copy, payload: { ...copy.payload, volume: 0.3 } });
    await followerA.answer(toA[0]!.id);
    await followerB.answer(toB[0]!.id);

    // A filled 2.5 pips worse 1 s later, B 1 pip worse 2 s later; each keeps the master's identifier.
    followerA.open = [position(8101, 'EURUSD', 'buy', 0.5, 1.08525, t0 + 1, 7001)];
    followerB.open = [position(9101, 'EURUSD', 'buy', 0.3, 1.0851, t0 + 2, 7001)];
    await followerA.report([deal(8101, 'in', 'buy', 'EURUSD', 0.5, 1.08525, t0 + 1)]);
    await followerB.report([deal(9101, 'in', 'buy', 'EURUSD', 0.3, 1.0851, t0 + 2)]);
    const masterRow = server.app.market.snapshot().positions.find((p) => p.symbol === 'EURUSD' && p.quantity === 1.2)!;
    expect(server.app.market.snapshot().positions.filter((p) => p.master_position_id === masterRow.id)).toHaveLength(2);

    // Reports go on from every terminal: no copy is closed while its master is open.
    for (let i = 0; i < 3; i++) for (const t of [master, followerA, followerB]) await t.report();
    expect(await followerA.poll(1)).toEqual([]);
    expect(await followerB.poll(0)).toEqual([]);
  });

  it('alerts on the copy filled past the slippage threshold, and only on it', async () => {
    const alerts = async () => (await call<{ alerts: { type: string; message: string }[] }>('GET', '/api/alerts/infos')).body.alerts.filter((a) => a.type === 'slippage');
    await expect.poll(async () => (await alerts()).length, { timeout: 5_000 }).toBe(1);
    expect((await alerts())[0]!.message).toBe('Slippage on Follower A: Buy EURUSD copied 2.5 pips worse than its master (threshold 2 pips).');
  });

  it('closes each copy exactly once when the master closes, and reports slippage and delay per copy', async () => {
    master.open = [];
    await master.report([deal(7001, 'out', 'sell', 'EURUSD.m', 1.2, 1.09, t0 + 60, 600)]);
    const closeA = await followerA.poll();
    const closeB = await followerB.poll();
    expect(closeA).toHaveLength(1);
    expect(closeA[0]).toMatchObject({ kind: 'close', payload: { identifier: 8101, volume: 0.5 } });
    expect(closeB).toHaveLength(1);
    expect(closeB[0]).toMatchObject({ kind: 'close', payload: { identifier: 9101, volume: 0.3 } });
    // The terminals report once more before running it: no second close.
    await followerA.report();
    await followerB.report();
    await master.report();
    expect(await followerA.poll(1)).toEqual([]);
    await followerA.answer(closeA[0]!.id);
    await followerB.answer(closeB[0]!.id);
    followerA.open = [];
    followerB.open = [];
    await followerA.report([deal(8101, 'out', 'sell', 'EURUSD', 0.5, 1.0899, t0 + 61, 232.5)]);
    await followerB.report([deal(9101, 'out', 'sell', 'EURUSD', 0.3, 1.08995, t0 + 61, 145.5)]);
    expect(await followerA.poll(1)).toEqual([]);
    expect(await followerB.poll(0)).toEqual([]);

    const report = await call<CopyReportResponse>('GET', '/api/copy/report?portfolio=Global%20FX&period=1m');
    expect(report.status).toBe(200);
    const of = (id: string) => report.body.data.followers.find((f) => f.account_id === id)!;
    // A: entry (1.08525 − 1.08500) / 0.0001 = 2.5 pips; exit (1.09000 − 1.08990) / 0.0001 = 1 pip; 1 s after its master.
    expect(of('pepperstone-70000002').trades).toEqual([
      expect.objectContaining({ symbol: 'EURUSD', type: 'Buy', quantity: 0.5, master_quantity: 1.2, expected_quantity: 0.5, entry_slippage: 2.5, exit_slippage: 1, delay_ms: 1000, inferred: false }),
    ]);
    // B: entry 1 pip, exit 0.5 pip, 2 s after; sized by equity, so no rule size to compare with.
    expect(of('pepperstone-70000003').trades).toEqual([
      expect.objectContaining({ quantity: 0.3, expected_quantity: null, entry_slippage: 1, exit_slippage: 0.5, delay_ms: 2000, inferred: false }),
    ]);
    expect(of('pepperstone-70000002')).toMatchObject({ copied: 1, inferred_links: 0, master: { account_id: 'pepperstone-70000001' }, sizing: { mode: 'ratio', ratio: 0.5 }, max_lot: 0.5 });
  });

  it('sizes the next copy by the relation as edited: a fixed lot, and the equity proportion again', async () => {
    const edited = await call('PUT', `/api/copy/relations/${relations.A.id}`, { sizing: { mode: 'fixed', lot: 0.2 }, max_lot: null, equity_stop: null });
    expect(edited.status, JSON.stringify(edited.body)).toBe(200);
    master.open = [position(7002, 'GBPUSD.m', 'sell', 2, 1.27, t0 + 120)];
    await master.report();
    const [toA] = await followerA.poll();
    const [toB] = await followerB.poll();
    expect(toA).toMatchObject({ kind: 'open', payload: { symbol: 'GBPUSD', type: 'sell', volume: 0.2, master_position_id: 7002 } });
    // 2 × 0.25 = 0.50
    expect(toB).toMatchObject({ kind: 'open', payload: { symbol: 'GBPUSD', type: 'sell', volume: 0.5, master_position_id: 7002 } });
  });
});
