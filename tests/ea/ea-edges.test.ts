/**
 * The EA on the protocol's edges (docs/ingest-api.md): a command received past its `expires_at` is
 * answered `expired` and not run; a command for a position the terminal does not hold is answered
 * `not_found`; a key refused (401) stops the EA sending, says so in its log, never printing the key;
 * a server out of reach is tried again with a growing backoff, and the batches arrive once each
 * (also one the server applied but whose answer was lost on the way back).
 * The EA reaches the server through a small TCP proxy here, which the tests stop, start again, or
 * make lose the server's answers, and which counts the connections the EA makes.
 */
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertBroker } from '#server/db/accounts-repo.ts';
import { grantAccount, insertAgent, revokeAgent } from '#server/db/agents-repo.ts';
import { insertCommands } from '#server/db/commands-repo.ts';
import { setSymbol } from '#server/db/symbol-map-repo.ts';
import { hashToken, newToken } from '#server/auth/tokens.ts';
import { http, startServer, type TestServer } from '../integration/helpers/server.ts';
import { OFFSET_MIN, Proxy, brokerAgo, buildDriver, closeSuite, inTerminal, insertMasterAccount, loginOps, startEa, stopEa, terminalPositions, waitFor, type EaRun } from './harness.ts';

const LOGIN = '51234567';
const SERVER = 'Pepperstone-Live01';

describe('the MetaTrader 5 Expert Advisor on the edges of the protocol', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ea-edges-'));
  let driver: string;
  let server: TestServer;
  let proxy: Proxy;
  let admin: string;
  let accountId: number;
  let brokerId: number;
  const runs: EaRun[] = [];
  const terminal = [
    `account ${LOGIN} ${SERVER} EUR 100 10250.5 10310.25 220 10090.25`,
    `clock ${OFFSET_MIN}`,
    'symbol EURUSD.m 1.0823 1.0825 1',
    `position 900 900 EURUSD.m buy 0.5 1.0812 1.0824 0 1.09 59.75 0 ${brokerAgo(7200)} 0 manual`,
    `deal 1 0 0 ${brokerAgo(30 * 86_400)} 2 0 - 0 0 0 0 0 10000 Deposit`,
    `deal 6 6 900 ${brokerAgo(7200)} 0 0 EURUSD.m 0.5 1.0812 0 0 0 0`,
  ];
  const one = async <T extends object>(sql: string, params: unknown[] = []) => (await server.app.db.query<T>(sql, params))[0]!;
  const newKey = async (name: string) => {
    const key = newToken();
    await grantAccount(server.app.db, await insertAgent(server.app.db, name, hashToken(key)), accountId, 'trade');
    return key;
  };
  const ea = (name: string, key: string, lines: string[] = terminal) => {
    const run = startEa(driver, dir, name, { url: proxy.url, key }, lines);
    runs.push(run);
    return run;
  };
  const sessionStarted = (run: EaRun) => waitFor('the session', () => run.lines.some((l) => l.includes('session started')));
  const command = (id: string) => one<{ state: string; message: string | null }>('SELECT state, message FROM commands WHERE id = $1', [id]);

  beforeAll(async () => {
    driver = await buildDriver(dir);
    server = await startServer('pglite', { demo: false });
    proxy = new Proxy(Number(new URL(server.url).port));
    await proxy.start();
    const db = server.app.db;
    brokerId = await insertBroker(db, { broker_name: 'Pepperstone', img_path: '', spread_pips: 0, latency_ms: 0, commission_per_lot: 0, rebate_per_lot: 0 });
    accountId = await insertMasterAccount(db, {
      account_id: `pepperstone-${LOGIN}`, account: LOGIN, account_name: 'Real Master', broker_id: brokerId, server: SERVER, server_name: 'Pepperstone Live 01',
    });
    await setSymbol(db, brokerId, 'EURUSD.m', 'EURUSD');
    admin = await loginOps(server, ['write', 'read_rebate']);
  }, 180_000);

  afterAll(() => closeSuite(runs, server, dir, async () => proxy?.stop().catch(() => undefined)));

  it('a command received past its deadline is answered expired and not run', async () => {
    // This computer's clock runs 45 s ahead (within the server's 60 s skew limit): a TP/SL edit,
    // which lives 30 s, reaches the EA already past its expires_at by the EA's clock.
    const run = ea('expired', await newKey('mt5-expired'), ['skew 45', ...terminal]);
    await sessionStarted(run);
    const edit = await http<{ message: string }>(server, 'POST', '/api/positions/set-tp-sl-by-symbol', {
      key: admin,
      body: { category: 'Forex', symbol: 'EURUSD', direction: 'long', currency: 'EUR', take_profit: 1.095, stop_loss: 1.07, portfolio: 'SMA' },
    });
    expect(edit.status).not.toBe(200);
    const line = await waitFor('the expired answer', () => run.lines.find((l) => / command modify .*: expired /.test(l)));
    const id = / command modify (\S+):/.exec(line)![1]!;
    await waitFor('the answer on the server', async () => (await command(id)).state !== 'sent');
    expect(await command(id)).toEqual({ state: 'expired', message: 'Received after it expired: not run' });
    expect(await stopEa(run)).toBe(0);
    expect(terminalPositions(run).find((p) => p.identifier === 900)).toMatchObject({ sl: 0, tp: 1.09 });
  });

  it('a command for a position the terminal does not hold is answered not_found', async () => {
    const key = await newKey('mt5-not-found');
    const run = ea('not-found', key);
    await sessionStarted(run);
    // As the server queues a close (src/server/broker/agent/agent-broker.ts), for a position this terminal never had.
    const id = randomUUID();
    const agentId = (await one<{ id: number }>("SELECT id FROM agents WHERE name = 'mt5-not-found'")).id;
    const now = Date.now();
    await insertCommands(server.app.db, [{
      id, agentId, accountId, kind: 'close', payload: { identifier: 4242, volume: 0.1, expires_at: now + 30_000 }, createdAt: new Date(now), expiresAt: new Date(now + 30_000),
    }]);
    await waitFor('the answer', async () => (await command(id)).state === 'not_found');
    expect(await command(id)).toEqual({ state: 'not_found', message: 'No open position 4242' });
    expect(run.lines.some((l) => l.includes(`command close ${id}: not_found No open position 4242`))).toBe(true);
    expect(await stopEa(run)).toBe(0);
    expect(terminalPositions(run).map((p) => p.identifier)).toEqual([900]);
  });

  it('a key revoked (401) stops the EA sending, and its log says so without the key', async () => {
    const key = await newKey('mt5-revoked');
    const run = ea('revoked', key);
    await sessionStarted(run);
    expect(await revokeAgent(server.app.db, 'mt5-revoked', new Date())).toBe(true);
    await waitFor('the refusal in the log', () => run.lines.some((l) => l.includes('the agent key is not accepted (401): stopped sending')));
    const connections = proxy.connections;
    await new Promise((r) => setTimeout(r, 3000));
    expect(proxy.connections).toBe(connections); // nothing more sent
    expect(run.child.exitCode).toBe(null); // the EA stays on the chart, stopped
    expect(await stopEa(run)).toBe(0);
    expect(run.lines.filter((l) => l.includes('(401)'))).toHaveLength(1);
    expect(run.lines.join('\n')).not.toContain(key);
    expect(fs.readFileSync(run.out, 'utf8')).not.toContain(key);

    // A key mistyped: the same from the first batch on.
    const wrong = ea('wrong-key', newToken());
    await waitFor('the refusal in the log', () => wrong.lines.some((l) => l.includes('the agent key is not accepted (401): stopped sending')));
    expect(await stopEa(wrong)).toBe(0);
    expect(wrong.lines.some((l) => l.includes('session started'))).toBe(false);
  });

  it('a server out of reach is tried again with backoff; the batches arrive once each, also one whose answer was lost', async () => {
    const key = await newKey('mt5-outage');
    const run = ea('outage', key);
    await sessionStarted(run);
    const deals = async () => (await one<{ n: number }>('SELECT count(*)::int AS n FROM broker_events WHERE account_id = $1', [accountId])).n;
    await waitFor('the history on the server', async () => (await deals()) === 2);

    // The server goes away for about 6 s; meanwhile the terminal trades a round trip.
    await proxy.stop();
    await inTerminal(run, ['open 7100 EURUSD.m buy 0.1 1.08', 'price EURUSD.m 1.0822 1.0824', 'close 7100 1.0822 22']);
    await waitFor('three failed tries', () => run.lines.filter((l) => l.includes('server unreachable; retrying in')).length >= 3, 15_000);
    await proxy.start();
    await waitFor('the round trip on the server', async () => (await deals()) === 4, 90_000);
    const delays = run.lines.filter((l) => l.includes('server unreachable; retrying in')).map((l) => Number(/retrying in (\d+) s/.exec(l)![1]));
    expect(delays.slice(0, 3)).toEqual([1, 2, 4]);

    // The server applies a batch but its answer is lost: the EA sends it again as it was, and it is applied once.
    const sentLines = () => run.lines.filter((l) => /batch \d+ sent \d+ deals/.test(l)).length;
    const answered = sentLines();
    proxy.mode = 'lose-answers';
    await inTerminal(run, ['open 7101 EURUSD.m sell 0.2 1.0822', 'price EURUSD.m 1.0812 1.0814', 'close 7101 1.0814 16']);
    await waitFor('the round trip applied', async () => (await deals()) === 6);
    const failures = run.lines.filter((l) => l.includes('retrying in')).length;
    await waitFor('a failed answer', () => run.lines.filter((l) => l.includes('retrying in')).length > failures || undefined, 10_000).catch(() => undefined);
    proxy.mode = 'up';
    // The batch of the round trip, sent again after its answer was lost, is answered at last (the first answer, kept by its batch_id).
    const resent = await waitFor('the batch answered', () => (sentLines() > answered ? run.lines.filter((l) => /batch \d+ sent \d+ deals/.test(l)).at(-1) : undefined), 90_000);
    expect(resent).toMatch(/sent 2 deals, 1 booked/);
    expect(await stopEa(run)).toBe(0);

    const rows = await server.app.db.query<{ ticket: number }>('SELECT ref::int AS ticket FROM broker_events WHERE account_id = $1', [accountId]);
    expect(rows).toHaveLength(6);
    expect(new Set(rows.map((r) => r.ticket)).size).toBe(6);
    const trades = await server.app.db.query<{ profit: number }>("SELECT profit FROM deals WHERE account_id = $1 AND kind = 'trade' ORDER BY ticket", [accountId]);
    expect(trades.map((t) => Number(t.profit))).toEqual([22, 16]);
    expect(run.lines.join('\n')).not.toContain(key);
  });
});
