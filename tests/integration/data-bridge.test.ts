import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Account } from '#shared/contract/accounts.ts';
import type { Position } from '#shared/contract/positions.ts';
import { activeRelations } from '#server/db/copy-relations-repo.ts';
import { BACKENDS, http, login, simulatorOf, startServer, type TestServer } from './helpers/server.ts';
import { connect, ticket } from './helpers/ws.ts';

type Snapshot = { type: string; timestamp: number; positionsAggregate: Position[] };

describe.each(BACKENDS)('data bridge calls (%s)', (backend) => {
  let server: TestServer;
  let admin: string;
  let manager: string;
  let investor: string;

  const accounts = async (key: string, query = '') =>
    (await http<{ data: Account[] }>(server, 'GET', `/api/brokers/accounts/info${query}`, { key })).body.data;

  beforeAll(async () => {
    server = await startServer(backend);
    [admin, manager, investor] = await Promise.all([login(server, 'admin'), login(server, 'manager'), login(server, 'investor')]);
  });
  afterAll(async () => {
    await server.close();
  });

  it('lists the accounts of each user’s portfolios only, rebates only with read_rebate', async () => {
    const all = await accounts(admin);
    expect(all.length).toBeGreaterThanOrEqual(25);
    expect(all.length).toBeLessThanOrEqual(40);
    expect(new Set(all.map((a) => a.currency))).toEqual(new Set(['EUR', 'USD', 'GBP', 'CHF']));
    expect(new Set(all.map((a) => a.broker_name)).size).toBe(8);
    expect(all.some((a) => a.is_master)).toBe(true);
    expect(all.every((a) => a.total_rebate !== null)).toBe(true);

    const mine = await accounts(investor);
    expect(mine.length).toBeGreaterThan(0);
    expect(mine.every((a) => a.teiko_category === 'global forex')).toBe(true);
    expect(mine.every((a) => a.total_rebate === null)).toBe(true);
    const managed = await accounts(manager);
    expect(new Set(managed.map((a) => a.teiko_category))).toEqual(new Set(['global forex', 'global equity', 'SMA']));

    const forbidden = await http<{ message: string }>(server, 'GET', '/api/brokers/accounts/info?portfolio=AMC', { key: investor });
    expect(forbidden.status).toBe(403);
    expect(forbidden.body.message).toContain('AMC');
    expect((await http(server, 'GET', '/api/brokers/accounts/info?portfolio=Nope', { key: admin })).status).toBe(400);
    expect((await http(server, 'GET', '/api/brokers/accounts/info?extra=1', { key: admin })).status).toBe(400);
  });

  it('computes equity, P/L and margin level consistently', async () => {
    for (const a of await accounts(admin)) {
      expect(a.pnl).toBeCloseTo(a.equity - a.balance, 1);
      if (a.margin > 0) expect(a.margin_level).toBeCloseTo((a.equity / a.margin) * 100, 4);
      expect(a.total_fees).toBeLessThanOrEqual(0);
    }
  });

  it('lists brokers with their categories', async () => {
    const res = await http<{ data: { broker_name: string; img_path: string; teiko_categories: string[] }[] }>(
      server, 'GET', '/api/brokers/accounts/info?only_broker_name=true', { key: investor },
    );
    expect(res.status).toBe(200);
    expect(res.body.data.length).toBeGreaterThan(0);
    for (const b of res.body.data) expect(b.teiko_categories).toEqual(['global forex']);
  });

  it('keeps historical deals, balances and stats consistent with each other', async () => {
    const acct = (await accounts(admin)).find((a) => !a.is_master)!;
    const res = await http<{ dealsStats: { deals: { type: string; profit: number; swap: number; commission: number; fee: number; datetime: number; rebate: number | null }[]; all: { balance: { value: number }[]; stats: { win: number; loss: number; net_profit: number } } }[] }>(
      server, 'GET', `/api/brokers/historical-deals?account=${acct.account_id}`, { key: admin },
    );
    expect(res.status).toBe(200);
    const s = res.body.dealsStats[0]!;
    const trades = s.deals.filter((d) => d.type === 'Buy' || d.type === 'Sell');
    expect(trades.length).toBeGreaterThan(20);
    // The balance series ends at the account's balance (closed deals only), computed independently.
    const flows = s.deals.filter((d) => d.type === 'Deposit' || d.type === 'Withdrawal').reduce((x, d) => x + d.profit, 0);
    const net = trades.reduce((x, d) => x + d.profit + d.swap + d.commission + d.fee, 0);
    expect(s.all.balance.at(-1)!.value).toBeCloseTo(flows + net, 1);
    expect(acct.balance).toBeCloseTo(flows + net, 1);
    expect(s.all.stats.net_profit).toBeCloseTo(net, 1);
    const wins = trades.filter((d) => d.profit + d.swap + d.commission + d.fee > 0).length;
    expect(s.all.stats.win).toBe(wins);

    const since = Math.floor(Date.now() / 1000) - 30 * 86400;
    const month = await http<{ dealsStats: { deals: { datetime: number }[] }[] }>(
      server, 'GET', `/api/brokers/historical-deals?account=${acct.account_id}&start_date=${since}`, { key: admin },
    );
    expect(month.body.dealsStats[0]!.deals.every((d) => d.datetime >= since)).toBe(true);

    const noAccount = await http<{ message: string }>(server, 'GET', '/api/brokers/historical-deals', { key: admin });
    expect(noAccount.status).toBe(400);
    expect(noAccount.body.message).toBe('Account is required');
    expect((await http(server, 'GET', '/api/brokers/historical-deals?account=nope', { key: admin })).status).toBe(404);
    expect((await http(server, 'GET', `/api/brokers/historical-deals?account=${acct.account_id}&start_date=abc`, { key: admin })).status).toBe(400);
    const investorRes = await http<{ dealsStats: { deals: { rebate: number | null }[] }[] }>(
      server, 'GET', `/api/brokers/historical-deals?account=${(await accounts(investor))[0]!.account_id}`, { key: investor },
    );
    expect(investorRes.body.dealsStats[0]!.deals.every((d) => d.rebate === null)).toBe(true);
  });

  it('answers max drawdown, and refuses an account outside the portfolios', async () => {
    const none = await http<{ message: string }>(server, 'GET', '/api/brokers/accounts/max-drawdown', { key: admin });
    expect(none.status).toBe(400);
    expect(none.body.message).toBe('Account is not provided.');
    const amc = (await accounts(admin)).find((a) => a.teiko_category === 'AMC')!;
    const dd = await http<{ max_drawdown_percentage: number }>(server, 'GET', `/api/brokers/accounts/max-drawdown?account=${amc.account_id}`, { key: admin });
    expect(dd.body.max_drawdown_percentage).toBeGreaterThan(0);
    expect(dd.body.max_drawdown_percentage).toBeLessThan(100);
    // Outside the caller's portfolios: the same answer as an account that does not exist.
    const outside = await http(server, 'GET', `/api/brokers/accounts/max-drawdown?account=${amc.account_id}`, { key: investor });
    expect(outside.status).toBe(404);
    expect(outside.body).toEqual({ message: `Account not found: ${amc.account_id}` });
  });

  it('answers losses, MAE/MFE, NAV history and alerts', async () => {
    const losses = await http<{ data: { pnl_24_hours: number; pnl_7_days: number }[] }>(server, 'GET', '/api/brokers/accounts/historical-losses', { key: investor });
    expect(losses.status).toBe(200);
    expect(losses.body.data.length).toBe((await accounts(investor)).length);

    const mae = await http<{ count: number; stats: { median_mae: number; median_mfe: number } }>(server, 'GET', '/api/stats/mae_mfe?symbol=EURUSD', { key: investor });
    expect(mae.body.count).toBeGreaterThan(10);
    expect(mae.body.stats.median_mae).toBeGreaterThan(0);
    expect((await http(server, 'GET', '/api/stats/mae_mfe?symbol=XXXYYY', { key: admin })).status).toBe(404);
    expect((await http(server, 'GET', '/api/stats/mae_mfe', { key: admin })).status).toBe(400);

    const nav = await http<{ data: { date_id: string; date_day: number; teiko_category: string }[]; available_dates: Record<string, number[]> }>(
      server, 'GET', '/api/brokers/accounts/historical_infos', { key: investor },
    );
    const months = Object.keys(nav.body.available_dates);
    expect(months.length).toBeGreaterThanOrEqual(3);
    expect(months.every((m) => /^(1[0-2]|[1-9])\.\d{4}$/.test(m))).toBe(true);
    expect(nav.body.data.every((r) => r.teiko_category === 'global forex')).toBe(true);
    const older = months.at(-1)!;
    const other = await http<{ data: { date_id: string; date_day: number }[] }>(server, 'GET', `/api/brokers/accounts/historical_infos?date_id=${older}`, { key: investor });
    expect(other.body.data.length).toBeGreaterThan(0);
    expect(other.body.data.every((r) => r.date_id === older && nav.body.available_dates[older]!.includes(r.date_day))).toBe(true);
    expect((await http(server, 'GET', '/api/brokers/accounts/historical_infos?date_id=13.2026', { key: investor })).status).toBe(400);

    const alerts = await http<{ alerts: { datetime: number; type: string }[] }>(server, 'GET', '/api/alerts/infos', { key: investor });
    const times = alerts.body.alerts.map((a) => a.datetime);
    expect(times).toEqual([...times].sort((a, b) => b - a));
    expect(alerts.body.alerts.some((a) => a.type === 'bridge')).toBe(true);
  });

  it('serves rebates by account or broker to read_rebate users within their portfolios', async () => {
    expect((await http(server, 'GET', '/api/stats/rebates?portfolio=Global%20FX', { key: investor })).status).toBe(403);
    expect((await http(server, 'GET', '/api/stats/rebates?portfolio=AMC', { key: manager })).status).toBe(403);
    expect((await http(server, 'GET', '/api/stats/rebates', { key: manager })).status).toBe(400);
    expect((await http(server, 'GET', '/api/stats/rebates?portfolio=All&group_by=desk', { key: manager })).status).toBe(400);
    const byAccount = await http<{ data: { account: string; month: string; total_rebate: number; portfolio_category: string }[] }>(
      server, 'GET', '/api/stats/rebates?portfolio=All&group_by=account', { key: manager },
    );
    expect(byAccount.body.data.length).toBeGreaterThan(0);
    expect(new Set(byAccount.body.data.map((r) => r.portfolio_category))).toEqual(new Set(['Global FX', 'Global Equity', 'SMA']));
    const byBroker = await http<{ data: { account: string; broker_name: string; currency: string; month: string; total_rebate: number }[] }>(
      server, 'GET', '/api/stats/rebates?portfolio=All&group_by=broker', { key: manager },
    );
    // Broker rows are the sums of the account rows of that broker, currency and month.
    const total = (rows: { total_rebate: number }[]) => rows.reduce((s, r) => s + r.total_rebate, 0);
    expect(total(byBroker.body.data)).toBeCloseTo(total(byAccount.body.data), 2);
    expect(byBroker.body.data.every((r) => r.account === r.broker_name)).toBe(true);
  });

  it('refuses every write to users without write, and validates copy rules', async () => {
    const rules = await http<{ copy_rules: { master_id: string; market_type: string; allowed_pairs: string[] }[] }>(server, 'GET', '/api/copy-rules/infos', { key: investor });
    expect(rules.body.copy_rules.length).toBe(1);
    const gfx = rules.body.copy_rules[0]!;
    for (const [path, body] of [
      ['/api/copy-rules/allowed-pairs', { master_id: gfx.master_id, new_allowed_pairs: ['EURUSD'] }],
      ['/api/positions/set-tp-sl-by-symbol', { category: 'Forex', symbol: 'EURUSD', direction: 'long', currency: 'USD', take_profit: 1.2, stop_loss: 1 }],
      ['/api/positions/close-by-symbol', { category: 'Forex', symbol: 'EURUSD', direction: 'long', currency: 'USD' }],
      ['/api/bridge/stop', undefined],
    ] as const) {
      expect((await http(server, 'POST', path, { key: investor, body })).status).toBe(403);
      expect((await http(server, 'POST', path, { key: manager, body })).status).toBe(403);
      expect((await http(server, 'POST', path, { body })).status).toBe(401);
    }
    const bad = await http<{ message: string }>(server, 'POST', '/api/copy-rules/allowed-pairs', { key: admin, body: { master_id: gfx.master_id, new_allowed_pairs: ['EURUSD', 'BTCUSD'] } });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toContain('BTCUSD');
    expect((await http(server, 'POST', '/api/copy-rules/allowed-pairs', { key: admin, body: { master_id: 'nope', new_allowed_pairs: [] } })).status).toBe(404);
    const ok = await http<{ copy_rule: { allowed_pairs: string[] } }>(server, 'POST', '/api/copy-rules/allowed-pairs', {
      key: admin,
      body: { master_id: gfx.master_id, new_allowed_pairs: ['USDJPY', 'EURUSD', 'EURUSD'] },
    });
    expect(ok.status).toBe(200);
    expect(ok.body.copy_rule.allowed_pairs).toEqual(['EURUSD', 'USDJPY']);
    const after = await http<{ copy_rules: { allowed_pairs: string[] }[] }>(server, 'GET', '/api/copy-rules/infos', { key: investor });
    expect(after.body.copy_rules[0]!.allowed_pairs).toEqual(['EURUSD', 'USDJPY']);
    const audit = await server.app.db.query<{ n: number }>("SELECT count(*)::int AS n FROM audit_log WHERE action = 'copy-rules.allowed-pairs'");
    expect(audit[0]!.n).toBe(1);
  });

  it('copies a master trade only while the bridge is on', async () => {
    const market = simulatorOf(server.app);
    const master = [...market.snapshot().accounts.values()].find((a) => a.account_name === 'AMC FX Master')!;
    const followers = [...market.snapshot().accounts.values()].filter((a) => a.master_id === master.id);
    expect(followers.length).toBeGreaterThan(1);
    const relations = await activeRelations(server.app.db);
    const ratioOf = (id: number) => relations.find((r) => r.followerId === id)!.terms.sizing as { mode: 'ratio'; ratio: number };
    const copiesOf = (id: number) => market.snapshot().positions.filter((p) => p.master_position_id === id);

    expect((await http(server, 'POST', '/api/bridge/stop', { key: admin })).status).toBe(200);
    const whileOff = await market.openMasterTrade(master.id, 'EURUSD', 'Buy', 1);
    expect(copiesOf(whileOff.id)).toHaveLength(0);

    expect((await http(server, 'POST', '/api/bridge/start', { key: admin })).status).toBe(200);
    const whileOn = await market.openMasterTrade(master.id, 'EURUSD', 'Sell', 2);
    const copies = copiesOf(whileOn.id);
    expect(copies).toHaveLength(followers.length);
    // Each follower copies with its own size, at its own broker's price and speed.
    for (const c of copies) {
      const f = followers.find((x) => x.id === c.account_id)!;
      expect(c.quantity).toBeCloseTo(Math.max(0.01, Number((2 * ratioOf(f.id).ratio).toFixed(2))), 2);
    }
    expect(new Set(copies.map((c) => c.price_open)).size).toBeGreaterThan(1);
    // A pair outside the copy rules stays with the master.
    const notAllowed = await market.openMasterTrade(master.id, 'AUDCAD', 'Buy', 1);
    expect(copiesOf(notAllowed.id)).toHaveLength(0);
    const alerts = await http<{ alerts: { type: string; message: string }[] }>(server, 'GET', '/api/alerts/infos', { key: investor });
    expect(alerts.body.alerts[0]!.type).toBe('bridge');
    expect(alerts.body.alerts[0]!.message).toMatch(/started/);
  });

  it('pushes snapshots whose prices move, and shows a TP/SL edit and a close in the next one', async () => {
    const key = admin;
    const market = simulatorOf(server.app);
    const live = await connect(server, '/ws/brokers/live-positions-aggregate', { token: await ticket(server, key), portfolio: 'AMC' });
    const first = (live.messages[0] ?? (await live.next())) as Snapshot;
    expect(first.type).toBe('snapshot');
    const row = first.positionsAggregate.find((p) => p.u_symbol === 'EURUSD' && p.type === 'Sell')!;
    expect(row).toBeDefined();
    expect(row.legs).toBeGreaterThan(1);
    expect(row.account_name).toMatch(/accounts$/);

    const eurusdShort = (m: unknown) => (m as Snapshot).positionsAggregate.find((p) => p.u_symbol === 'EURUSD' && p.type === 'Sell');
    let mark = live.messages.length;
    for (let i = 0; i < 3; i++) await market.tick();
    let later = (await live.until((m) => eurusdShort(m)?.price_current !== row.price_current, mark)) as Snapshot;
    expect(eurusdShort(later)!.price_current).not.toBe(row.price_current);
    const text = JSON.stringify(later);
    expect(text).not.toMatch(/NaN|Infinity/);

    mark = live.messages.length;
    const edit = await http<{ message: string }>(server, 'POST', '/api/positions/set-tp-sl-by-symbol', {
      key,
      body: { category: 'Forex', symbol: 'EURUSD', direction: 'short', currency: 'USD', take_profit: 0.9, stop_loss: 1.5, portfolio: 'AMC' },
    });
    expect(edit.status).toBe(200);
    expect(edit.body.message).toMatch(/set on \d+ position/);
    // The snapshot showing the edit may come before the edit's answer: it is looked for among those since.
    later = (await live.until((m) => eurusdShort(m)?.tp === 0.9, mark)) as Snapshot;
    const edited = eurusdShort(later)!;
    expect(edited.tp).toBe(0.9);
    expect(edited.sl).toBe(1.5);

    const notNumeric = await http(server, 'POST', '/api/positions/set-tp-sl-by-symbol', {
      key,
      body: { category: 'Forex', symbol: 'EURUSD', direction: 'short', currency: 'USD', take_profit: 'abc', stop_loss: 1.5 },
    });
    expect(notNumeric.status).toBe(400);

    mark = live.messages.length;
    const dealsBefore = await server.app.db.query<{ n: number }>("SELECT count(*)::int AS n FROM deals WHERE symbol = 'EURUSD'");
    const close = await http<{ message: string }>(server, 'POST', '/api/positions/close-by-symbol', {
      key,
      headers: { 'idempotency-key': 'close-eurusd-short' },
      body: { category: 'Forex', symbol: 'EURUSD', direction: 'short', currency: 'USD', portfolio: 'AMC' },
    });
    expect(close.status).toBe(200);
    later = (await live.until((m) => eurusdShort(m) === undefined, mark)) as Snapshot;
    expect(eurusdShort(later)).toBeUndefined();
    const dealsAfter = await server.app.db.query<{ n: number }>("SELECT count(*)::int AS n FROM deals WHERE symbol = 'EURUSD'");
    expect(dealsAfter[0]!.n).toBe(dealsBefore[0]!.n + edited.legs);
    // A retry with the same Idempotency-Key gets the first answer and closes nothing more.
    const retry = await http<{ message: string }>(server, 'POST', '/api/positions/close-by-symbol', {
      key,
      headers: { 'idempotency-key': 'close-eurusd-short' },
      body: { category: 'Forex', symbol: 'EURUSD', direction: 'short', currency: 'USD', portfolio: 'AMC' },
    });
    expect(retry.status).toBe(200);
    expect(retry.body.message).toBe(close.body.message);
    const again = await http<{ message: string }>(server, 'POST', '/api/positions/close-by-symbol', {
      key,
      body: { category: 'Forex', symbol: 'EURUSD', direction: 'short', currency: 'USD', portfolio: 'AMC' },
    });
    expect(again.status).toBe(404);
    expect(again.body.message).toBe('Position to close not found.');
    live.socket.close();
  });

  it('authenticates sockets with single-use tickets and keeps portfolios apart', async () => {
    const noToken = await connect(server, '/ws/brokers/live-positions-aggregate', {});
    expect(await noToken.closed).toEqual({ code: 4401, reason: 'No authentication token found' });

    const t = await ticket(server, investor);
    const ok = await connect(server, '/ws/brokers/live-positions-aggregate', { token: t, portfolio: 'Global FX' });
    const snap = (ok.messages[0] ?? (await ok.next())) as Snapshot;
    expect(snap.positionsAggregate.every((p) => p.category === 'Forex')).toBe(true);
    const reused = await connect(server, '/ws/brokers/live-positions-aggregate', { token: t, portfolio: 'Global FX' });
    expect((await reused.closed).code).toBe(4401);

    const forbidden = await connect(server, '/ws/brokers/live-positions-aggregate', { token: await ticket(server, investor), portfolio: 'SMA' });
    expect(await forbidden.closed).toMatchObject({ code: 4403 });

    const acct = (await accounts(investor))[0]!;
    const byAccount = await connect(server, '/ws/brokers/live-positions-aggregate-by', {
      token: await ticket(server, investor), portfolio: 'Global FX', aggregate_by: 'account', account: acct.account_id,
    });
    const accountSnap = (byAccount.messages[0] ?? (await byAccount.next())) as Snapshot;
    expect(accountSnap.positionsAggregate.every((p) => p.account_name === acct.account_name && p.legs >= 1)).toBe(true);
    const otherAccount = (await accounts(admin)).find((a) => a.teiko_category === 'AMC')!;
    const wrongAccount = await connect(server, '/ws/brokers/live-positions-aggregate-by', {
      token: await ticket(server, investor), portfolio: 'Global FX', aggregate_by: 'account', account: otherAccount.account_id,
    });
    // An account outside the portfolio is closed exactly like an unknown one.
    expect(await wrongAccount.closed).toEqual({ code: 4404, reason: `Account not found: ${otherAccount.account_id}` });
    const byBroker = await connect(server, '/ws/brokers/live-positions-aggregate-by', {
      token: await ticket(server, admin), portfolio: 'Consolidated Portfolio', aggregate_by: 'broker',
    });
    const brokerSnap = (byBroker.messages[0] ?? (await byBroker.next())) as Snapshot;
    expect(brokerSnap.positionsAggregate.every((p) => !/brokers$/.test(p.broker_name))).toBe(true);

    // Garbage closes that socket only; the others keep their feed.
    ok.socket.send('not json at all');
    expect((await ok.closed).code).toBe(4400);
    await simulatorOf(server.app).tick();
    await expect(byAccount.next()).resolves.toBeDefined();
    byAccount.socket.close();
    byBroker.socket.close();
  });

  it('computes a feed once per tick for all the sockets that share it', async () => {
    const clients = await Promise.all(
      Array.from({ length: 5 }, async () =>
        connect(server, '/ws/brokers/live-positions-aggregate', { token: await ticket(server, admin), portfolio: 'SMA' }),
      ),
    );
    // Each socket's first snapshot is computed once it has connected: count from after they came.
    await Promise.all(clients.map(async (c) => c.messages[0] ?? (await c.next())));
    const before = server.app.hub.computed;
    const received = clients.map((c) => c.next());
    await simulatorOf(server.app).tick();
    const messages = (await Promise.all(received)) as Snapshot[];
    // One computation for the five sockets (a busy machine may let the server's own once-a-second work
    // bump the feed in the same window: never once per socket).
    expect(server.app.hub.computed - before).toBeGreaterThanOrEqual(1);
    expect(server.app.hub.computed - before).toBeLessThan(clients.length);
    expect(new Set(messages.map((m) => JSON.stringify(m))).size).toBe(1);
    for (const c of clients) c.socket.close();
  });
});
