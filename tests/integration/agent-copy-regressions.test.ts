/**
 * What an independent terminal agent, written from the documentation alone, found wrong on
 * copying across terminals (each case failed before its fix): a copy reported with `copy_of` = its
 * master position's identifier was closed at once while the master was open, and raised no
 * slippage alert; quotes sent under the broker's symbol names gave no EUR rate.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CopyReportResponse } from '#shared/contract/copy.ts';
import { insertAccount, insertBroker } from '#server/db/accounts-repo.ts';
import { insertRule } from '#server/db/copy-rules-repo.ts';
import { setSymbol } from '#server/db/symbol-map-repo.ts';
import { hashPassword } from '#server/auth/password.ts';
import { BACKENDS, http, startServer, type TestServer } from './helpers/server.ts';
import { deal, position, Terminal } from './helpers/terminal.ts';

const SERVER = 'Regress-Live';

describe.each(BACKENDS)('copies reported by the documented copy_of (%s)', (backend) => {
  let server: TestServer;
  let key: string;
  const master = new Terminal(() => server, '50000001', SERVER);
  const follower = new Terminal(() => server, '50000002', SERVER);
  const now = Math.floor(Date.now() / 1000);

  beforeAll(async () => {
    server = await startServer(backend, { demo: false });
    const db = server.app.db;
    const broker = await insertBroker(db, { broker_name: 'Regress', img_path: '', spread_pips: 0, latency_ms: 0, commission_per_lot: 0, rebate_per_lot: 0 });
    await setSymbol(db, broker, 'EURUSD.m', 'EURUSD');
    await setSymbol(db, broker, 'AAPL.us', 'AAPL');
    const account = (t: Terminal, masterId: number | null, currency: string) =>
      insertAccount(db, {
        account_id: `regress-${t.login}`, account: t.login, account_name: `Account ${t.login}`, broker_id: broker, server: SERVER, server_name: SERVER,
        teiko_category: 'SMA', currency, is_master: masterId === null, master_id: masterId, copy_ratio: 1, leverage: 100, ping: 0, last_update: 0, source: 'agent',
      });
    const masterId = await account(master, null, 'USD');
    // A master of equities registered with the CLI, without a copy rule.
    await insertAccount(db, {
      account_id: 'regress-50000009', account: '50000009', account_name: 'Equity Master', broker_id: broker, server: SERVER, server_name: SERVER,
      teiko_category: 'global equity', currency: 'USD', leverage: 5, ping: 0, last_update: 0, source: 'agent',
    });
    await master.register(masterId);
    await follower.register(await account(follower, masterId, 'USD'));
    await insertRule(db, { master_id: masterId, market_type: 'Forex', allowed_pairs: ['EURUSD'] });
    await server.app.copier.reloadRules();
    await server.app.authStore.upsertUser({ username: 'ops', password_hash: await hashPassword('ops-password-1'), status: 'active', permissions: ['write'], portfolio_auth: ['SMA', 'Global Equity'] });
    key = (await http<{ data: { api_key: string } }>(server, 'POST', '/api/login', { body: { username: 'ops', password: 'ops-password-1' } })).body.data.api_key;
    master.state = { balance: 10_000, equity: 10_000, margin: 0, free_margin: 10_000, leverage: 100, currency: 'USD' };
    master.quotes = [{ symbol: 'EURUSD.m', bid: 1.0999, ask: 1.1001 }];
    await master.report();
    await follower.report();
  });
  afterAll(async () => server?.close());

  it('shows and sets the copy rule of every master, one registered without a rule too (its market: Equities for a Global Equity account)', async () => {
    const infos = await http<{ copy_rules: { master_id: string; market_type: string; allowed_pairs: string[] }[] }>(server, 'GET', '/api/copy-rules/infos', { key });
    expect(infos.body.copy_rules.map((r) => [r.master_id, r.market_type, r.allowed_pairs])).toEqual([
      ['regress-50000001', 'Forex', ['EURUSD']],
      ['regress-50000009', 'Equities', []],
    ]);
    const wrong = await http<{ message: string }>(server, 'POST', '/api/copy-rules/allowed-pairs', { key, body: { master_id: 'regress-50000009', new_allowed_pairs: ['TSLA'] } });
    expect(wrong.status).toBe(400);
    expect(wrong.body.message).toBe('Not Equities instruments: TSLA');
    const set = await http<{ copy_rule: { market_type: string; allowed_pairs: string[] } }>(server, 'POST', '/api/copy-rules/allowed-pairs', { key, body: { master_id: 'regress-50000009', new_allowed_pairs: ['AAPL'] } });
    expect(set.status, JSON.stringify(set.body)).toBe(200);
    expect(set.body.copy_rule).toMatchObject({ market_type: 'Equities', allowed_pairs: ['AAPL'] });
    // A follower is no master: answered like an unknown one.
    const follows = await http<{ message: string }>(server, 'POST', '/api/copy-rules/allowed-pairs', { key, body: { master_id: 'regress-50000002', new_allowed_pairs: [] } });
    expect(follows.status).toBe(404);
    expect(follows.body.message).toBe('Master not found: regress-50000002');
  });

  it('maps quotes sent under the broker’s symbol names: a USD rate, and the exposure in EUR', async () => {
    expect(server.app.market.snapshot().rates.get('USD')).toBeCloseTo(1 / 1.1, 10);
  });

  it('keeps a copy reported with copy_of = its master’s identifier open while the master is open, and alerts on its slippage', async () => {
    master.open = [position(4242, 'EURUSD.m', 'buy', 1, 1.085, now)];
    await master.report();
    const [open] = await follower.poll();
    expect(open).toMatchObject({ kind: 'open', payload: { symbol: 'EURUSD', volume: 1 } });
    await follower.answer(open!.id);
    // Filled 2.5 pips worse; the agent keeps its master position's identifier, as documented.
    follower.open = [position(5252, 'EURUSD', 'buy', 1, 1.08525, now + 1, 4242)];
    await follower.report();
    await master.report();
    await follower.report();
    expect(await follower.poll(2)).toEqual([]);
    const alerts = await http<{ alerts: { type: string; message: string }[] }>(server, 'GET', '/api/alerts/infos', { key });
    expect(alerts.body.alerts.filter((a) => a.type === 'slippage').map((a) => a.message)).toEqual([
      'Slippage on Account 50000002: Buy EURUSD copied 2.5 pips worse than its master (threshold 2 pips).',
    ]);
    const report = await http<CopyReportResponse>(server, 'GET', '/api/copy/report?portfolio=SMA&period=1m', { key });
    // The USD leg of the two EURUSD buys has a rate now.
    const usd = report.body.data.exposure.find((e) => e.currency === 'USD')!;
    expect(usd.exposure_eur).not.toBeNull();
  });

  it('lets a Forex master allow gold, a Forex instrument beyond the 14 pairs, and copies it', async () => {
    master.quotes = [{ symbol: 'EURUSD.m', bid: 1.0999, ask: 1.1001 }, { symbol: 'XAUUSD', bid: 2650.1, ask: 2650.5 }];
    await master.report();
    const stocks = await http<{ message: string }>(server, 'POST', '/api/copy-rules/allowed-pairs', { key, body: { master_id: 'regress-50000001', new_allowed_pairs: ['EURUSD', 'AAPL'] } });
    expect(stocks.status).toBe(400);
    const set = await http<{ copy_rule: { allowed_pairs: string[] } }>(server, 'POST', '/api/copy-rules/allowed-pairs', { key, body: { master_id: 'regress-50000001', new_allowed_pairs: ['EURUSD', 'XAUUSD'] } });
    expect(set.status, JSON.stringify(set.body)).toBe(200);
    expect(set.body.copy_rule.allowed_pairs).toEqual(['EURUSD', 'XAUUSD']);
    master.open = [...master.open, position(4243, 'XAUUSD', 'sell', 0.3, 2650.1, now + 5)];
    await master.report();
    const [open] = await follower.poll();
    expect(open).toMatchObject({ kind: 'open', payload: { symbol: 'XAUUSD', type: 'sell', volume: 0.3 } });
  });

  it('answers MAE/MFE of a symbol a terminal traded and closed, not only of one open now', async () => {
    // A round trip in AUDUSD the master opened and closed between two reports.
    await master.report([deal(4250, 'in', 'buy', 'AUDUSD', 0.5, 0.652, now + 10), deal(4250, 'out', 'sell', 'AUDUSD', 0.5, 0.655, now + 20, 150)]);
    // Known within seconds of its booking (the statistics are read again at most every 5 s for a name not known yet).
    await expect.poll(async () => (await http(server, 'GET', '/api/stats/mae_mfe?symbol=AUDUSD', { key })).status, { timeout: 10_000, interval: 500 }).toBe(200);
    const res = await http<{ symbol: string; count: number }>(server, 'GET', '/api/stats/mae_mfe?symbol=AUDUSD', { key });
    expect(res.body.symbol).toBe('AUDUSD');
    // A symbol nobody traded is still unknown.
    expect((await http(server, 'GET', '/api/stats/mae_mfe?symbol=NZDCHF', { key })).status).toBe(404);
  });

  it('shows a registered account whose terminal never reported as offline, the others as live', async () => {
    const res = await http<{ data: { account_id: string; state: string }[] }>(server, 'GET', '/api/copy/health', { key });
    expect(res.status).toBe(200);
    const state = new Map(res.body.data.map((h) => [h.account_id, h.state]));
    expect(state.get('regress-50000009')).toBe('offline');
    expect(state.get('regress-50000001')).toBe('live');
  });
});
