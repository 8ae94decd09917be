/**
 * The MT4 EA on what a real MetaTrader 4 does (docs/ea.md, 'MetaTrader 4'): an ECN account
 * (market execution) refuses an OrderSend that carries SL/TP, so they are set by OrderModify once the
 * order is open; lots go to the symbol's lot step; a URL missing from the WebRequest allow-list is
 * MQL4's error 4060; the inputs dialog after a refused key starts the EA again; a terminal just
 * launched sends no snapshot before it is connected and loaded; what the server refuses with 400 is
 * left out once; and a deposit made over a weekend is reported.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newToken } from '#server/auth/tokens.ts';
import { OFFSET_MIN, Proxy, brokerAgo, buildDriver, closeSuite, inTerminal, operatorServer, startEa, stopEa, waitFor, type EaOptions, type EaRun, type OperatorServer } from './harness.ts';

const SERVER = 'ICMarkets-Live07';
const HOUR = 3600;
const DAY = 86_400;

interface Sent {
  accounts: { login: string; state?: { connected?: boolean; trade_allowed?: boolean }; positions?: { full: boolean; open: { identifier: number }[] } }[];
  dropped?: { item: string; reason: string }[];
}

describe('the MetaTrader 4 Expert Advisor on a real MetaTrader 4', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ea4-terminal-'));
  let driver: string;
  let op: OperatorServer;
  let proxy: Proxy;
  const runs: EaRun[] = [];

  // order <ticket> <symbol> <type> <lots> <open time> <open price> <sl> <tp> <close time> <close price> <commission> <swap> <profit> <magic> [comment]
  const terminal = (login: string, symbol = 'symbol EURUSD.m 1.0823 1.0825') => [
    `account ${login} ${SERVER} EUR 100 10250.5 10310.25 220 10090.25`,
    'company IC Markets Ltd',
    `clock ${OFFSET_MIN}`,
    symbol,
    `order 1 - 6 0 ${brokerAgo(30 * DAY)} 0 0 0 ${brokerAgo(30 * DAY)} 0 0 0 10000 0 Deposit`,
    `order 900 EURUSD.m 0 0.5 ${brokerAgo(2 * HOUR)} 1.0812 0 1.09 0 1.0824 0 0 59.75 0 manual`,
    `order 901 EURUSD.m 1 0.2 ${brokerAgo(2 * HOUR - 200)} 1.085 0 0 0 1.0825 0 -1.2 50 0`,
  ];
  const ea = (name: string, key: string, lines: string[], options: EaOptions = {}) => {
    const run = startEa(driver, dir, name, { url: proxy.url, key }, lines, options);
    runs.push(run);
    return run;
  };
  const sessionStarted = (run: EaRun) => waitFor('the session', () => run.lines.some((l) => l.includes('session started')));
  /** The open orders of the simulated terminal as the driver last wrote it. */
  const openOrders = (run: EaRun) =>
    fs.existsSync(run.out)
      ? fs.readFileSync(run.out, 'utf8').split('\n').filter((l) => l.startsWith('order ')).map((l) => {
          const f = l.split(' ');
          return { ticket: Number(f[1]), lots: Number(f[4]), sl: Number(f[7]), tp: Number(f[8]), closed: Number(f[9]) !== 0, comment: f.slice(15).join(' ').trim() };
        }).filter((o) => !o.closed)
      : [];
  const sentFrom = (from: number) => proxy.requests.slice(from).filter((r) => r.path === '/api/ingest/v1/batches').map((r) => JSON.parse(r.body) as Sent);

  beforeAll(async () => {
    driver = await buildDriver(dir, 'driver4');
    op = await operatorServer('IC Markets');
    proxy = new Proxy(Number(new URL(op.server.url).port));
    await proxy.start();
  }, 180_000);

  afterAll(() => closeSuite(runs, op?.server, dir, async () => proxy?.stop().catch(() => undefined)));

  it('on an ECN account an open is sent without SL/TP, which OrderModify sets; lots go to the lot step; the answer names the ticket', async () => {
    const login = '7010001';
    const accountId = await op.account(login, SERVER);
    const agent = await op.agent('mt4-ecn', accountId);
    const run = ea('ecn', agent.key, terminal(login, 'symbol EURUSD.m 1.0823 1.0825 digits 5 volmin 0.01 volmax 50 volstep 0.01 stops 30 exemode market'));
    await sessionStarted(run);
    const id = await op.command(agent.id, accountId, 'open', {
      symbol: 'EURUSD', type: 'buy', volume: 0.237, sl: 1.0712349, tp: 1.0954321, master_position_id: 4242, master_login: '51234567', master_server: 'Pepperstone-Live01',
    });
    const answer = await op.answered(id);
    expect(answer.state).toBe('done');
    const copy = await waitFor('the copy in the terminal', () => openOrders(run).find((o) => o.comment === 'cm#4242'));
    expect(copy).toMatchObject({ lots: 0.24, sl: 1.07123, tp: 1.09543 });
    expect(answer.identifier).toBe(copy.ticket);
    expect(answer.message).toBe(`Order #${copy.ticket} opened`);
    // Stops inside the stop level are refused before anything is opened.
    const inside = await op.answered(await op.command(agent.id, accountId, 'open', {
      symbol: 'EURUSD', type: 'buy', volume: 0.1, sl: 1.0821, tp: 0, master_position_id: 4243, master_login: '51234567', master_server: 'Pepperstone-Live01',
    }));
    expect(inside.state).toBe('rejected');
    expect(inside.message).toMatch(/^invalid stops \[130\]/);
    // A close of part of an order goes to the lot step too.
    const part = await op.answered(await op.command(agent.id, accountId, 'close', { identifier: 900, volume: 0.123 }));
    expect(part).toMatchObject({ state: 'done', message: 'Order #900 closed 0.12 lots at 1.0823' });
    expect(openOrders(run).filter((o) => o.comment === 'cm#4243')).toEqual([]);
    expect(await stopEa(run)).toBe(0);
  });

  it('a URL missing from the WebRequest allow-list is said with MQL4\'s error 4060 and where to add it', async () => {
    const login = '7010002';
    const accountId = await op.account(login, SERVER);
    const agent = await op.agent('mt4-not-allowed', accountId);
    const run = ea('not-allowed', agent.key, terminal(login), { allow: false });
    const line = await waitFor('the hint', () => run.lines.find((l) => l.includes('WebRequest')));
    expect(line).toContain(`WebRequest is not allowed for ${proxy.url} (error 4060)`);
    expect(line).toContain('Tools > Options > Expert Advisors');
    expect(await stopEa(run)).toBe(0);
  });

  it('after a refused key (401), the key fixed in the inputs dialog starts the EA again', async () => {
    const login = '7010003';
    const accountId = await op.account(login, SERVER);
    const agent = await op.agent('mt4-reinit', accountId);
    const run = ea('reinit', newToken(), terminal(login));
    await waitFor('the refusal', () => run.lines.some((l) => l.includes('the agent key is not accepted (401): stopped sending')));
    await inTerminal(run, [`reinit input.key ${agent.key}`]);
    await sessionStarted(run);
    await waitFor('both orders on the server', async () => (await op.positions(accountId)).length === 2);
    expect(await stopEa(run)).toBe(0);
    expect(run.lines.join('\n')).not.toContain(agent.key);
  });

  it('a terminal just launched: no snapshot before it is connected, knows the account and has loaded its orders', async () => {
    const login = '7010004';
    const accountId = await op.account(login, SERVER);
    const agent = await op.agent('mt4-startup', accountId);
    const first = ea('startup-1', agent.key, terminal(login));
    await waitFor('both orders on the server', async () => (await op.positions(accountId)).length === 2);
    expect(await stopEa(first)).toBe(0);
    const from = proxy.requests.length;
    const second = ea('startup-2', agent.key, [...terminal(login), 'startup 2 4', 'input.settle 3']);
    await sessionStarted(second);
    await new Promise((r) => setTimeout(r, 1500));
    expect(await stopEa(second)).toBe(0);
    const sent = sentFrom(from);
    // Nothing named another account while the terminal did not know its own (login 0).
    expect([...new Set(sent.flatMap((b) => b.accounts.map((a) => a.login)))]).toEqual([login]);
    const snapshots = sent.flatMap((b) => b.accounts).filter((a) => a.positions?.full);
    expect(snapshots.length).toBeGreaterThan(0);
    for (const s of snapshots) expect(s.positions!.open.map((p) => p.identifier).sort()).toEqual([900, 901]);
    for (const a of sent.flatMap((b) => b.accounts)) expect(a.state).toMatchObject({ connected: true, trade_allowed: true });
    const alerts = await op.server.app.db.query<{ message: string }>('SELECT message FROM alerts WHERE account_id = $1', [accountId]);
    expect(alerts.filter((a) => a.message.includes('reported no open position'))).toEqual([]);
  });

  it('a closed order the server refuses (closed 20 hours ahead of its clock) is left out once and reported; the rest arrives', async () => {
    const login = '7010005';
    const accountId = await op.account(login, SERVER);
    const agent = await op.agent('mt4-refused', accountId);
    const from = proxy.requests.length;
    const run = ea('refused', agent.key, [
      ...terminal(login),
      `order 20 EURUSD.m 0 0.1 ${brokerAgo(3 * HOUR)} 1.08 0 0 ${brokerAgo(-20 * HOUR)} 1.082 0 0 20 0`,
      `order 21 - 6 0 ${brokerAgo(HOUR)} 0 0 0 ${brokerAgo(HOUR)} 0 0 0 300 0 Deposit`,
    ]);
    await waitFor('the deposit on the server', async () => (await op.deals(accountId)).some((d) => d.ticket === 42));
    // (the proxy keeps a request once its connection has closed, which may come after the server applied it)
    await waitFor('the batch that reports it left out', () => sentFrom(from).some((b) => b.dropped?.length));
    // Two pushes more: nothing is said or reported again.
    const after = proxy.requests.length;
    await waitFor('two batches more', () => sentFrom(after).length >= 2);
    expect(await stopEa(run)).toBe(0);
    expect((await op.deals(accountId)).map((d) => d.ticket)).not.toContain(41);
    expect(run.lines.filter((l) => l.includes('deal 41'))).toHaveLength(1);
    const dropped = sentFrom(from).flatMap((b) => b.dropped ?? []);
    expect(dropped.map((d) => d.item)).toEqual([`${login}@${SERVER} deal 41`]);
    // The agent's status on the server names it (npm run admin -- agent list, column LEFT OUT).
    expect((await op.one<{ dropped: unknown }>('SELECT dropped FROM agent_sessions WHERE agent_id = $1', [agent.id])).dropped).toEqual(dropped);
  });

  it('a terminal holding 520 open orders: at most 500 a batch, the rest in the next; all arrive with their in deals, nothing refused', async () => {
    const login = '7010007';
    const accountId = await op.account(login, SERVER);
    const agent = await op.agent('mt4-many', accountId);
    const tickets = Array.from({ length: 520 }, (_, i) => 20_000 + i);
    const from = proxy.requests.length;
    const run = ea('many', agent.key, [
      `account ${login} ${SERVER} EUR 100 10000 10000 0 10000`, `clock ${OFFSET_MIN}`, 'symbol EURUSD.m 1.0823 1.0825',
      ...tickets.map((t) => `order ${t} EURUSD.m 0 0.01 ${brokerAgo(HOUR)} 1.08 0 0 0 1.0823 0 0 0.23 0`),
    ]);
    await waitFor('520 positions on the server', async () => (await op.positions(accountId)).length === 520, 20_000);
    await waitFor('their 520 in deals', async () => (await op.deals(accountId)).length === 520, 20_000);
    expect(await stopEa(run)).toBe(0);
    for (const a of sentFrom(from).flatMap((b) => b.accounts).filter((a) => a.positions)) expect(a.positions!.open.length).toBeLessThanOrEqual(500);
    expect(run.lines.filter((l) => l.includes('refused'))).toEqual([]);
  });

  it('a deposit made over a weekend is reported, though TimeCurrent() stands at Friday evening', async () => {
    const login = '7010006';
    const accountId = await op.account(login, SERVER);
    const agent = await op.agent('mt4-weekend', accountId);
    const first = ea('weekend-1', agent.key, terminal(login));
    await waitFor('the history on the server', async () => (await op.deals(accountId)).length === 3);
    expect(await stopEa(first)).toBe(0);
    const second = ea('weekend-2', agent.key, [
      ...terminal(login), `lasttick ${brokerAgo(50 * HOUR)}`, `order 30 - 6 0 ${brokerAgo(HOUR)} 0 0 0 ${brokerAgo(HOUR)} 0 0 0 500 0 Weekend deposit`,
    ]);
    await waitFor('the weekend deposit on the server', async () => (await op.deals(accountId)).some((d) => d.ticket === 60), 15_000);
    expect(await stopEa(second)).toBe(0);
  });
});
