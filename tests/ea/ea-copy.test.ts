/**
 * Copying between two EAs through the copy engine (docs/copying.md 'Copying across terminals'): a
 * master account fed by one EA, a follower account fed by another (two driver processes, each its
 * own simulated terminal and agent key, `trade` rights), set up as tests/integration/agent-copying.test.ts
 * does it: the operator's registrations, then a write user's documented calls (the relation, the
 * master's allowed pairs). A trade made by hand in the master's terminal is copied by the follower's
 * EA on the server's `open` command, linked to its master through `copy_of`, and closed by the
 * server's `close` once the master's EA reports the master position closed; a TP/SL edit from the
 * dashboard in between reaches the master and its copy.
 */
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CopyReportResponse } from '#shared/contract/copy.ts';
import { insertBroker } from '#server/db/accounts-repo.ts';
import { grantAccount, insertAgent } from '#server/db/agents-repo.ts';
import { insertRegisteredAccount } from '#server/db/registry-repo.ts';
import { setSymbol } from '#server/db/symbol-map-repo.ts';
import { hashToken, newToken } from '#server/auth/tokens.ts';
import { http, startServer, type TestServer } from '../integration/helpers/server.ts';
import { buildDriver, closeSuite, inTerminal, loginOps, startEa, stopEa, terminalPositions, waitFor, type EaRun } from './harness.ts';

const SERVER = 'Pepperstone-Live01';
const MASTER = '70000001';
const FOLLOWER = '70000002';

describe('copying between two EAs through the copy engine', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ea-copy-'));
  let driver: string;
  let server: TestServer;
  let user: string;
  const keys = { master: newToken(), follower: newToken() };
  const ids = { master: 0, follower: 0 };
  const runs: EaRun[] = [];
  let master: EaRun;
  let follower: EaRun;

  const call = <T = { message: string }>(method: string, url: string, body?: unknown) =>
    http<T>(server, method, url, { key: user, ...(body === undefined ? {} : { body }), headers: method === 'GET' ? {} : { 'idempotency-key': randomUUID() } });
  const commands = (accountId: number) =>
    server.app.db.query<{ kind: string; state: string; message: string | null; payload: Record<string, unknown> }>(
      'SELECT kind, state, message, payload FROM commands WHERE account_id = $1 ORDER BY created_at',
      [accountId],
    );
  const snapshotPositions = () => server.app.market.snapshot().positions;

  beforeAll(async () => {
    driver = await buildDriver(dir);
    server = await startServer('pglite', { demo: false });
    const db = server.app.db;
    // The operator's part (npm run admin -- broker add, symbol map, account add, agent create, user create).
    const broker = await insertBroker(db, { broker_name: 'Pepperstone', img_path: '', spread_pips: 0, latency_ms: 0, commission_per_lot: 0, rebate_per_lot: 0 });
    await setSymbol(db, broker, 'EURUSD.m', 'EURUSD');
    const account = (login: string, name: string, currency: string) =>
      insertRegisteredAccount(db, { source: 'agent', account_id: `pepperstone-${login}`, account: login, account_name: name, broker_id: broker, server: SERVER, server_name: SERVER, teiko_category: 'global forex', currency, leverage: 100 });
    ids.master = await account(MASTER, 'Master USD', 'USD');
    ids.follower = await account(FOLLOWER, 'Follower EUR', 'EUR');
    await grantAccount(db, await insertAgent(db, 'mt5-master', hashToken(keys.master)), ids.master, 'trade');
    await grantAccount(db, await insertAgent(db, 'mt5-follower', hashToken(keys.follower)), ids.follower, 'trade');
    user = await loginOps(server, ['write'], ['Global FX']);
  }, 180_000);

  afterAll(() => closeSuite(runs, server, dir));

  it('two EAs report their accounts; a write user sets up the relation and the allowed pairs', async () => {
    master = startEa(driver, dir, 'master', { url: server.url, key: keys.master }, [
      `account ${MASTER} ${SERVER} USD 100 110000 110000 0 110000`,
      'clock 120',
      'symbol EURUSD.m 1.0849 1.0851 1',
    ]);
    follower = startEa(driver, dir, 'follower', { url: server.url, key: keys.follower }, [
      `account ${FOLLOWER} ${SERVER} EUR 100 10000 10000 0 10000`,
      'clock 120',
      'symbol EURUSD.m 1.085 1.08525 1',
    ]);
    runs.push(master, follower);
    await waitFor('both sessions', () => [master, follower].every((r) => r.lines.some((l) => l.includes('session started'))));

    const relation = await call('POST', '/api/copy/relations', {
      master: `pepperstone-${MASTER}`, follower: `pepperstone-${FOLLOWER}`, sizing: { mode: 'ratio', ratio: 0.5 }, max_lot: 0.5,
    });
    expect(relation.status, JSON.stringify(relation.body)).toBe(200);
    const pairs = await call('POST', '/api/copy-rules/allowed-pairs', { master_id: `pepperstone-${MASTER}`, new_allowed_pairs: ['EURUSD'] });
    expect(pairs.status, JSON.stringify(pairs.body)).toBe(200);
  });

  it("the master's trade is copied by the follower's EA on an open command, carrying master_position_id, and linked", async () => {
    // A trade by hand in the master's terminal: buy 1.2 EURUSD.m at 1.085.
    await inTerminal(master, ['open 7001 EURUSD.m buy 1.2 1.085']);
    const copy = await waitFor('the copy in the follower terminal', () => terminalPositions(follower).find((p) => p.comment === 'cm#7001'));
    // 1.2 × 0.5 = 0.6, capped at the maximum lot 0.5; filled at the follower's ask.
    expect(copy).toMatchObject({ symbol: 'EURUSD.m', type: 'buy', volume: 0.5, price_open: 1.08525 });
    const open = await waitFor('the open answered', async () => (await commands(ids.follower)).find((c) => c.kind === 'open' && c.state !== 'sent' && c.state !== 'pending'));
    expect(open).toMatchObject({ state: 'done', message: 'Request executed [10009]', payload: { symbol: 'EURUSD', type: 'buy', volume: 0.5, master_position_id: 7001, master_login: MASTER, master_server: SERVER } });
    expect(follower.lines.some((l) => /command open .*: done Request executed \[10009\]/.test(l))).toBe(true);

    // The follower's EA reports it with copy_of 7001: the server links it to the master's position.
    const masterRow = await waitFor('the master position on the server', () => snapshotPositions().find((p) => p.account_id === ids.master && p.symbol === 'EURUSD'));
    expect(masterRow.quantity).toBe(1.2);
    const copyRow = await waitFor('the copy linked to its master', () =>
      snapshotPositions().find((p) => p.account_id === ids.follower && p.master_position_id === masterRow.id));
    expect(copyRow).toMatchObject({ symbol: 'EURUSD', quantity: 0.5 });
    // One open per master position, ever: the EAs go on reporting, nothing more is sent.
    await new Promise((r) => setTimeout(r, 2500));
    expect((await commands(ids.follower)).map((c) => c.kind)).toEqual(['open']);
    expect(terminalPositions(follower)).toHaveLength(1);
  });

  it("a TP/SL edit from the dashboard reaches the master and, through the copy engine, its copy: both EAs run it", async () => {
    const edit = await call('POST', '/api/positions/set-tp-sl-by-symbol', {
      category: 'Forex', symbol: 'EURUSD', direction: 'long', currency: 'USD', take_profit: 1.095, stop_loss: 1.07, portfolio: 'Global FX',
    });
    expect(edit.status, JSON.stringify(edit.body)).toBe(200);
    expect(edit.body.message).toBe('Take profit 1.095 and stop loss 1.07 set on 2 positions of EURUSD.');
    for (const run of [master, follower]) {
      // The terminal file is written after the timer that answered.
      await waitFor('the new TP/SL in the terminal', () => terminalPositions(run).find((p) => p.tp === 1.095 && p.sl === 1.07));
      expect(run.lines.some((l) => /command modify .*: done Request executed \[10009\]/.test(l))).toBe(true);
    }
    expect((await commands(ids.follower)).map((c) => `${c.kind} ${c.state}`)).toEqual(['open done', 'modify done']);
  });

  it('the master closes: the follower EA gets one close and runs it; the copy report links the round trip to its master', async () => {
    await inTerminal(follower, ['price EURUSD.m 1.0899 1.09015']);
    await inTerminal(master, ['price EURUSD.m 1.09 1.0902', 'close 7001 1.09 600']);
    await waitFor('the copy closed in the follower terminal', () => terminalPositions(follower).length === 0);
    const close = await waitFor('the close answered', async () => (await commands(ids.follower)).find((c) => c.kind === 'close' && c.state === 'done'));
    expect(close.payload).toMatchObject({ volume: 0.5 });
    expect(follower.lines.some((l) => /command close .*: done Request executed \[10009\]/.test(l))).toBe(true);
    await waitFor('the copy gone from the server', () => !snapshotPositions().some((p) => p.account_id === ids.follower));
    await new Promise((r) => setTimeout(r, 2000));
    expect((await commands(ids.follower)).map((c) => `${c.kind} ${c.state}`)).toEqual(['open done', 'modify done', 'close done']);

    const report = await waitFor('the copy in the report', async () => {
      const r = await call<CopyReportResponse>('GET', '/api/copy/report?portfolio=Global%20FX&period=1m');
      const f = r.body.data?.followers.find((x) => x.account_id === `pepperstone-${FOLLOWER}`);
      return f && f.trades.length === 1 ? f : undefined;
    });
    expect(report).toMatchObject({ copied: 1, inferred_links: 0, master: { account_id: `pepperstone-${MASTER}` }, sizing: { mode: 'ratio', ratio: 0.5 }, max_lot: 0.5 });
    // Entry (1.08525 − 1.08500) / 0.0001 = 2.5 pips worse; exit (1.09000 − 1.08990) / 0.0001 = 1 pip.
    expect(report.trades[0]).toMatchObject({ symbol: 'EURUSD', type: 'Buy', quantity: 0.5, master_quantity: 1.2, expected_quantity: 0.5, inferred: false });
    expect(report.trades[0]!.entry_slippage).toBeCloseTo(2.5, 6);
    expect(report.trades[0]!.exit_slippage).toBeCloseTo(1, 6);
    expect(report.trades[0]!.delay_ms).toBeGreaterThanOrEqual(0);
    expect(report.trades[0]!.delay_ms).toBeLessThan(15_000);
    expect(await stopEa(master)).toBe(0);
    expect(await stopEa(follower)).toBe(0);
    for (const [run, key] of [[master, keys.master], [follower, keys.follower]] as const) expect(run.lines.join('\n')).not.toContain(key);
  });
});
