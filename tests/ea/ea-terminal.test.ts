/**
 * The MT5 EA and what its terminal goes through (docs/ea.md, 'What it does'): a terminal that is
 * starting (not connected, no positions yet), a connection lost and back, a weekend (TimeCurrent()
 * stands at Friday's last quote), a history longer than a batch in no particular order, a position
 * closed while the EA was off, the inputs dialog after a refused key, and a URL missing from the
 * WebRequest allow-list. The EA reaches the server through a proxy that keeps every request it made.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newToken } from '#server/auth/tokens.ts';
import { OFFSET_MIN, Proxy, brokerAgo, buildDriver, closeSuite, inTerminal, operatorServer, startEa, stopEa, waitFor, type EaOptions, type EaRun, type OperatorServer } from './harness.ts';

const SERVER = 'Pepperstone-Live01';
const HOUR = 3600;
const DAY = 86_400;

interface Batch {
  accounts: { login: string; state?: { connected?: boolean; trade_allowed?: boolean }; positions?: { full: boolean; open: { identifier: number }[]; closed: number[] }; deals?: { items: { ticket: number; position_id: number; entry: string }[] } }[];
}

describe('the MetaTrader 5 Expert Advisor and its terminal', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ea-terminal-'));
  let driver: string;
  let op: OperatorServer;
  let proxy: Proxy;
  const runs: EaRun[] = [];

  /** A terminal of `login`: two open positions and their in deals, an old deposit. */
  const terminal = (login: string) => [
    `account ${login} ${SERVER} EUR 100 10250.5 10310.25 220 10090.25`,
    `clock ${OFFSET_MIN}`,
    'symbol EURUSD.m 1.0823 1.0825 1',
    `position 900 900 EURUSD.m buy 0.5 1.0812 1.0824 0 1.09 59.75 0 ${brokerAgo(2 * HOUR)} 0 manual`,
    `position 901 901 EURUSD.m sell 0.2 1.0850 1.0825 0 0 50 -1.2 ${brokerAgo(2 * HOUR - 200)} 0`,
    `deal 1 0 0 ${brokerAgo(30 * DAY)} 2 0 - 0 0 0 0 0 10000 Deposit`,
    `deal 6 6 900 ${brokerAgo(2 * HOUR)} 0 0 EURUSD.m 0.5 1.0812 0 0 0 0`,
    `deal 7 7 901 ${brokerAgo(2 * HOUR - 200)} 1 0 EURUSD.m 0.2 1.0850 0 0 0 0`,
  ];
  const ea = (name: string, key: string, lines: string[], options: EaOptions = {}) => {
    const run = startEa(driver, dir, name, { url: proxy.url, key }, lines, options);
    runs.push(run);
    return run;
  };
  const sessionStarted = (run: EaRun, n = 1) => waitFor('the session', () => run.lines.filter((l) => l.includes('session started')).length >= n);
  /** The batches the proxy passed on from request `from` on, for `login`'s account. */
  const batchesOf = (login: string, from = 0) =>
    (proxy.requests.slice(from).filter((r) => r.path === '/api/ingest/v1/batches').map((r) => JSON.parse(r.body) as Batch))
      .filter((b) => b.accounts.some((a) => a.login === login))
      .map((b) => b.accounts.find((a) => a.login === login)!);
  const terminalState = (accountId: number) =>
    op.one<{ connected: boolean | null; trade_allowed: boolean | null }>('SELECT terminal_connected AS connected, trade_allowed FROM accounts WHERE id = $1', [accountId]);

  beforeAll(async () => {
    driver = await buildDriver(dir);
    op = await operatorServer();
    proxy = new Proxy(Number(new URL(op.server.url).port));
    await proxy.start();
  }, 180_000);

  afterAll(() => closeSuite(runs, op?.server, dir, async () => proxy?.stop().catch(() => undefined)));

  it('a terminal just launched: no snapshot before it is connected, knows the account and has loaded its positions', async () => {
    const login = '51230001';
    const accountId = await op.account(login, SERVER);
    const { key } = await op.agent('mt5-startup', accountId);
    const first = ea('startup-1', key, terminal(login));
    await waitFor('both positions on the server', async () => (await op.positions(accountId)).length === 2);
    expect(await stopEa(first)).toBe(0);

    // The terminal is launched with the EA on its chart: it connects at the second timer and has its
    // positions at the fourth; the EA waits its settle delay (3 s, the default) after the connection.
    const from = proxy.requests.length;
    const second = ea('startup-2', key, [...terminal(login), 'startup 2 4', 'input.settle 3']);
    await sessionStarted(second);
    await new Promise((r) => setTimeout(r, 1500));
    expect(await stopEa(second)).toBe(0);

    const sent = batchesOf(login, from);
    const snapshots = sent.filter((a) => a.positions?.full);
    expect(snapshots.length).toBeGreaterThan(0);
    for (const snapshot of snapshots) expect(snapshot.positions!.open.map((p) => p.identifier).sort()).toEqual([900, 901]);
    // Nothing named another account while the terminal did not know its own (login 0).
    expect(proxy.requests.slice(from).filter((r) => r.path === '/api/ingest/v1/batches').every((r) => !r.body.includes('"login":"0"'))).toBe(true);
    const alerts = await op.server.app.db.query<{ message: string }>('SELECT message FROM alerts WHERE account_id = $1', [accountId]);
    expect(alerts.filter((a) => a.message.includes('reported no open position'))).toEqual([]);
    expect((await op.positions(accountId)).map((p) => [p.identifier, p.unconfirmed_since])).toEqual([[900, null], [901, null]]);
    expect(await terminalState(accountId)).toEqual({ connected: true, trade_allowed: true });
    for (const a of sent) expect(a.state).toMatchObject({ connected: true, trade_allowed: true });
  });

  it('a connection lost and back: the state says so, only the state is sent meanwhile, then a full snapshot again; Algo Trading off says trade_allowed false', async () => {
    const login = '51230002';
    const accountId = await op.account(login, SERVER);
    const { key } = await op.agent('mt5-reconnect', accountId);
    const run = ea('reconnect', key, terminal(login));
    await sessionStarted(run);
    await waitFor('both positions on the server', async () => (await op.positions(accountId)).length === 2);
    const from = proxy.requests.length;
    await inTerminal(run, ['disconnect 3']);
    await waitFor('the server told the terminal is not connected', async () => (await terminalState(accountId)).connected === false, 10_000);
    await waitFor('the server told it is connected again', async () => (await terminalState(accountId)).connected === true, 15_000);
    await waitFor('a full snapshot after the reconnection', () => batchesOf(login, from).some((a) => a.state?.connected && a.positions?.full));
    // The Algo Trading button turned off: the terminal may no longer trade, and the server is told.
    await inTerminal(run, ['algo 0']);
    await waitFor('the server told trading is not allowed', async () => (await terminalState(accountId)).trade_allowed === false, 10_000);
    expect(await stopEa(run)).toBe(0);
    const sent = batchesOf(login, from);
    const offline = sent.filter((a) => a.state?.connected === false);
    expect(offline.length).toBeGreaterThan(0);
    for (const a of offline) expect(a.positions === undefined && a.deals === undefined).toBe(true);
    expect((await op.positions(accountId)).map((p) => [p.identifier, p.unconfirmed_since])).toEqual([[900, null], [901, null]]);
  });

  it('deals made over a weekend are reported, though TimeCurrent() stands at Friday evening', async () => {
    const login = '51230003';
    const accountId = await op.account(login, SERVER);
    const { key } = await op.agent('mt5-weekend', accountId);
    const first = ea('weekend-1', key, terminal(login));
    await waitFor('the history on the server', async () => (await op.deals(accountId)).length === 3);
    expect(await stopEa(first)).toBe(0);
    // The market closed 50 hours ago; a deposit an hour ago, while the EA was off.
    const second = ea('weekend-2', key, [...terminal(login), `lasttick ${brokerAgo(50 * HOUR)}`, `deal 20 0 0 ${brokerAgo(HOUR)} 2 0 - 0 0 0 0 0 500 Weekend deposit`]);
    await waitFor('the weekend deposit on the server', async () => (await op.deals(accountId)).some((d) => d.ticket === 20), 15_000);
    expect(await stopEa(second)).toBe(0);
  });

  it('a history of more deals than a batch, listed in no particular order, arrives whole', async () => {
    const login = '51230004';
    const accountId = await op.account(login, SERVER);
    const { key } = await op.agent('mt5-history', accountId);
    // 620 in deals, one every 10 minutes from ten days ago, listed in a shuffled order.
    const deals = Array.from({ length: 620 }, (_, i) => `deal ${5000 + i} ${5000 + i} ${5000 + i} ${brokerAgo(10 * DAY) + i * 600} 0 0 EURUSD.m 0.1 1.08 0 0 0 0`);
    let seed = 7;
    for (let i = deals.length - 1; i > 0; i--) {
      seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
      const j = seed % (i + 1);
      [deals[i], deals[j]] = [deals[j]!, deals[i]!];
    }
    const lines = [`account ${login} ${SERVER} EUR 100 10000 10000 0 10000`, `clock ${OFFSET_MIN}`, 'symbol EURUSD.m 1.0823 1.0825 1', ...deals];
    const run = ea('history', key, lines);
    await waitFor('620 deals on the server', async () => (await op.deals(accountId)).length === 620, 20_000);
    await waitFor('the batches of deals', () => run.lines.filter((l) => /sent \d+ deals/.test(l)).length >= 2);
    expect(await stopEa(run)).toBe(0);
    const sent = run.lines.filter((l) => /sent \d+ deals/.test(l)).map((l) => Number(/sent (\d+) deals/.exec(l)![1]));
    expect(sent.slice(0, 2)).toEqual([500, 120]);
  });

  it('a terminal holding 520 positions: at most 500 open and 500 closed a batch, the rest in the next; nothing refused', async () => {
    const login = '51230008';
    const accountId = await op.account(login, SERVER);
    const { key } = await op.agent('mt5-many', accountId);
    const ids = Array.from({ length: 520 }, (_, i) => 20_000 + i);
    const from = proxy.requests.length;
    const run = ea('many', key, [
      `account ${login} ${SERVER} EUR 100 10000 10000 0 10000`, `clock ${OFFSET_MIN}`, 'symbol EURUSD.m 1.0823 1.0825 1',
      ...ids.map((id) => `position ${id} ${id} EURUSD.m buy 0.01 1.08 1.0823 0 0 0.23 0 ${brokerAgo(HOUR)} 0`),
    ]);
    await waitFor('520 positions on the server', async () => (await op.positions(accountId)).length === 520, 20_000);
    // 510 of them gone at once (closed elsewhere, no deal seen yet): the EA reports them closed, 500 and then 10.
    await inTerminal(run, ids.slice(0, 510).map((id) => `drop ${id}`));
    await waitFor('10 positions left on the server', async () => (await op.positions(accountId)).length === 10, 20_000);
    await waitFor('the batch that closed the last of them', () => batchesOf(login, from).flatMap((a) => a.positions?.closed ?? []).length === 510);
    expect(await stopEa(run)).toBe(0);
    const sent = batchesOf(login, from).filter((a) => a.positions);
    for (const a of sent) expect(a.positions!.open.length <= 500 && a.positions!.closed.length <= 500).toBe(true);
    const snapshot = sent.findIndex((a) => a.positions!.full);
    expect(sent[snapshot]!.positions!.open).toHaveLength(500);
    expect(sent[snapshot + 1]!.positions!.open).toHaveLength(20);
    expect(run.lines.filter((l) => l.includes('refused'))).toEqual([]);
  });

  it('a position closed while the EA was off: the batch after the snapshot that leaves it out carries its closing deal', async () => {
    const login = '51230005';
    const accountId = await op.account(login, SERVER);
    const { key } = await op.agent('mt5-closed-off', accountId);
    const first = ea('closed-off-1', key, terminal(login));
    await waitFor('both positions on the server', async () => (await op.positions(accountId)).length === 2);
    expect(await stopEa(first)).toBe(0);
    const from = proxy.requests.length;
    const later = [...terminal(login).filter((l) => !l.startsWith('position 901 ')), `deal 30 30 901 ${brokerAgo(60)} 0 1 EURUSD.m 0.2 1.0825 0 0 0 50`];
    const second = ea('closed-off-2', key, later);
    await waitFor('901 closed on the server', async () => (await op.positions(accountId)).length === 1, 10_000);
    // (the proxy keeps a request once its connection has closed, which may come after the server applied it)
    await waitFor('the batch with its closing deal', () => batchesOf(login, from).some((a) => a.deals?.items.some((d) => d.ticket === 30)));
    expect(await stopEa(second)).toBe(0);
    const sent = batchesOf(login, from);
    const snapshot = sent.findIndex((a) => a.positions?.full && !a.positions.open.some((p) => p.identifier === 901));
    expect(snapshot).toBeGreaterThanOrEqual(0);
    const withDeal = sent.findIndex((a) => a.deals?.items.some((d) => d.ticket === 30 && d.entry === 'out'));
    expect(withDeal - snapshot).toBeGreaterThanOrEqual(0);
    expect(withDeal - snapshot).toBeLessThanOrEqual(1);
  });

  it('after a refused key (401), the key fixed in the inputs dialog starts the EA again (OnInit after REASON_PARAMETERS)', async () => {
    const login = '51230006';
    const accountId = await op.account(login, SERVER);
    const { key } = await op.agent('mt5-reinit', accountId);
    const wrong = newToken();
    const run = ea('reinit', wrong, terminal(login));
    await waitFor('the refusal', () => run.lines.some((l) => l.includes('the agent key is not accepted (401): stopped sending')));
    await inTerminal(run, [`reinit input.key ${key}`]);
    await sessionStarted(run);
    await waitFor('both positions on the server', async () => (await op.positions(accountId)).length === 2);
    expect(await stopEa(run)).toBe(0);
    expect(run.lines.join('\n')).not.toContain(key);
    expect(run.lines.join('\n')).not.toContain(wrong);
  });

  it('a URL missing from the WebRequest allow-list is said with MQL5\'s error 4014 and where to add it', async () => {
    const login = '51230007';
    const accountId = await op.account(login, SERVER);
    const { key } = await op.agent('mt5-not-allowed', accountId);
    const run = ea('not-allowed', key, terminal(login), { allow: false });
    const line = await waitFor('the hint', () => run.lines.find((l) => l.includes('WebRequest is not allowed')));
    expect(line).toContain(`WebRequest is not allowed for ${proxy.url} (error 4014)`);
    expect(line).toContain('Tools > Options > Expert Advisors');
    expect(await stopEa(run)).toBe(0);
  });
});
