/**
 * Copy guards end to end (docs/copying.md, 'Guards'): a write user sets a trailing guard on a follower
 * (warn 15 %, close-only 20 %, close-all 25 %) through the API; as the follower's equity falls it walks
 * warn → close-only → close-all, each level an alert (pushed: kind 'guard') and an audited risk event;
 * in close-only the master's close is still mirrored and a new master trade is a missed copy
 * (guard_close_only); close-all closes every copy and disables copying; nothing resumes until a write
 * user re-arms it.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GuardResponse, GuardsResponse } from '#shared/contract/guards.ts';
import { pushKindOf } from '#shared/domain/push-alerts.ts';
import { insertBroker } from '#server/db/accounts-repo.ts';
import { insertRelation } from '#server/db/copy-relations-repo.ts';
import { insertRule } from '#server/db/copy-rules-repo.ts';
import { insertRegisteredAccount } from '#server/db/registry-repo.ts';
import { BACKENDS, http, login, startServer, type TestServer } from './helpers/server.ts';
import { deal, position, Terminal } from './helpers/terminal.ts';

const SERVER = 'Guard-Live';

describe.each(BACKENDS)('copy guards (%s)', (backend) => {
  let server: TestServer;
  let admin = '';
  let investor = '';
  let now = Date.parse('2026-11-24T10:00:00Z');
  const master = new Terminal(() => server, '73000001', SERVER);
  const follower = new Terminal(() => server, '73000002', SERVER);
  const t = () => Math.floor(now / 1000);
  let guardId = 0;
  let followerId = 0;
  let ticket = 900;

  const guards = async () => (await http<GuardsResponse>(server, 'GET', '/api/copy/guards?account=guard-73000002', { key: admin })).body.data;
  const alerts = async () =>
    (await server.app.db.query<{ type: string; message: string }>("SELECT type, message FROM alerts WHERE type = 'guard' ORDER BY id")).map((r) => r.message);
  const missed = async () =>
    (await server.app.db.query<{ reason: string; symbol: string }>("SELECT reason, symbol FROM copy_events WHERE kind = 'missed' ORDER BY id")).map((r) => [r.reason, r.symbol]);
  /** The follower reports this equity a little later on the market's clock (the guards measure each snapshot). */
  const equity = async (value: number) => {
    now += 2_000;
    follower.state = { ...follower.state!, equity: value };
    await follower.report();
  };
  const masterOpens = async (identifier: number, symbol: string) => {
    now += 2_000;
    master.open = [...master.open, position(identifier, symbol, 'buy', 0.2, 1.1, t())];
    await master.report([deal(identifier, 'in', 'buy', symbol, 0.2, 1.1, t())]);
  };

  beforeAll(async () => {
    server = await startServer(backend, { demo: true, market: { now: () => now } });
    admin = await login(server, 'admin');
    investor = await login(server, 'investor');
    const db = server.app.db;
    const broker = await insertBroker(db, { broker_name: 'GuardBroker', img_path: '', spread_pips: 0, latency_ms: 0, commission_per_lot: 0, rebate_per_lot: 0 });
    const account = (term: Terminal, name: string) =>
      insertRegisteredAccount(db, { source: 'agent', account_id: `guard-${term.login}`, account: term.login, account_name: name, broker_id: broker, server: SERVER, server_name: SERVER, teiko_category: 'SMA', currency: 'USD', leverage: 100 });
    const masterId = await account(master, 'Guard Master');
    followerId = await account(follower, 'Guard Follower');
    await master.register(masterId);
    await follower.register(followerId);
    await insertRelation(db, { masterId, followerId, terms: { sizing: { mode: 'ratio', ratio: 1 }, maxLot: null }, equityStop: null, startedAt: new Date(now - 3_600_000) });
    await insertRule(db, { master_id: masterId, market_type: 'Forex', allowed_pairs: ['EURUSD', 'GBPUSD', 'AUDUSD', 'NZDUSD', 'USDCAD'] });
    await server.app.copier.reloadRules();
    master.state = { balance: 50_000, equity: 50_000, margin: 0, free_margin: 50_000, leverage: 100, currency: 'USD' };
    follower.state = { balance: 10_000, equity: 10_000, margin: 0, free_margin: 10_000, leverage: 100, currency: 'USD' };
    for (const term of [master, follower]) await term.report();
  });
  afterAll(async () => server?.close());

  it('refuses a guard to a user without write (403), a bad body (400), and an account outside the caller\'s portfolios (404)', async () => {
    const body = { scope: 'follower', target: 'guard-73000002', basis: 'trailing_from_peak', warn: 15, close_only: 20, close_all: 25 };
    expect((await http(server, 'PUT', '/api/copy/guards', { key: investor, body })).status).toBe(403);
    expect((await http(server, 'PUT', '/api/copy/guards', { key: admin, body: { ...body, close_only: 10 } })).status).toBe(400);
    expect((await http(server, 'PUT', '/api/copy/guards', { key: admin, body: { ...body, basis: 'period_loss' } })).status).toBe(400);
    expect((await http(server, 'PUT', '/api/copy/guards', { key: admin, body: { ...body, target: 'no-such-account' } })).status).toBe(404);
    expect((await http(server, 'GET', '/api/copy/guards?account=guard-73000002', { key: investor })).status).toBe(404);
  });

  it('walks warn → close-only → close-all as the follower\'s equity falls from its peak, mirroring the master\'s close while close-only', async () => {
    const set = await http<GuardResponse>(server, 'PUT', '/api/copy/guards', {
      key: admin,
      headers: { 'idempotency-key': randomUUID() },
      body: { scope: 'follower', target: 'guard-73000002', basis: 'trailing_from_peak', warn: 15, close_only: 20, close_all: 25 },
    });
    expect(set.status, JSON.stringify(set.body)).toBe(200);
    guardId = set.body.data.id;
    await equity(10_000);
    await equity(12_000);
    // Two master trades are copied while armed.
    await masterOpens(++ticket, 'EURUSD');
    await masterOpens(++ticket, 'GBPUSD');
    const opens = (await follower.collect(2)).filter((c) => c.kind === 'open');
    expect(opens.map((c) => c.payload.symbol).sort()).toEqual(['EURUSD', 'GBPUSD']);
    for (const [i, o] of opens.entries()) await follower.answer(o.id, 'done', 5001 + i);
    follower.open = opens.map((o, i) => position(5001 + i, o.payload.symbol!, 'buy', 0.2, 1.1, t(), o.payload.master_position_id));
    await follower.report();
    const eurCopy = follower.open.find((p) => p.symbol === 'EURUSD')!.identifier;
    const gbpCopy = follower.open.find((p) => p.symbol === 'GBPUSD')!.identifier;
    const eurMaster = master.open.find((p) => p.symbol === 'EURUSD')!.identifier;

    // 12,000 → 10,200: 15 %, warned (copying goes on).
    await equity(10_200);
    await expect.poll(async () => (await guards())[0]?.state, { timeout: 5_000 }).toBe('warned');
    expect((await alerts()).at(-1)).toMatch(/follower fall from peak guard of Guard Follower reached its warning level \(15\.00 %\)/);

    // 9,600: 20 %, close-only: a new master trade is not copied; the master's close of EURUSD still is.
    await equity(9_600);
    await expect.poll(async () => (await guards())[0]?.state, { timeout: 5_000 }).toBe('close_only');
    await masterOpens(++ticket, 'AUDUSD');
    await expect.poll(missed, { timeout: 5_000 }).toContainEqual(['guard_close_only', 'AUDUSD']);
    expect((await follower.poll(0)).filter((c) => c.kind === 'open')).toEqual([]);
    now += 2_000;
    master.open = master.open.filter((p) => p.symbol !== 'EURUSD');
    await master.report([deal(eurMaster, 'out', 'sell', 'EURUSD', 0.2, 1.09, t(), -200)]);
    const closes = (await follower.collect(1, 'close')).filter((c) => c.kind === 'close');
    expect(closes.map((c) => c.payload.identifier)).toEqual([eurCopy]);
    await follower.answer(closes[0]!.id);
    follower.open = follower.open.filter((p) => p.identifier !== eurCopy);
    await follower.report([deal(eurCopy, 'out', 'sell', 'EURUSD', 0.2, 1.09, t(), -200)]);

    // 9,000: 25 %, close-all: the GBPUSD copy closed, copying disabled; a new master trade is missed as closed.
    await equity(9_000);
    await expect.poll(async () => (await guards())[0]?.state, { timeout: 5_000 }).toBe('closed');
    const closedAll = (await follower.collect(1, 'close')).filter((c) => c.kind === 'close');
    expect(closedAll.map((c) => c.payload.identifier)).toEqual([gbpCopy]);
    await masterOpens(++ticket, 'NZDUSD');
    await expect.poll(missed, { timeout: 5_000 }).toContainEqual(['guard_closed', 'NZDUSD']);
    expect((await alerts()).slice(-2).join('\n')).toMatch(/close-only level[\s\S]*close-all level/);
    // Each level an audited risk event; every one of these alerts is pushed (kind 'guard').
    const events = await server.app.db.query<{ kind: string }>('SELECT kind FROM risk_events WHERE guard_id = $1 ORDER BY id', [guardId]);
    expect(events.map((e) => e.kind)).toEqual(['warn', 'close_only', 'close_all', 'close']);
    const audited = await server.app.db.query<{ action: string }>("SELECT action FROM audit_log WHERE action LIKE 'risk.guard-%' ORDER BY id");
    expect(audited.map((a) => a.action)).toEqual(['risk.guard-set', 'risk.guard-warn', 'risk.guard-close_only', 'risk.guard-close_all', 'risk.guard-close']);
    expect(pushKindOf('guard')).toBe('guard');
  });

  it('does not resume by itself when equity recovers; a write user re-arms it and copying resumes', async () => {
    await equity(13_000);
    await masterOpens(++ticket, 'NZDUSD');
    expect((await guards())[0]?.state).toBe('closed');
    await expect.poll(async () => (await missed()).filter(([, s]) => s === 'NZDUSD'), { timeout: 5_000 }).toHaveLength(2);
    expect((await http(server, 'POST', `/api/copy/guards/${guardId}/rearm`, { key: investor, body: { fresh_mark: true } })).status).toBe(403);
    const rearmed = await http<GuardResponse>(server, 'POST', `/api/copy/guards/${guardId}/rearm`, {
      key: admin, headers: { 'idempotency-key': randomUUID() }, body: { fresh_mark: true },
    });
    expect(rearmed.status, JSON.stringify(rearmed.body)).toBe(200);
    expect(rearmed.body.data).toMatchObject({ state: 'armed', mark: null, fired_at: null });
    expect((await alerts()).at(-1)).toMatch(/re-armed, starting afresh from today's equity/);
    await masterOpens(++ticket, 'USDCAD');
    expect((await follower.collect(1)).filter((c) => c.kind === 'open').map((c) => c.payload.symbol)).toEqual(['USDCAD']);
  });

  it("lists every level, close and re-arm in the follower's investor statement, JSON and CSV alike", async () => {
    const day = new Date(now).toISOString().slice(0, 10);
    const q = `/api/statements?account=guard-${follower.login}&from=${day}&to=${day}`;
    const json = await http<{ data: { risk_events: { kind: string; message: string }[] } }>(server, 'GET', `${q}&format=json`, { key: admin });
    expect(json.status).toBe(200);
    expect(json.body.data.risk_events.map((e) => e.kind)).toEqual(['warn', 'close_only', 'close_all', 'close', 'rearm']);
    expect(json.body.data.risk_events[3]!.message).toMatch(/^Closed by its guard: Buy 0,20 GBPUSD of Guard Follower at about \d+\.\d{5} \(-?[\d\u202f\u00a0 ]+,\d{2}[\u00a0 ][^ ]+ floating\)\.$/);
    const csv = await http<string>(server, 'GET', `${q}&format=csv`, { key: admin });
    expect(String(csv.body)).toContain('Guard event (UTC),Kind,Event');
    expect(String(csv.body).match(/,close_all,/g)).toHaveLength(1);
  });

  it("keeps an equity-floor guard's levels when its relation is edited: the equity stop is only its close-only level", async () => {
    const relationId = (await server.app.db.query<{ id: number }>('SELECT id FROM copy_relations WHERE follower_id = $1 AND ended_at IS NULL', [followerId]))[0]!.id;
    const floor = async () => (await guards()).find((g) => g.scope === 'relation' && g.basis === 'equity_floor');
    const set = await http(server, 'PUT', '/api/copy/guards', {
      key: admin, headers: { 'idempotency-key': randomUUID() },
      body: { scope: 'relation', target: relationId, basis: 'equity_floor', warn: 9_000, close_only: 8_000, close_all: 7_000 },
    });
    expect(set.status, JSON.stringify(set.body)).toBe(200);
    const edit = (equityStop: number | null) =>
      http<{ message: string }>(server, 'PUT', `/api/copy/relations/${relationId}`, {
        key: admin, headers: { 'idempotency-key': randomUUID() }, body: { sizing: { mode: 'ratio', ratio: 0.5 }, max_lot: null, equity_stop: equityStop },
      });
    // The sizing changed, the stop as it was: the guard's warning and close-all levels stay.
    expect((await edit(8_000)).status).toBe(200);
    expect(await floor()).toMatchObject({ warn: 9_000, close_only: 8_000, close_all: 7_000 });
    // The stop removed: the guard stays with its other levels.
    expect((await edit(null)).status).toBe(200);
    expect(await floor()).toMatchObject({ warn: 9_000, close_only: null, close_all: 7_000 });
    // A stop above the warning level is refused, and nothing changes.
    const refused = await edit(9_500);
    expect(refused.status).toBe(400);
    expect(refused.body.message).toMatch(/must be below its warning level 9000 and above its close-all level 7000/);
    expect(await floor()).toMatchObject({ warn: 9_000, close_only: null, close_all: 7_000 });
  });
});
