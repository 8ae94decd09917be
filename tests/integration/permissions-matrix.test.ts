import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AuditResponse } from '#shared/contract/audit.ts';
import { OPERATOR } from '#server/admin/operator.ts';
import { hashPassword } from '#server/auth/password.ts';
import { createRelation, endRelation, relationOfFollower } from '#server/copy/relations.ts';
import { audit } from '#server/db/audit-repo.ts';
import { rulesOfMaster, saveRule } from '#server/db/copy-rules-repo.ts';
import { auditOperator } from '#server/db/registry-repo.ts';
import { BACKENDS, http, login, simulatorOf, startServer, type TestServer } from './helpers/server.ts';
import { startPushService, type PushServiceStandIn } from './helpers/push-service.ts';
import { connect, ticket } from './helpers/ws.ts';

type User = 'admin' | 'manager' | 'investor';

/** Who may read what (docs/product.md#roles, docs/architecture.md demo users): 200 where allowed, 403 where not, 401 without a session. */
const READS: [string, Record<User, number>][] = [
  ['/api/brokers/accounts/info', { admin: 200, manager: 200, investor: 200 }],
  ['/api/brokers/accounts/info?portfolio=Global%20FX', { admin: 200, manager: 200, investor: 200 }],
  ['/api/brokers/accounts/info?portfolio=SMA', { admin: 200, manager: 200, investor: 403 }],
  ['/api/brokers/accounts/info?portfolio=AMC', { admin: 200, manager: 403, investor: 403 }],
  ['/api/brokers/accounts/info?only_broker_name=true', { admin: 200, manager: 200, investor: 200 }],
  ['/api/brokers/accounts/historical-losses', { admin: 200, manager: 200, investor: 200 }],
  ['/api/copy-rules/infos', { admin: 200, manager: 200, investor: 200 }],
  ['/api/stats/mae_mfe?symbol=USDJPY', { admin: 200, manager: 200, investor: 200 }],
  ['/api/brokers/accounts/historical_infos', { admin: 200, manager: 200, investor: 200 }],
  ['/api/alerts/infos', { admin: 200, manager: 200, investor: 200 }],
  ['/api/bridge/status', { admin: 200, manager: 200, investor: 200 }],
  ['/api/stats/rebates?portfolio=All', { admin: 200, manager: 200, investor: 403 }],
  ['/api/stats/rebates?portfolio=SMA&group_by=broker', { admin: 200, manager: 200, investor: 403 }],
  ['/api/stats/rebates?portfolio=Consolidated%20Portfolio', { admin: 200, manager: 403, investor: 403 }],
];

describe.each(BACKENDS)('permissions of every read and socket, per demo user (%s)', (backend) => {
  let server: TestServer;
  let pushService: PushServiceStandIn;
  const keys = {} as Record<User, string>;
  beforeAll(async () => {
    pushService = await startPushService();
    server = await startServer(backend, { push: { serviceOrigins: [pushService.origin] } });
    for (const u of ['admin', 'manager', 'investor'] as const) keys[u] = await login(server, u);
  });
  afterAll(async () => {
    await server?.close();
    await pushService?.close();
  });

  it.each(READS)('GET %s', async (path, expected) => {
    expect((await http(server, 'GET', path)).status).toBe(401);
    for (const user of ['admin', 'manager', 'investor'] as const) {
      const res = await http<{ message?: string }>(server, 'GET', path, { key: keys[user] });
      expect({ user, status: res.status }).toEqual({ user, status: expected[user] });
      if (res.status === 403) expect(res.body.message).toMatch(/^Forbidden: /);
    }
  });

  it('accounts of another portfolio are answered like unknown ones by account-level reads', async () => {
    const all = await http<{ data: { account_id: string; teiko_category: string }[] }>(server, 'GET', '/api/brokers/accounts/info', { key: keys.admin });
    const amc = all.body.data.find((a) => a.teiko_category === 'AMC')!.account_id;
    for (const path of [
      `/api/brokers/accounts/max-drawdown?account=${amc}`,
      `/api/brokers/historical-deals?account=${amc}`,
      `/api/stats/analysis?account=${amc}`,
      `/api/fees/terms?account=${amc}`,
      `/api/fees?account=${amc}&period=2026-10`,
      `/api/statements?account=${amc}&period=2026-10&format=json`,
      `/api/statements?account=${amc}&period=2026-10&format=pdf`,
    ]) {
      expect((await http(server, 'GET', path, { key: keys.admin })).status).toBe(200);
      const unknown = await http(server, 'GET', path.replace(amc, 'no-such-account'), { key: keys.manager });
      expect(unknown.status).toBe(404);
      for (const who of ['manager', 'investor'] as const) {
        const res = await http(server, 'GET', path, { key: keys[who] });
        expect({ status: res.status, body: res.body }).toEqual({ status: 404, body: { message: `Account not found: ${amc}` } });
      }
    }
  });

  it('refuses every write to a caller without the permission with 403 before it reads the body, whatever the body', async () => {
    const writes = server.app.routeList.filter(
      (r) => r.method !== 'GET' && r.method !== 'HEAD' && r.url.startsWith('/api/') && !['/api/login', '/api/logout', '/api/account/password', '/api/ws-ticket'].includes(r.url) && !r.url.startsWith('/api/ingest/') && !r.url.startsWith('/api/push/'),
    );
    // Every write route of the API but signing in and out, one's own password, one's own devices' alerts (docs/push.md) and the agents'.
    expect(writes.length).toBeGreaterThanOrEqual(10);
    for (const route of writes) {
      const url = route.url.replace(':id', '1');
      for (const body of [{}, { nonsense: true }, undefined]) {
        const res = await http<{ message: string }>(server, route.method, url, { key: keys.investor, ...(body === undefined ? {} : { body }) });
        expect({ route: `${route.method} ${url}`, status: res.status }).toEqual({ route: `${route.method} ${url}`, status: 403 });
        expect(res.body.message).toMatch(/^Forbidden: /);
      }
    }
  });

  it.each([
    ['Consolidated Portfolio', { admin: 'open', manager: 4403, investor: 4403 }],
    ['Global FX', { admin: 'open', manager: 'open', investor: 'open' }],
    ['AMC', { admin: 'open', manager: 4403, investor: 4403 }],
  ] as const)('socket on %s', async (portfolio, expected) => {
    for (const user of ['admin', 'manager', 'investor'] as const) {
      for (const [path, extra] of [
        ['/ws/brokers/live-positions-aggregate', {}],
        ['/ws/brokers/live-positions-aggregate-by', { aggregate_by: 'broker' }],
      ] as const) {
        const client = await connect(server, path, { token: await ticket(server, keys[user]), portfolio, ...extra });
        if (expected[user] === 'open') {
          const first = (client.messages[0] ?? (await client.next())) as { positionsAggregate: unknown[] };
          expect(Array.isArray(first.positionsAggregate)).toBe(true);
          client.socket.close();
        } else {
          expect((await client.closed).code).toBe(expected[user]);
        }
      }
    }
  });

  /** A user of these portfolios with these permissions, signed in: their id and key. */
  async function signedIn(username: string, permissions: string[], portfolios: string[]): Promise<{ id: number; key: string }> {
    const password = `${username}-password-1`;
    await server.app.authStore.upsertUser({ username, password_hash: await hashPassword(password), status: 'active', permissions, portfolio_auth: portfolios });
    const [row] = await server.app.db.query<{ id: number }>('SELECT id FROM users WHERE username = $1', [username]);
    const res = await http<{ data: { api_key: string } }>(server, 'POST', '/api/login', { body: { username, password } });
    return { id: row!.id, key: res.body.data.api_key };
  }
  type Listed = { account_id: string; account_name: string; teiko_category: string };
  const accountsOf = async () => (await http<{ data: Listed[] }>(server, 'GET', '/api/brokers/accounts/info', { key: keys.admin })).body.data;
  const auditOf = async (key: string, query = 'page_size=200') => http<AuditResponse>(server, 'GET', `/api/audit?${query}`, { key });

  it('shows a write user only the audit rows about their portfolios and their own; an administrator every row', async () => {
    const accounts = await accountsOf();
    const amc = accounts.filter((a) => a.teiko_category === 'AMC');
    const others = accounts.filter((a) => a.teiko_category !== 'AMC');
    const amcMaster = amc.find((a) => a.account_name === 'AMC FX Master')!;
    const fxMaster = others.find((a) => a.account_name === 'GFX Alpha Master')!;
    const amcWriter = await signedIn('amc-writer', ['write'], ['AMC']);
    const fxWriter = await signedIn('fx-writer', ['write'], ['Global FX']);
    const terms = { period: 'monthly', performance: null, management: { annual_rate: 0.02 }, volume: null };

    // Changes by the administrator about both portfolios' accounts, and about portfolios.
    for (const m of [amcMaster, fxMaster]) {
      const pairs = await http(server, 'POST', '/api/copy-rules/allowed-pairs', { key: keys.admin, body: { master_id: m.account_id, new_allowed_pairs: ['EURUSD', 'GBPUSD', 'USDJPY'] } });
      expect(pairs.status).toBe(200);
      const fees = await http(server, 'PUT', '/api/fees/terms', { key: keys.admin, body: { account: m.account_id, effective_from: '2099-01-01', terms } });
      expect(fees.status, JSON.stringify(fees.body)).toBe(200);
    }
    for (const portfolio of ['AMC', 'SMA']) {
      expect((await http(server, 'PUT', '/api/risk/limits', { key: keys.admin, body: { portfolio, max_drawdown_pct: 20, min_margin_level_pct: 150 } })).status).toBe(200);
    }
    // Rows about users and agents, as the admin CLI and the sign-in store write them.
    await audit(server.app.db, amcWriter.id, 'users.create', { username: 'amc-writer', permissions: ['write'], portfolio_auth: ['AMC'], via: 'admin cli' });
    await audit(server.app.db, fxWriter.id, 'users.create', { username: 'fx-writer', permissions: ['write'], portfolio_auth: ['Global FX'], via: 'admin cli' });
    await audit(server.app.db, fxWriter.id, 'account.password', { sessions_ended: 0 });
    await auditOperator(server.app.db, 'agents.create', { agent: 'amc-terminal', accounts: [] });

    const seen = await auditOf(amcWriter.key);
    expect(seen.status).toBe(200);
    const rows = seen.body.data;
    expect(seen.body.total).toBe(rows.length);
    const about = (action: string, field: string, value: unknown) => rows.some((r) => r.action === action && r.details[field] === value);
    expect(about('copy-rules.allowed-pairs', 'master_id', amcMaster.account_id)).toBe(true);
    expect(about('fees.terms', 'account_id', amcMaster.account_id)).toBe(true);
    expect(about('risk.limits', 'portfolio', 'AMC')).toBe(true);
    // Its own row about no account, and no other user's, agent's or portfolio's.
    expect(about('users.create', 'username', 'amc-writer')).toBe(true);
    expect(rows.filter((r) => r.action.startsWith('users.') || r.action.startsWith('agents.') || r.action === 'account.password').map((r) => r.details.username)).toEqual(['amc-writer']);
    expect(about('risk.limits', 'portfolio', 'SMA')).toBe(false);
    // Not one account outside AMC named, by its id or its name.
    const text = JSON.stringify(rows);
    for (const o of others) {
      expect(text, o.account_name).not.toContain(`"${o.account_id}"`);
      expect(text, o.account_name).not.toContain(o.account_name);
    }
    // The count of a page past the end is of the same rows.
    expect((await auditOf(amcWriter.key, 'page=100000&page_size=1')).body).toMatchObject({ data: [], total: rows.length });

    // The writer of Global FX: its own password change, the FX rows, none of AMC's.
    const fx = (await auditOf(fxWriter.key)).body.data;
    expect(fx.some((r) => r.action === 'account.password' && r.username === 'fx-writer')).toBe(true);
    expect(fx.some((r) => r.action === 'fees.terms' && r.details.account_id === fxMaster.account_id)).toBe(true);
    expect(JSON.stringify(fx)).not.toContain(amcMaster.account_name);

    // An administrator (every portfolio) reads every row.
    const all = await auditOf(keys.admin);
    const [count] = await server.app.db.query<{ n: number }>('SELECT count(*)::int AS n FROM audit_log');
    expect(all.body.total).toBe(count!.n);
    expect(all.body.data.some((r) => r.action === 'agents.create')).toBe(true);
    expect(all.body.data.some((r) => r.action === 'fees.terms' && r.details.account_id === fxMaster.account_id)).toBe(true);
  });

  it("names a master outside the reader's portfolios 'a master outside your portfolios' in alerts and pushes (a relation across portfolios)", async () => {
    const db = server.app.db;
    const market = simulatorOf(server.app);
    const live = [...market.snapshot().accounts.values()];
    const master = live.find((a) => a.account_name === 'AMC FX Master')!;
    const follower = live.find((a) => a.account_name === 'GFX Follower 06')!;
    // The admin CLI may make a Global FX account follow AMC's master (the API refuses it to anyone who cannot see both).
    const before = await relationOfFollower(db, follower.id);
    if (before) await endRelation(db, OPERATOR, before.id, new Date());
    const relation = await createRelation(db, OPERATOR, { masterId: master.id, followerId: follower.id, terms: { sizing: { mode: 'ratio', ratio: 1 }, maxLot: null }, equityStop: null }, new Date());
    await server.app.copier.reloadRules();

    const phones = { investor: pushService.browser('matrix-investor'), admin: pushService.browser('matrix-admin') };
    for (const who of ['investor', 'admin'] as const) {
      expect((await http(server, 'POST', '/api/push/subscriptions', { key: keys[who], body: phones[who].subscription })).status).toBe(200);
    }

    // A copy the follower's broker refuses (a miss worth an alert: a pair outside the rule is only a
    // record now), on the Global FX follower of AMC's master.
    const [rule] = await rulesOfMaster(db, master.id);
    await saveRule(db, { master_id: master.id, market_type: 'Forex', allowed_pairs: [...(rule?.allowed_pairs ?? []), 'EURCAD'] });
    await server.app.copier.reloadRules();
    const open = market.open.bind(market);
    market.open = (order) => (order.accountId === follower.id ? Promise.reject(new Error('Not enough money [10019]')) : open(order));
    await market.openMasterTrade(master.id, 'EURCAD', 'Buy', 1);
    const copyAlerts = async (who: User) =>
      (await http<{ alerts: { type: string; message: string }[] }>(server, 'GET', '/api/alerts/infos', { key: keys[who] })).body.alerts
        .filter((a) => a.message.includes(follower.account_name))
        .map((a) => a.message);
    const missed = (of: string) => `Missed copy on ${follower.account_name}: Buy EURCAD of ${of} was not copied`;
    await expect.poll(async () => (await copyAlerts('admin')).some((m) => m.startsWith(missed('AMC FX Master'))), { timeout: 5_000 }).toBe(true);
    market.open = open;
    const toInvestor = await copyAlerts('investor');
    expect(toInvestor.some((m) => m.startsWith(missed('a master outside your portfolios')))).toBe(true);
    expect(JSON.stringify(toInvestor)).not.toContain('AMC FX Master');
    expect(JSON.stringify(await copyAlerts('manager'))).not.toContain('AMC FX Master');

    // A relation guard re-armed names the relation's master too.
    const guard = await http<{ data: { id: number } }>(server, 'PUT', '/api/copy/guards', {
      key: keys.admin, body: { scope: 'relation', target: relation.id, basis: 'loss_from_start', warn: 50, close_only: 60, close_all: 70 },
    });
    expect(guard.status, JSON.stringify(guard.body)).toBe(200);
    expect((await http(server, 'POST', `/api/copy/guards/${guard.body.data.id}/rearm`, { key: keys.admin, body: { fresh_mark: false } })).status).toBe(200);
    const rearmed = (of: string) => `The relation guard of ${follower.account_name} ← ${of} was re-armed, keeping its mark`;
    expect((await copyAlerts('admin')).some((m) => m.startsWith(rearmed('AMC FX Master')))).toBe(true);
    expect((await copyAlerts('investor')).some((m) => m.startsWith(rearmed('a master outside your portfolios')))).toBe(true);
    expect(JSON.stringify(await copyAlerts('investor'))).not.toContain('AMC FX Master');
    // Its event, a line of the follower's statement, does not name the master either (it is of another portfolio than the follower's).
    const [event] = await db.query<{ at: Date }>("SELECT at FROM risk_events WHERE kind = 'rearm' AND account_id = $1 ORDER BY id DESC LIMIT 1", [follower.id]);
    const period = event!.at.toISOString().slice(0, 7);
    const statement = await http(server, 'GET', `/api/statements?account=${follower.account_id}&period=${period}&format=json`, { key: keys.investor });
    expect(statement.status).toBe(200);
    expect(JSON.stringify(statement.body)).toContain(rearmed('a master outside your portfolios'));
    expect(JSON.stringify(statement.body)).not.toContain('AMC FX Master');

    // And on their phones, each as they may read it.
    const pushed = async (device: string) =>
      pushService.received.filter((r) => r.device === device).map((r) => (JSON.parse(r.text) as { body: string }).body).filter((b) => b.includes(follower.account_name));
    await expect
      .poll(async () => {
        await server.app.pushDispatcher.tick();
        return [(await pushed('matrix-investor')).length >= 2, (await pushed('matrix-admin')).length >= 2];
      }, { timeout: 10_000, interval: 50 })
      .toEqual([true, true]);
    const onInvestorPhone = await pushed('matrix-investor');
    expect(onInvestorPhone.some((b) => b.startsWith(missed('a master outside your portfolios')))).toBe(true);
    expect(onInvestorPhone.some((b) => b.startsWith(rearmed('a master outside your portfolios')))).toBe(true);
    expect(JSON.stringify(onInvestorPhone)).not.toContain('AMC FX Master');
    const onAdminPhone = await pushed('matrix-admin');
    expect(onAdminPhone.some((b) => b.startsWith(missed('AMC FX Master')))).toBe(true);
    expect(onAdminPhone.some((b) => b.startsWith(rearmed('AMC FX Master')))).toBe(true);
  });
});
