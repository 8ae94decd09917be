/**
 * Every copy that did not happen is an alert, pushed like any copy alert: one the follower's terminal
 * refuses (in its own words), one it answers as expired (its clock ahead of the server's, said so and
 * flagged on the agent's status), one no terminal took in time, one taken and never answered. The
 * copy report tells 'expired' apart from 'agent offline'.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pushKindOf } from '#shared/domain/push-alerts.ts';
import { insertBroker } from '#server/db/accounts-repo.ts';
import { insertRelation } from '#server/db/copy-relations-repo.ts';
import { insertRule } from '#server/db/copy-rules-repo.ts';
import { insertRegisteredAccount } from '#server/db/registry-repo.ts';
import { listAgents } from '#server/db/agents-repo.ts';
import { clockStatus } from '#server/broker/agent/clock.ts';
import { BACKENDS, http, login, startServer, type TestServer } from './helpers/server.ts';
import { deal, position, Terminal } from './helpers/terminal.ts';

const SERVER = 'Failed-Live';
const TTL_MS = 1_500;

describe.each(BACKENDS)('copies that did not happen (%s)', (backend) => {
  let server: TestServer;
  let admin = '';
  const master = new Terminal(() => server, '74000001', SERVER);
  const follower = new Terminal(() => server, '74000002', SERVER);
  let ticket = 700;
  const t = () => Math.floor(Date.now() / 1000);

  const copyAlerts = async () =>
    (await server.app.db.query<{ type: string; message: string }>("SELECT type, message FROM alerts WHERE type = 'copy' AND account_id = (SELECT id FROM accounts WHERE account = '74000002') ORDER BY id")).map((r) => r.message);
  const masterOpens = async (symbol: string) => {
    ticket++;
    master.open = [...master.open, position(ticket, symbol, 'buy', 0.2, 1.1, t())];
    await master.report([deal(ticket, 'in', 'buy', symbol, 0.2, 1.1, t())]);
  };
  const alertAbout = (symbol: string) => expect.poll(async () => (await copyAlerts()).find((m) => m.includes(` ${symbol} `)), { timeout: 15_000, interval: 200 });

  beforeAll(async () => {
    server = await startServer(backend, { demo: true, agents: { unconfirmedCloseAfterS: 300, commandTtlMs: TTL_MS, watchMs: 200 } });
    admin = await login(server, 'admin');
    const db = server.app.db;
    const broker = await insertBroker(db, { broker_name: 'FailedBroker', img_path: '', spread_pips: 0, latency_ms: 0, commission_per_lot: 0, rebate_per_lot: 0 });
    const account = (term: Terminal, name: string) =>
      insertRegisteredAccount(db, { source: 'agent', account_id: `failed-${term.login}`, account: term.login, account_name: name, broker_id: broker, server: SERVER, server_name: SERVER, teiko_category: 'SMA', currency: 'USD', leverage: 100 });
    const masterId = await account(master, 'Failed Master');
    const followerId = await account(follower, 'Failed Follower');
    await master.register(masterId);
    await follower.register(followerId);
    await insertRelation(db, { masterId, followerId, terms: { sizing: { mode: 'ratio', ratio: 1 }, maxLot: null }, equityStop: null, startedAt: new Date(Date.now() - 3_600_000) });
    await insertRule(db, { master_id: masterId, market_type: 'Forex', allowed_pairs: ['EURUSD', 'GBPUSD', 'AUDUSD', 'NZDUSD'] });
    await server.app.copier.reloadRules();
    for (const term of [master, follower]) {
      term.state = { balance: 10_000, equity: 10_000, margin: 0, free_margin: 10_000, leverage: 100, currency: 'USD', connected: true, trade_allowed: true };
      await term.report();
    }
  });
  afterAll(async () => server?.close());

  it("raises an alert with the terminal's own words when it refuses a copy, pushed as a copy alert", async () => {
    await masterOpens('EURUSD');
    const [order] = (await follower.collect(1)).filter((c) => c.kind === 'open');
    await follower.answer(order!.id, 'rejected', undefined, 'Not enough money [10019]');
    await alertAbout('EURUSD').toBe('Copy refused on Failed Follower: Buy EURUSD of Failed Master was not copied. The terminal refused it: Not enough money [10019].');
    expect(pushKindOf('copy')).toBe('copy');
  });

  it("tells an order the terminal answered 'expired' apart from a terminal not connected, naming its clock ahead, flagged on the agent's status", async () => {
    // The follower's clock runs two minutes ahead: its batch says so.
    follower.clockOffsetMs = 120_000;
    await follower.report();
    await masterOpens('GBPUSD');
    const [order] = (await follower.collect(1)).filter((c) => c.kind === 'open');
    await follower.answer(order!.id, 'expired', undefined, 'expired at 10:00:31, terminal time 10:02:30');
    await alertAbout('GBPUSD').toMatch(
      /^Copy expired on Failed Follower: Buy GBPUSD of Failed Master was not copied: the terminal received the order but answered that it had expired \(expired at 10:00:31, terminal time 10:02:30\)\. The terminal's clock is 120 s ahead of the server's: set it right/,
    );
    const agent = (await listAgents(server.app.db)).find((a) => a.name === 'agent-74000002')!;
    expect(clockStatus(agent.clock_skew_s)).toMatch(/^120 s ahead \(FLAGGED/);
    follower.clockOffsetMs = 0;
    await follower.report();
  });

  it('raises one when no terminal takes the order in time, and one when the terminal took it and never answered', async () => {
    await masterOpens('AUDUSD');
    // Nobody polls: the order expires unsent.
    await alertAbout('AUDUSD').toMatch(/^Missed copy on Failed Follower: Buy AUDUSD of Failed Master was not copied: no terminal took the order within 2 s \(the follower's terminal is not connected\)\.$/);
    await masterOpens('NZDUSD');
    // Taken, never answered.
    expect((await follower.collect(1)).filter((c) => c.kind === 'open').map((c) => c.payload.symbol)).toEqual(['NZDUSD']);
    await alertAbout('NZDUSD').toMatch(/^Copy unanswered on Failed Follower: Buy NZDUSD of Failed Master was handed to the follower's terminal, which has not answered/);
    // Each told once.
    await new Promise((r) => setTimeout(r, 600));
    expect((await copyAlerts()).filter((m) => / (EURUSD|GBPUSD|AUDUSD|NZDUSD) /.test(m))).toHaveLength(4);
  });

  it("shows each in the Copy screen's misses by its own reason", async () => {
    const res = await http<{ data: { followers: { account_id: string; misses: { symbol: string; reason: string }[] }[] } }>(server, 'GET', '/api/copy/report?period=1m', { key: admin });
    expect(res.status).toBe(200);
    const misses = res.body.data.followers.find((f) => f.account_id === 'failed-74000002')!.misses;
    const reasons = Object.fromEntries(misses.filter((m) => ['EURUSD', 'GBPUSD', 'AUDUSD', 'NZDUSD'].includes(m.symbol)).map((m) => [m.symbol, m.reason]));
    expect(reasons).toEqual({ EURUSD: 'rejected', GBPUSD: 'expired', AUDUSD: 'agent_offline', NZDUSD: 'unanswered' });
  });

  it('folds the four alerts of the hour on this follower into one line of the notifications list, the newest with its count', async () => {
    const res = await http<{ alerts: { type: string; message: string; count?: number }[] }>(server, 'GET', '/api/alerts/infos', { key: admin });
    const mine = res.body.alerts.filter((a) => a.type === 'copy' && a.message.includes('Failed Follower'));
    expect(mine).toHaveLength(1);
    expect(mine[0]).toMatchObject({ count: 4 });
    expect(mine[0]!.message).toMatch(/^Copy unanswered on Failed Follower: Buy NZDUSD/);
  });
});
