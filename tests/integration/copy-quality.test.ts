/**
 * Copy quality (issue 20): fake terminals and the simulated market produce a known missed copy, a
 * known slippage, a known duplicated copy and a manual trade; the API reports exactly those.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { IngestAccount, IngestDeal, IngestPosition } from '#shared/contract/ingest.ts';
import type { CopyReportResponse, FollowerQuality } from '#shared/contract/copy.ts';
import { insertAccount, insertBroker } from '#server/db/accounts-repo.ts';
import { grantAccount, insertAgent } from '#server/db/agents-repo.ts';
import { insertRule } from '#server/db/copy-rules-repo.ts';
import { hashToken, newToken } from '#server/auth/tokens.ts';
import { pipSize } from '#shared/domain/instruments.ts';
import { BACKENDS, http, login, simulatorOf, startServer, type TestServer } from './helpers/server.ts';

type Report = CopyReportResponse['data'];

class Terminal {
  private session = randomUUID();
  private seq = 0;
  readonly key = newToken();
  constructor(
    private readonly server: () => TestServer,
    readonly login: string,
  ) {}

  async report(account: Partial<IngestAccount>) {
    const res = await http(this.server(), 'POST', '/api/ingest/v1/batches', {
      headers: { 'x-agent-key': this.key },
      body: { session: this.session, seq: ++this.seq, batch_id: randomUUID(), utc_offset_minutes: 0, sent_at: Date.now(), accounts: [{ login: this.login, server: 'Demo-Live', ...account }] },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
  }
}

let ticket = 1;
/** A closed round trip as MT5 reports it: a deal in, a deal out. */
function roundTrip(position: number, symbol: string, volume: number, open: number, close: number, openedAt: number, closedAt: number): IngestDeal[] {
  const base = { position_id: position, type: 0, symbol, volume, commission: 0, fee: 0, swap: 0 };
  return [
    { ...base, ticket: ticket++, time: openedAt, entry: 'in', price: open, profit: 0 },
    { ...base, ticket: ticket++, type: 1, time: closedAt, entry: 'out', price: close, profit: Math.round((close - open) * 100_000 * volume * 100) / 100 },
  ];
}

const position = (identifier: number, symbol: string, volume: number, price: number): IngestPosition => ({
  identifier, symbol, type: 'buy', volume, price_open: price, price_current: price, sl: 0, tp: 0, profit: 0, swap: 0, time: Math.floor(Date.now() / 1000),
});

describe.each(BACKENDS)('copy quality from terminals (%s)', (backend) => {
  let server: TestServer;
  let key: string;
  const master = new Terminal(() => server, '80000001');
  const follower = new Terminal(() => server, '80000002');
  const t0 = Math.floor(Date.now() / 1000) - 2 * 86_400;

  beforeAll(async () => {
    server = await startServer(backend, { demo: false });
    const db = server.app.db;
    const broker = await insertBroker(db, { broker_name: 'Copy Broker', img_path: '', spread_pips: 0, latency_ms: 0, commission_per_lot: 0, rebate_per_lot: 0 });
    const account = (login: string, masterId: number | null, ratio: number) =>
      insertAccount(db, {
        account_id: `copy-${login}`, account: login, account_name: `Account ${login}`, broker_id: broker, server: 'Demo-Live',
        server_name: 'Demo Live', teiko_category: 'SMA', currency: 'USD', is_master: masterId === null, master_id: masterId,
        copy_ratio: ratio, leverage: 100, ping: 0, last_update: 0, source: 'agent',
      });
    const masterId = await account(master.login, null, 1);
    const followerId = await account(follower.login, masterId, 0.5);
    // A follower of SMA copying a master of Global FX, which the ops user (SMA only) may not see.
    const hiddenMaster = await insertAccount(db, {
      account_id: 'copy-hidden-master', account: '80000009', account_name: 'Hidden Master', broker_id: broker, server: 'Demo-Live',
      server_name: 'Demo Live', teiko_category: 'global forex', currency: 'USD', is_master: true, master_id: null,
      copy_ratio: 1, leverage: 100, ping: 0, last_update: 0, source: 'agent',
    });
    await account('80000010', hiddenMaster, 1);
    await insertRule(db, { master_id: masterId, market_type: 'Forex', allowed_pairs: ['EURUSD'] });
    for (const [t, id] of [[master, masterId], [follower, followerId]] as const) {
      await grantAccount(db, await insertAgent(db, `agent-${t.login}`, hashToken(t.key)), id, 'trade');
    }
    await server.app.copier.reloadRules();
    const users = await import('#server/auth/password.ts');
    await server.app.authStore.upsertUser({
      username: 'ops', password_hash: await users.hashPassword('ops-password-1'), status: 'active', permissions: ['write'], portfolio_auth: ['SMA'],
    });
    key = (await http<{ data: { api_key: string } }>(server, 'POST', '/api/login', { body: { username: 'ops', password: 'ops-password-1' } })).body.data.api_key;

    const deposit = (at: number): IngestDeal => ({ ticket: ticket++, position_id: 0, time: at, type: 2, entry: 'in', symbol: '', volume: 0, price: 0, commission: 0, fee: 0, swap: 0, profit: 10_000 });
    // The master: 1 lot EURUSD bought at 1.08500, sold at 1.09000.
    // EURUSD at 1.1000: one USD is 1 / 1.1 EUR.
    await master.report({
      positions: { full: true, open: [], closed: [] },
      deals: { items: [deposit(t0 - 60), ...roundTrip(5001, 'EURUSD', 1, 1.085, 1.09, t0, t0 + 3600)], deleted: [] },
      quotes: [{ symbol: 'EURUSD', bid: 1.0999, ask: 1.1001 }],
    });
    await follower.report({
      positions: { full: true, open: [], closed: [] },
      deals: {
        items: [
          deposit(t0 - 60),
          // Its copy, 1 s later: bought 2 pips higher, sold 1 pip lower.
          ...roundTrip(6001, 'EURUSD', 0.5, 1.0852, 1.0899, t0 + 1, t0 + 3601),
          // The same master trade copied a second time.
          ...roundTrip(6002, 'EURUSD', 0.5, 1.0853, 1.0899, t0 + 2, t0 + 3601),
          // A trade the master never made: a manual intervention.
          ...roundTrip(6003, 'USDJPY', 0.1, 150, 150.2, t0 + 7200, t0 + 9000),
          // Another, 40 days ago: outside Last Month, inside All Time.
          ...roundTrip(6004, 'USDCAD', 0.1, 1.36, 1.361, t0 - 38 * 86_400, t0 - 38 * 86_400 + 600),
        ],
        deleted: [],
      },
    });
    // The master opens GBPJPY, a pair its rule does not allow: a missed copy, recorded with its reason.
    await master.report({ positions: { full: true, open: [position(5002, 'GBPJPY', 1, 190)], closed: [] } });
  });
  afterAll(async () => server?.close());

  const report = async (): Promise<Report> => {
    const res = await http<CopyReportResponse>(server, 'GET', '/api/copy/report?portfolio=SMA&period=1m', { key });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body.data;
  };
  const followerOf = (r: Report): FollowerQuality => r.followers.find((f) => f.account_id === `copy-${follower.login}`)!;

  it('links the copy to its master and reports its slippage, delay and size', async () => {
    const f = followerOf(await report());
    expect(f).toMatchObject({ is_copy: true, master: { account_id: `copy-${master.login}` }, copied: 1, inferred_links: 1 });
    const [t] = f.trades;
    // Entry (1.08520 − 1.08500) / 0.0001 = 2 pips worse; exit (1.09000 − 1.08990) / 0.0001 = 1 pip worse;
    // 3 pips × 100,000 × 0.5 lot = 15 USD; opened 1 s after its master.
    expect(t).toMatchObject({ symbol: 'EURUSD', type: 'Buy', entry_slippage: 2, exit_slippage: 1, slippage_unit: 'pips', slippage_cost: 15, delay_ms: 1000, quantity: 0.5, expected_quantity: 0.5, size_ratio: 0.5, inferred: true });
    expect(f.avg_entry_slippage_pips).toBe(2);
  });

  it('counts the second copy of one master trade as a duplicate and the trade without a master as manual', async () => {
    const f = followerOf(await report());
    expect(f.duplicates).toBe(1);
    expect(f.manual).toBe(1);
  });

  it('counts only the trades opened in the period', async () => {
    const all = await http<CopyReportResponse>(server, 'GET', '/api/copy/report?portfolio=SMA&period=all', { key });
    expect(followerOf(all.body.data).manual).toBe(2);
    expect(all.body.data.from).toBeNull();
    const month = await report();
    // Last Month starts a month before now (epoch seconds).
    expect(Math.abs(month.from! - (Math.floor(Date.now() / 1000) - 30 * 86_400))).toBeLessThan(3 * 86_400);
  });

  it('reports the missed copy with its reason', async () => {
    await expect.poll(async () => followerOf(await report()).missed, { timeout: 5_000 }).toBe(1);
    const f = followerOf(await report());
    expect(f.missed_by_reason).toEqual([{ reason: 'pair_not_allowed', count: 1 }]);
    expect(f.misses[0]).toMatchObject({ symbol: 'GBPJPY', type: 'Buy', reason: 'pair_not_allowed', inferred: false });
    // A copy the rule chose not to make is a record here, not an alert (nor a push).
    const alerts = await http<{ alerts: { type: string; message: string }[] }>(server, 'GET', '/api/alerts/infos', { key });
    expect(alerts.body.alerts.some((a) => a.type === 'copy' && a.message.includes('GBPJPY'))).toBe(false);
  });

  it('ranks the follower\'s broker by its copies and shows each terminal\'s health', async () => {
    const r = await report();
    expect(r.brokers).toEqual([
      // 15 USD / 1.1 = 13.64 EUR
      { broker_name: 'Copy Broker', trades: 1, avg_entry_slippage_pips: 2, worst_entry_slippage_pips: 2, avg_slippage_cost_eur: 13.64, avg_delay_ms: 1000, worst_delay_ms: 1000 },
    ]);
    const health = r.health.find((h) => h.account_id === `copy-${master.login}`)!;
    expect(health.state).toBe('live');
  });

  it('does not name a master outside the caller\'s portfolios, nor show its growth', async () => {
    await expect.poll(async () => (await report()).followers.some((f) => f.account_id === 'copy-80000010'), { timeout: 5_000 }).toBe(true);
    const r = await report();
    const f = r.followers.find((x) => x.account_id === 'copy-80000010')!;
    expect(f).toMatchObject({ is_copy: true, master: null, master_growth: null, tracking_difference: null });
    expect(JSON.stringify(r)).not.toContain('Hidden Master');
    const growth = await http<{ message: string }>(server, 'GET', '/api/copy/growth?account=copy-80000010', { key });
    expect(growth.status).toBe(404);
    expect(JSON.stringify(growth.body)).not.toContain('Hidden Master');
  });

  it('answers "Not a copy account" for a master, and refuses thresholds out of range', async () => {
    const growth = await http<{ message: string }>(server, 'GET', `/api/copy/growth?account=copy-${master.login}`, { key });
    expect(growth.status).toBe(400);
    expect(growth.body.message).toBe('Not a copy account');
    const negative = await http<{ message: string }>(server, 'PUT', '/api/risk/limits', { key, body: { portfolio: 'SMA', max_drawdown_pct: -5, min_margin_level_pct: 100 } });
    expect(negative.status).toBe(400);
    expect(negative.body.message).toMatch(/max_drawdown_pct must be greater than 0/);
    const under = await http<{ message: string }>(server, 'PUT', '/api/risk/limits', { key, body: { portfolio: 'SMA', max_drawdown_pct: 20, min_margin_level_pct: -1 } });
    expect(under.status).toBe(400);
    expect(under.body.message).toMatch(/min_margin_level_pct must not be under 0/);
    const ok = await http(server, 'PUT', '/api/risk/limits', { key, body: { portfolio: 'SMA', max_drawdown_pct: 20, min_margin_level_pct: 150 } });
    expect(ok.status).toBe(200);
    expect((await report()).limits).toEqual({ max_drawdown_pct: 20, min_margin_level_pct: 150 });
  });
});

describe.each(BACKENDS)('copy quality on the simulated market (%s)', (backend) => {
  let server: TestServer;
  let key: string;
  beforeAll(async () => {
    server = await startServer(backend);
    key = await login(server, 'admin');
  });
  afterAll(async () => server?.close());

  const masterWithFollowers = () => {
    const accounts = [...server.app.market.snapshot().accounts.values()];
    const master = accounts.find((a) => a.is_master && accounts.some((f) => f.master_id === a.id))!;
    return { master, followers: accounts.filter((f) => f.master_id === master.id) };
  };

  it('links the copy engine\'s copies to their master (not inferred), with the slippage their fills show', async () => {
    const { master, followers } = masterWithFollowers();
    const rules = await http<{ copy_rules: { master_id: string; allowed_pairs: string[] }[] }>(server, 'GET', '/api/copy-rules/infos', { key });
    const pair = rules.body.copy_rules.find((r) => r.master_id === master.account_id)!.allowed_pairs.find((p) => /^[A-Z]{6}$/.test(p))!;
    const sim = simulatorOf(server.app);
    const opened = await sim.openMasterTrade(master.id, pair, 'Buy', 1);
    await sim.tick();
    const copies = server.app.market.snapshot().positions.filter((p) => p.master_position_id === opened.id);
    expect(copies.length).toBe(followers.length);
    const closed = await http(server, 'POST', '/api/positions/close-by-symbol', {
      key,
      headers: { 'idempotency-key': randomUUID() },
      body: { category: 'Forex', symbol: pair, direction: 'long', currency: master.currency, portfolio: 'Consolidated Portfolio' },
    });
    expect(closed.status, JSON.stringify(closed.body)).toBe(200);
    await sim.tick();
    const res = await http<CopyReportResponse>(server, 'GET', '/api/copy/report?period=1m&portfolio=Consolidated%20Portfolio', { key });
    expect(res.status).toBe(200);
    for (const copy of copies) {
      const acct = server.app.market.snapshot().accounts.get(copy.account_id)!;
      const f = res.body.data.followers.find((x) => x.account_id === acct.account_id)!;
      const t = f.trades.find((x) => x.symbol === pair && x.opened_at === copy.opened_at && !x.inferred);
      expect(t, `${acct.account_name} lists its copy of ${pair}`).toBeDefined();
      // Independently: the follower's fill against its master's, in pips (a buy filled higher is worse).
      expect(t!.entry_slippage).toBeCloseTo((copy.price_open - opened.price_open) / pipSize(pair), 1);
    }
  });

  it('records a copy missed while the bridge is off, for each follower, with that reason', async () => {
    const { master, followers } = masterWithFollowers();
    expect((await http(server, 'POST', '/api/bridge/stop', { key })).status).toBe(200);
    const rules = await http<{ copy_rules: { master_id: string; allowed_pairs: string[] }[] }>(server, 'GET', '/api/copy-rules/infos', { key });
    const pair = rules.body.copy_rules.find((r) => r.master_id === master.account_id)!.allowed_pairs.find((p) => /^[A-Z]{6}$/.test(p))!;
    const before = await http<CopyReportResponse>(server, 'GET', '/api/copy/report?period=1m&portfolio=Consolidated%20Portfolio', { key });
    const countOf = (r: Report, id: string) => r.followers.find((x) => x.account_id === id)!.missed_by_reason.find((m) => m.reason === 'bridge_off')?.count ?? 0;
    await simulatorOf(server.app).openMasterTrade(master.id, pair, 'Sell', 1);
    await simulatorOf(server.app).tick();
    const after = await http<CopyReportResponse>(server, 'GET', '/api/copy/report?period=1m&portfolio=Consolidated%20Portfolio', { key });
    for (const f of followers) expect(countOf(after.body.data, f.account_id) - countOf(before.body.data, f.account_id)).toBe(1);
    expect((await http(server, 'POST', '/api/bridge/start', { key })).status).toBe(200);
  });
});
