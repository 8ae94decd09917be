/**
 * ea/CopyMonitor.mq5 end to end: the Expert Advisor, compiled by g++ against tests/ea/mql5.h (a
 * simulated MetaTrader 5 terminal; tests/ea/driver.cpp runs its events), talks Ingest API v1 over real
 * HTTP to the real server (embedded database), which a user reads through its HTTP API.
 */
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertBroker } from '#server/db/accounts-repo.ts';
import { grantAccount, insertAgent } from '#server/db/agents-repo.ts';
import { setSymbol } from '#server/db/symbol-map-repo.ts';
import { hashToken, newToken } from '#server/auth/tokens.ts';
import { http, startServer, type TestServer } from '../integration/helpers/server.ts';
import { OFFSET_MIN, brokerAgo, buildDriver, closeSuite, insertMasterAccount, loginOps, startEa, stopEa, waitFor, type EaRun } from './harness.ts';

const LOGIN = '51234567';
const SERVER = 'Pepperstone-Live01';
const DAY = 86_400;

describe('the MetaTrader 5 Expert Advisor against the server', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ea-'));
  let driver: string;
  let server: TestServer;
  let key: string;
  let admin: string;
  let accountId: number;
  const runs: EaRun[] = [];
  const one = async <T extends object>(sql: string, params: unknown[] = []) => (await server.app.db.query<T>(sql, params))[0]!;

  // The simulated terminal: two EURUSD.m positions, a deposit, an old round trip and a recent one.
  const old = brokerAgo(30 * DAY);
  const terminal = [
    `account ${LOGIN} ${SERVER} EUR 100 10250.5 10310.25 220 10090.25`,
    `clock ${OFFSET_MIN}`,
    'symbol EURUSD.m 1.0823 1.0825 1',
    `position 900 900 EURUSD.m buy 0.5 1.0812 1.0824 0 1.09 59.75 0 ${brokerAgo(7200)} 0 manual`,
    `position 901 901 EURUSD.m sell 0.2 1.0850 1.0825 0 0 50 -1.2 ${brokerAgo(7000)} 0`,
    `deal 1 0 0 ${old} 2 0 - 0 0 0 0 0 10000 Deposit`,
    `deal 2 2 200 ${old + 60} 0 0 EURUSD.m 1 1.1 -3 0 0 0`,
    `deal 3 3 200 ${old + 3600} 1 1 EURUSD.m 1 1.105 -3 0 0 500`,
    `deal 4 4 201 ${brokerAgo(10_800)} 1 0 EURUSD.m 0.5 1.09 0 0 0 0`,
    `deal 5 5 201 ${brokerAgo(9000)} 0 1 EURUSD.m 0.5 1.095 0 0 0 -250`,
    `deal 6 6 900 ${brokerAgo(7200)} 0 0 EURUSD.m 0.5 1.0812 0 0 0 0`,
    `deal 7 7 901 ${brokerAgo(7000)} 1 0 EURUSD.m 0.2 1.0850 0 0 0 0`,
    'refuse modify 901 10016 Invalid stops',
  ];

  const start = (lines: string[], name: string): EaRun => {
    const run = startEa(driver, dir, name, { url: server.url, key }, lines);
    runs.push(run);
    return run;
  };
  /** The simulated terminal as the driver last wrote it. */
  const positionsOf = (run: EaRun) =>
    fs.existsSync(run.out)
      ? fs.readFileSync(run.out, 'utf8').split('\n').filter((l) => l.startsWith('position ')).map((l) => {
          const f = l.split(' ');
          return { identifier: Number(f[2]), sl: Number(f[8]), tp: Number(f[9]) };
        })
      : [];
  const editTpSl = (direction: 'long' | 'short', tp: number, sl: number) =>
    http<{ message: string }>(server, 'POST', '/api/positions/set-tp-sl-by-symbol', {
      key: admin,
      body: { category: 'Forex', symbol: 'EURUSD', direction, currency: 'EUR', take_profit: tp, stop_loss: sl, portfolio: 'SMA' },
    });
  const dealRows = () =>
    server.app.db.query<{ ticket: number; kind: string; profit: number; amount: number }>(
      'SELECT ticket::int AS ticket, kind, profit, amount FROM deals WHERE account_id = $1 ORDER BY ticket',
      [accountId],
    );
  const brokerDeals = async () => (await one<{ n: number }>('SELECT count(*)::int AS n FROM broker_events WHERE account_id = $1', [accountId])).n;

  beforeAll(async () => {
    driver = await buildDriver(dir);
    server = await startServer('pglite', { demo: false });
    const db = server.app.db;
    const broker = await insertBroker(db, {
      broker_name: 'Pepperstone', img_path: '/brokers/none.svg', spread_pips: 0, latency_ms: 0, commission_per_lot: 0, rebate_per_lot: 0,
    });
    accountId = await insertMasterAccount(db, {
      account_id: `pepperstone-${LOGIN}`, account: LOGIN, account_name: 'Real Master', broker_id: broker, server: SERVER, server_name: 'Pepperstone Live 01',
    });
    await setSymbol(db, broker, 'EURUSD.m', 'EURUSD');
    key = newToken();
    await grantAccount(db, await insertAgent(db, 'mt5-ea', hashToken(key)), accountId, 'trade');
    admin = await loginOps(server, ['write', 'read_rebate']);
  }, 180_000);

  afterAll(() => closeSuite(runs, server, dir));

  let first: EaRun;
  // While the EA was off (scenario 3): a withdrawal and a closed round trip.
  const later = [
    ...terminal,
    `deal 8 0 0 ${brokerAgo(600)} 2 0 - 0 0 0 0 0 -500 Withdrawal`,
    `deal 9 9 202 ${brokerAgo(500)} 0 0 EURUSD.m 0.1 1.08 0 0 0 0`,
    `deal 10 10 202 ${brokerAgo(400)} 1 1 EURUSD.m 0.1 1.082 0 0 0 20`,
  ];

  it("1. the terminal's account state, open positions and deals reach the server", async () => {
    first = start(terminal, 'first');
    await waitFor('the deals on the server', async () => (await brokerDeals()) === 7);
    const info = await http<{ data: { account: string; balance: number; equity: number; margin: number }[] }>(server, 'GET', '/api/brokers/accounts/info', { key: admin });
    expect(info.body.data.find((a) => a.account === LOGIN)).toMatchObject({ balance: 10_250.5, equity: 10_310.25, margin: 220 });
    const positions = await server.app.db.query<{ identifier: number; symbol: string; type: string; quantity: number; price_open: number; price_current: number; tp: number | null }>(
      'SELECT identifier::int AS identifier, symbol, type, quantity::float AS quantity, price_open::float AS price_open, price_current::float AS price_current, tp::float AS tp FROM positions WHERE account_id = $1 ORDER BY identifier',
      [accountId],
    );
    expect(positions).toEqual([
      { identifier: 900, symbol: 'EURUSD', type: 'Buy', quantity: 0.5, price_open: 1.0812, price_current: 1.0824, tp: 1.09 },
      { identifier: 901, symbol: 'EURUSD', type: 'Sell', quantity: 0.2, price_open: 1.085, price_current: 1.0825, tp: null },
    ]);
    const history = await http<{ dealsStats: { deals: { type: string; category: string; profit: number; quantity: number }[] }[] }>(
      server, 'GET', `/api/brokers/historical-deals?account=${LOGIN}`, { key: admin },
    );
    expect(history.status).toBe(200);
    const deals = history.body.dealsStats[0]!.deals;
    const trades = deals.filter((d) => d.category !== 'Balance');
    // Two round trips closed: +500 and −250; the deposit of 10,000.
    expect(trades).toHaveLength(2);
    expect(trades.reduce((s, d) => s + d.profit, 0)).toBeCloseTo(250, 2);
    expect(deals.filter((d) => d.type === 'Deposit').map((d) => d.profit)).toEqual([10_000]);
    expect(first.lines.some((l) => l.includes('session started'))).toBe(true);
    expect(first.lines.join('\n')).not.toContain(key);
  });

  it('2. a TP/SL edit through the server is run by the EA in the terminal and answered done', async () => {
    const edit = await editTpSl('long', 1.095, 1.07);
    expect(edit.status).toBe(200);
    expect(edit.body.message).toBe('Take profit 1.095 and stop loss 1.07 set on 1 position of EURUSD.');
    await waitFor('the terminal to hold the new TP/SL', () => positionsOf(first).find((p) => p.identifier === 900 && p.tp === 1.095 && p.sl === 1.07));
    // The user sees it: the EA's next report carries it to the server.
    await waitFor('the server to show the new TP/SL', async () => {
      const row = await one<{ tp: number | null; sl: number | null }>('SELECT tp, sl FROM positions WHERE account_id = $1 AND identifier = 900', [accountId]);
      return Number(row.tp) === 1.095 && Number(row.sl) === 1.07;
    });
    expect(first.lines.some((l) => /command modify .*: done Request executed \[10009\]/.test(l))).toBe(true);
  });

  it("4. a command the terminal refuses shows the terminal's words to the user", async () => {
    const edit = await editTpSl('short', 1.0, 1.2);
    expect(edit.status).toBe(422);
    expect(edit.body.message).toBe('The terminal refused: Invalid stops [10016]');
    expect(positionsOf(first).find((p) => p.identifier === 901)).toMatchObject({ sl: 0, tp: 0 });
  });

  it('3. a restart resumes from history_from: only the recent deals are sent again, none is duplicated', async () => {
    expect(await stopEa(first)).toBe(0);
    const booked = (await dealRows()).length;
    const second = start(later, 'second');
    await waitFor('the new deals on the server', async () => (await brokerDeals()) === 10);
    await waitFor('the batch of deals', () => second.lines.find((l) => /sent \d+ deals/.test(l)));
    expect(await stopEa(second)).toBe(0);
    // history_from was the last deal stored (7, two hours ago): the EA went back a day from it, not to the start.
    expect(second.lines.some((l) => l.includes('deals from the start of the history'))).toBe(false);
    const sent = second.lines.filter((l) => /sent \d+ deals/.test(l)).map((l) => Number(/sent (\d+) deals/.exec(l)![1]));
    expect(sent.reduce((a, b) => a + b, 0)).toBe(7); // deals 4 to 10: not the 30-day-old 1 to 3
    const rows = await dealRows();
    expect(rows.length).toBe(booked + 2); // the withdrawal and the new round trip
    expect(new Set(rows.map((r) => r.ticket)).size).toBe(rows.length);
    expect(rows.filter((r) => r.kind === 'trade').reduce((s, r) => s + Number(r.profit), 0)).toBeCloseTo(270, 2);
  });

  it('5. a close through the server is run by the EA: the position is gone from the terminal and the server, its out deal booked', async () => {
    const run = start(later, 'third');
    await waitFor('the session', () => run.lines.find((l) => l.includes('session started')));
    const close = await http<{ message: string }>(server, 'POST', '/api/positions/close-by-symbol', {
      key: admin,
      body: { category: 'Forex', symbol: 'EURUSD', direction: 'short', currency: 'EUR', portfolio: 'SMA' },
    });
    expect(close.status).toBe(200);
    await waitFor('the terminal to close 901', () => positionsOf(run).length === 1);
    await waitFor('the server to drop 901', async () =>
      (await one<{ n: number }>('SELECT count(*)::int AS n FROM positions WHERE account_id = $1 AND identifier = 901', [accountId])).n === 0);
    await waitFor('the out deal of 901 on the server', async () =>
      (await one<{ n: number }>("SELECT count(*)::int AS n FROM broker_events WHERE account_id = $1 AND position = 901 AND event->>'effect' = 'close'", [accountId])).n === 1);
    expect(await stopEa(run)).toBe(0);
    expect(run.lines.some((l) => /command close .*: done/.test(l))).toBe(true);
  });

  it("6. a resync answer starts a new session with a full snapshot, and the EA carries on", async () => {
    const run = start(later, 'fourth');
    await waitFor('the session', () => run.lines.find((l) => l.includes('session started')));
    // Another session of the same key takes over the agent's sequence: the EA's next batch is a gap.
    const other = await http(server, 'POST', '/api/ingest/v1/batches', {
      headers: { 'x-agent-key': key },
      body: { session: randomUUID(), seq: 1, batch_id: randomUUID(), utc_offset_minutes: OFFSET_MIN, sent_at: Date.now(), accounts: [] },
    });
    expect(other.status).toBe(200);
    await waitFor('the resync', () => run.lines.find((l) => l.includes('new session (the server asked for a resync)')));
    await waitFor('a second session started', () => run.lines.filter((l) => l.includes('session started')).length >= 2);
    // The new session's snapshot was applied: a TP/SL edit still reaches the terminal.
    expect((await editTpSl('long', 1.096, 1.071)).status).toBe(200);
    expect(await stopEa(run)).toBe(0);
    expect(positionsOf(run).find((p) => p.identifier === 900)).toMatchObject({ tp: 1.096, sl: 1.071 });
  });
});
