/**
 * ea/CopyMonitor.mq4 end to end: the MetaTrader 4 Expert Advisor, compiled by g++ against
 * tests/ea/mql4.h (a simulated MetaTrader 4 terminal: open orders, a history pool, OrderModify,
 * OrderClose, OrderSend with MT4's error codes; tests/ea/driver4.cpp runs its events), talks Ingest
 * API v1 over real HTTP to the real server (embedded database), which a user reads through its HTTP API.
 * MT4 orders reach the server as docs/ea.md's MT4 section says: an open order is a position (identifier:
 * the ticket it was opened under), a closed order an in deal (ticket × 2) and an out deal (ticket × 2 + 1),
 * a balance operation (history order type 6) a deal of type 2 (ticket × 2).
 */
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertBroker } from '#server/db/accounts-repo.ts';
import { grantAccount, insertAgent } from '#server/db/agents-repo.ts';
import { setSymbol } from '#server/db/symbol-map-repo.ts';
import { insertCommands } from '#server/db/commands-repo.ts';
import { hashToken, newToken } from '#server/auth/tokens.ts';
import { http, startServer, type TestServer } from '../integration/helpers/server.ts';
import { OFFSET_MIN, brokerAgo, buildDriver, closeSuite, insertMasterAccount, loginOps, startEa, stopEa, waitFor, type EaRun } from './harness.ts';

const LOGIN = '7012345';
const SERVER = 'ICMarkets-Live07';
const DAY = 86_400;

describe('the MetaTrader 4 Expert Advisor against the server', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ea4-'));
  let driver: string;
  let server: TestServer;
  let key: string;
  let admin: string;
  let accountId: number;
  let agentId: number;
  const runs: EaRun[] = [];
  const one = async <T extends object>(sql: string, params: unknown[] = []) => (await server.app.db.query<T>(sql, params))[0]!;

  // The simulated terminal: a deposit, an old closed order and a recent one, two open orders.
  // order <ticket> <symbol> <type> <lots> <open time> <open price> <sl> <tp> <close time> <close price> <commission> <swap> <profit> <magic> [comment]
  const old = brokerAgo(30 * DAY);
  const terminal = [
    `account ${LOGIN} ${SERVER} EUR 100 10250.5 10310.25 220 10090.25`,
    'company IC Markets Ltd',
    `clock ${OFFSET_MIN}`,
    'symbol EURUSD.m 1.0823 1.0825',
    `order 1 - 6 0 ${old} 0 0 0 ${old} 0 0 0 10000 0 Deposit`,
    `order 2 EURUSD.m 0 1 ${old + 60} 1.1 0 0 ${old + 3600} 1.105 -6 0 500 0`,
    `order 3 EURUSD.m 1 0.5 ${brokerAgo(10_800)} 1.09 0 0 ${brokerAgo(9000)} 1.095 0 0 -250 0`,
    `order 900 EURUSD.m 0 0.5 ${brokerAgo(7200)} 1.0812 0 1.09 0 1.0824 0 0 59.75 0 manual`,
    `order 901 EURUSD.m 1 0.2 ${brokerAgo(7000)} 1.085 0 0 0 1.0825 0 -1.2 50 0`,
    'refuse modify 901 130',
  ];

  const start = (lines: string[], name: string, agentKey = key): EaRun => {
    const run = startEa(driver, dir, name, { url: server.url, key: agentKey }, lines);
    runs.push(run);
    return run;
  };
  /** The open orders of the simulated terminal as the driver last wrote it. */
  const openOrdersOf = (run: EaRun) =>
    fs.existsSync(run.out)
      ? fs.readFileSync(run.out, 'utf8').split('\n').filter((l) => l.startsWith('order ')).map((l) => {
          const f = l.split(' ');
          return { ticket: Number(f[1]), sl: Number(f[7]), tp: Number(f[8]), closed: Number(f[9]) !== 0 };
        }).filter((o) => !o.closed)
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
  const brokerDeals = () =>
    server.app.db.query<{ ticket: number; position_id: number | null; entry: string | null; volume: number | null }>(
      `SELECT ref::int AS ticket, position::int AS position_id, event->>'effect' AS entry, (event->>'quantity')::float AS volume
         FROM broker_events WHERE account_id = $1 ORDER BY ref`,
      [accountId],
    );

  beforeAll(async () => {
    driver = await buildDriver(dir, 'driver4');
    server = await startServer('pglite', { demo: false });
    const db = server.app.db;
    const broker = await insertBroker(db, {
      broker_name: 'IC Markets', img_path: '/brokers/none.svg', spread_pips: 0, latency_ms: 0, commission_per_lot: 0, rebate_per_lot: 0,
    });
    accountId = await insertMasterAccount(db, {
      account_id: `icmarkets-${LOGIN}`, account: LOGIN, account_name: 'Real MT4 Master', broker_id: broker, server: SERVER, server_name: 'IC Markets Live 07',
    });
    await setSymbol(db, broker, 'EURUSD.m', 'EURUSD');
    key = newToken();
    agentId = await insertAgent(db, 'mt4-ea', hashToken(key));
    await grantAccount(db, agentId, accountId, 'trade');
    admin = await loginOps(server, ['write', 'read_rebate']);
  }, 180_000);

  afterAll(() => closeSuite(runs, server, dir));

  let first: EaRun;
  let third: EaRun;
  let fourth: EaRun;
  let latest: string[] = [];
  // While the EA was off (scenario 3): a withdrawal, a closed order, and 901 closed in part (MT4 keeps the
  // closed 0.1 lot under 901, "to #950", and the open rest under a new ticket 950, "from #901").
  const later = [
    ...terminal.filter((l) => !l.startsWith('order 901 ')),
    `order 10 - 6 0 ${brokerAgo(600)} 0 0 0 ${brokerAgo(600)} 0 0 0 -500 0 Withdrawal`,
    `order 11 EURUSD.m 0 0.1 ${brokerAgo(500)} 1.08 0 0 ${brokerAgo(400)} 1.082 0 0 20 0`,
    `order 901 EURUSD.m 1 0.1 ${brokerAgo(7000)} 1.085 0 0 ${brokerAgo(300)} 1.0825 0 -0.6 25 0 to #950`,
    `order 950 EURUSD.m 1 0.1 ${brokerAgo(7000)} 1.085 0 0 0 1.0825 0 -0.6 25 0 from #901`,
  ];

  it("1. the terminal's account state, open orders, closed orders and balance operations reach the server", async () => {
    first = start(terminal, 'first');
    await waitFor('the deals on the server', async () => (await brokerDeals()).length === 7);
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
    // Tickets as docs/ea.md says: the deposit 1 → 2; closed orders 2 and 3 → in 4/6, out 5/7; open orders' in deals 1800, 1802
    // (stored as neutral events: an in deal opens, an out deal closes; the deposit is cash, of no position).
    expect((await brokerDeals()).map((d) => [d.ticket, d.position_id, d.entry, d.volume])).toEqual([
      [2, null, null, null], [4, 2, 'open', 1], [5, 2, 'close', 1], [6, 3, 'open', 0.5], [7, 3, 'close', 0.5], [1800, 900, 'open', 0.5], [1802, 901, 'open', 0.2],
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

  it('2. a TP/SL edit through the server is run by OrderModify in the terminal and answered done', async () => {
    const edit = await editTpSl('long', 1.095, 1.07);
    expect(edit.status).toBe(200);
    expect(edit.body.message).toBe('Take profit 1.095 and stop loss 1.07 set on 1 position of EURUSD.');
    await waitFor('the terminal to hold the new TP/SL', () => openOrdersOf(first).find((o) => o.ticket === 900 && o.tp === 1.095 && o.sl === 1.07));
    await waitFor('the server to show the new TP/SL', async () => {
      const row = await one<{ tp: number | null; sl: number | null }>('SELECT tp, sl FROM positions WHERE account_id = $1 AND identifier = 900', [accountId]);
      return Number(row.tp) === 1.095 && Number(row.sl) === 1.07;
    });
    expect(first.lines.some((l) => /command modify .*: done Order #900 modified/.test(l))).toBe(true);
  });

  it("4. a command the terminal refuses shows the terminal's words to the user", async () => {
    const edit = await editTpSl('short', 1.0, 1.2);
    expect(edit.status).toBe(422);
    expect(edit.body.message).toBe('The terminal refused: invalid stops [130]');
    expect(openOrdersOf(first).find((o) => o.ticket === 901)).toMatchObject({ sl: 0, tp: 0 });
  });

  it('3. a restart resumes from history_from: only the recent history is sent again, nothing is duplicated; a partial close keeps its position', async () => {
    expect(await stopEa(first)).toBe(0);
    const booked = (await dealRows()).length;
    const second = start(later, 'second');
    await waitFor('the new deals on the server', async () => (await brokerDeals()).length === 12);
    await waitFor('the rest of 901 on the server', async () =>
      Number((await one<{ q: number }>('SELECT quantity::float AS q FROM positions WHERE account_id = $1 AND identifier = 901', [accountId])).q) === 0.1);
    await waitFor('the batch of deals', () => second.lines.find((l) => /sent \d+ deals/.test(l)));
    expect(await stopEa(second)).toBe(0);
    // history_from was the last deal stored (901's in, two hours ago): the EA went back a day from it, not to the start.
    expect(second.lines.some((l) => l.includes('deals from the start of the history'))).toBe(false);
    const sent = second.lines.filter((l) => /sent \d+ deals/.test(l)).map((l) => Number(/sent (\d+) deals/.exec(l)![1]));
    // orders 3, 11, 901 (in and out each), the withdrawal 10, the in deals of open orders 900 and 950: not the 30-day-old 1 and 2
    expect(sent.reduce((a, b) => a + b, 0)).toBe(9);
    const all = await brokerDeals();
    expect(all.filter((d) => d.position_id === 901).map((d) => [d.ticket, d.entry, d.volume])).toEqual([
      [1802, 'open', 0.1], [1803, 'close', 0.1], [1900, 'open', 0.1],
    ]);
    const rows = await dealRows();
    expect(rows.length).toBe(booked + 3); // the withdrawal, order 11's round trip, 901's closed part
    expect(new Set(rows.map((r) => r.ticket)).size).toBe(rows.length);
    expect(rows.filter((r) => r.kind === 'trade').reduce((s, r) => s + Number(r.profit), 0)).toBeCloseTo(295, 2);
  });

  it('5. a close through the server is run by OrderClose on the open rest of a partly closed order: gone from the terminal and the server, its out deal booked', async () => {
    const run = (third = start(later, 'third'));
    await waitFor('the session', () => run.lines.find((l) => l.includes('session started')));
    const close = await http<{ message: string }>(server, 'POST', '/api/positions/close-by-symbol', {
      key: admin,
      body: { category: 'Forex', symbol: 'EURUSD', direction: 'short', currency: 'EUR', portfolio: 'SMA' },
    });
    expect(close.status).toBe(200);
    // Position 901 is open in MT4 as ticket 950 ("from #901"): the EA finds it by its first ticket.
    await waitFor('the terminal to close 950', () => openOrdersOf(run).length === 1 && openOrdersOf(run)[0]!.ticket === 900);
    await waitFor('the server to drop 901', async () =>
      (await one<{ n: number }>('SELECT count(*)::int AS n FROM positions WHERE account_id = $1 AND identifier = 901', [accountId])).n === 0);
    await waitFor("950's out deal on the server", async () =>
      (await brokerDeals()).some((d) => d.ticket === 1901 && d.position_id === 901 && d.entry === 'close' && d.volume === 0.1));
    expect(await stopEa(run)).toBe(0);
    expect(run.lines.some((l) => /command close .*: done Order #950 closed 0\.1 lots at 1\.0825/.test(l))).toBe(true);
  });

  it("6. a copy order ('open', as the copy engine queues it) is run by OrderSend and its order reported as a copy", async () => {
    // The terminal as scenario 5 left it.
    const left = fs.readFileSync(third.out, 'utf8').split('\n').filter((l) => /^(account|order|global) /.test(l));
    const run = (fourth = start([`clock ${OFFSET_MIN}`, 'symbol EURUSD.m 1.0823 1.0825', ...left], 'fourth'));
    await waitFor('the session', () => run.lines.find((l) => l.includes('session started')));
    const id = randomUUID();
    const payload = { symbol: 'EURUSD', type: 'buy', volume: 0.3, sl: 0, tp: 1.1, master_position_id: 4242, master_login: '51234567', master_server: 'Pepperstone-Live01' };
    await insertCommands(server.app.db, [{ id, agentId, accountId, kind: 'open', payload, createdAt: new Date(), expiresAt: new Date(Date.now() + 30_000) }]);
    const command = await waitFor('the answer', async () => {
      const row = await one<{ state: string; message: string | null }>('SELECT state, message FROM commands WHERE id = $1', [id]);
      return row.state === 'done' ? row : undefined;
    });
    expect(command.message).toMatch(/^Order #\d+ opened$/);
    const ticket = Number(/#(\d+)/.exec(command.message!)![1]);
    const row = await waitFor('the copy on the server', async () =>
      (await server.app.db.query<{ type: string; quantity: number; price_open: number; tp: number; copy_of: number }>(
        'SELECT type, quantity::float AS quantity, price_open::float AS price_open, tp::float AS tp, copy_of::int AS copy_of FROM positions WHERE account_id = $1 AND identifier = $2',
        [accountId, ticket],
      ))[0]);
    expect(row).toEqual({ type: 'Buy', quantity: 0.3, price_open: 1.0825, tp: 1.1, copy_of: 4242 });
    expect(await stopEa(run)).toBe(0);
    expect(fs.readFileSync(run.out, 'utf8')).toContain(`order ${ticket} EURUSD.m 0 0.3 `);
  });

  it('7. two partial closes (close commands with a volume): MT4 moves the rest to new tickets, the server keeps one position 900', async () => {
    const left = fs.readFileSync(fourth.out, 'utf8').split('\n').filter((l) => /^(account|order|global) /.test(l));
    const run = start([`clock ${OFFSET_MIN}`, 'symbol EURUSD.m 1.0823 1.0825', ...left], 'fifth');
    await waitFor('the session', () => run.lines.find((l) => l.includes('session started')));
    const closePart = async (volume: number) => {
      const id = randomUUID();
      await insertCommands(server.app.db, [{ id, agentId, accountId, kind: 'close', payload: { identifier: 900, volume }, createdAt: new Date(), expiresAt: new Date(Date.now() + 30_000) }]);
      return waitFor(`the close of ${volume}`, async () => {
        const row = await one<{ state: string; message: string | null }>('SELECT state, message FROM commands WHERE id = $1', [id]);
        return row.state !== 'sent' && row.state !== 'pending' ? row : undefined;
      });
    };
    expect(await closePart(0.2)).toMatchObject({ state: 'done', message: 'Order #900 closed 0.2 lots at 1.0823' });
    const second = await closePart(0.1);
    expect(second.state).toBe('done');
    const rest = Number(/#(\d+)/.exec(second.message!)![1]); // the first rest's ticket, closed in part in its turn
    await waitFor('position 900 at 0.2 lot on the server', async () =>
      Number((await one<{ q: number }>('SELECT quantity::float AS q FROM positions WHERE account_id = $1 AND identifier = 900', [accountId])).q) === 0.2);
    await waitFor('the deals of 900', async () => (await brokerDeals()).filter((d) => d.position_id === 900).length === 5);
    expect(await stopEa(run)).toBe(0);
    const last = Math.max(...(await brokerDeals()).filter((d) => d.position_id === 900).map((d) => d.ticket));
    expect((await brokerDeals()).filter((d) => d.position_id === 900).map((d) => [d.ticket, d.entry, d.volume])).toEqual([
      [1800, 'open', 0.2], [1801, 'close', 0.2], [rest * 2, 'open', 0.1], [rest * 2 + 1, 'close', 0.1], [last, 'open', 0.2],
    ]);
    expect(last % 2).toBe(0);
    const others = () => server.app.db.query('SELECT 1 FROM positions WHERE account_id = $1 AND identifier <> 900 AND copy_of IS NULL', [accountId]);
    expect(await others()).toHaveLength(0);
    // After a restart the rest is still position 900: the EA kept the first ticket in a terminal global variable.
    const kept = fs.readFileSync(run.out, 'utf8').split('\n').filter((l) => /^(account|order|global) /.test(l));
    latest = kept;
    expect(kept.some((l) => l.startsWith('global CopyMonitor.'))).toBe(true);
    const again = start([`clock ${OFFSET_MIN}`, 'symbol EURUSD.m 1.0823 1.0825', ...kept], 'sixth');
    await waitFor('two batches of the new session', () => again.lines.find((l) => l.includes('session started')));
    await new Promise((r) => setTimeout(r, 2500));
    expect(await stopEa(again)).toBe(0);
    expect(Number((await one<{ q: number }>('SELECT quantity::float AS q FROM positions WHERE account_id = $1 AND identifier = 900', [accountId])).q)).toBe(0.2);
    expect(await others()).toHaveLength(0);
  });

  it('8. a resync answer starts a new session with a full snapshot, and the EA carries on', async () => {
    const run = start([`clock ${OFFSET_MIN}`, 'symbol EURUSD.m 1.0823 1.0825', ...latest], 'seventh');
    await waitFor('the session', () => run.lines.find((l) => l.includes('session started')));
    // Another session of the same key takes over the agent's sequence: the EA's next batch is a gap.
    const other = await http(server, 'POST', '/api/ingest/v1/batches', {
      headers: { 'x-agent-key': key },
      body: { session: randomUUID(), seq: 1, batch_id: randomUUID(), utc_offset_minutes: OFFSET_MIN, sent_at: Date.now(), accounts: [] },
    });
    expect(other.status).toBe(200);
    await waitFor('the resync', () => run.lines.find((l) => l.includes('new session (the server asked for a resync)')));
    await waitFor('a second session started', () => run.lines.filter((l) => l.includes('session started')).length >= 2);
    // The new session's snapshot was applied: a TP/SL edit still reaches the terminal, on both long
    // positions (the open rest of 900 and the copy of scenario 6).
    const edit = await editTpSl('long', 1.096, 1.071);
    expect(edit.status).toBe(200);
    expect(edit.body.message).toBe('Take profit 1.096 and stop loss 1.071 set on 2 positions of EURUSD.');
    expect(await stopEa(run)).toBe(0);
    const open = openOrdersOf(run);
    expect(open).toHaveLength(2);
    for (const order of open) expect(order).toMatchObject({ tp: 1.096, sl: 1.071 });
  });

  it('9. a key the server does not accept (401): the EA says so and stops sending', async () => {
    const run = start(latest, 'eighth', newToken());
    await waitFor('the refusal', () => run.lines.find((l) => l.includes('the agent key is not accepted (401): stopped sending')));
    const seen = run.lines.length;
    await new Promise((r) => setTimeout(r, 2500));
    expect(await stopEa(run)).toBe(0);
    expect(run.lines.slice(seen).filter((l) => /401|session started|retrying/.test(l))).toEqual([]);
  });
});
