/**
 * What the server refuses with 400 (docs/ea.md, 'Left out'): the MT5 EA leaves the item the server
 * names out of its reports (a deal, a position, or the account's whole part when the message names no
 * item), says so once in the Experts log, and reports it once in `dropped`; everything else goes on.
 * And text as MQL has it, UTF-16: comments in any script arrive as written, control characters the
 * server refuses are blanked, and a comment cut at 64 characters never splits a surrogate pair.
 * The EA reaches the server through a proxy that keeps every request it made.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OFFSET_MIN, Proxy, brokerAgo, buildDriver, closeSuite, inTerminal, operatorServer, startEa, stopEa, waitFor, type EaRun, type OperatorServer } from './harness.ts';

const SERVER = 'Pepperstone-Live01';
const HOUR = 3600;

interface Sent {
  accounts: { login: string; state?: { leverage: number }; positions?: { open: { identifier: number; comment?: string }[] }; deals?: { items: { ticket: number; comment?: string }[] } }[];
  dropped?: { item: string; reason: string }[];
}

describe('the MetaTrader 5 Expert Advisor and what the server refuses', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ea-refused-'));
  let driver: string;
  let op: OperatorServer;
  let proxy: Proxy;
  const runs: EaRun[] = [];
  const ea = (name: string, key: string, lines: string[]) => {
    const run = startEa(driver, dir, name, { url: proxy.url, key }, lines);
    runs.push(run);
    return run;
  };
  const sentFrom = (from: number) =>
    proxy.requests.slice(from).filter((r) => r.path === '/api/ingest/v1/batches').map((r) => JSON.parse(r.body) as Sent);
  /** What the server keeps on the agent as left out (null: nothing yet, or no batch of it taken yet). */
  const droppedOf = async (agentId: number) =>
    (await op.server.app.db.query<{ dropped: { item: string; reason: string }[] | null }>('SELECT dropped FROM agent_sessions WHERE agent_id = $1', [agentId]))[0]?.dropped ?? null;

  beforeAll(async () => {
    driver = await buildDriver(dir);
    op = await operatorServer();
    proxy = new Proxy(Number(new URL(op.server.url).port));
    await proxy.start();
  }, 180_000);

  afterAll(() => closeSuite(runs, op?.server, dir, async () => proxy?.stop().catch(() => undefined)));

  it('a position and a deal the server refuses are left out once each, said once, reported in dropped; the rest and later trades arrive; a leverage past 1:10,000 goes as 10,000', async () => {
    const login = '51250001';
    const accountId = await op.account(login, SERVER);
    const agent = await op.agent('mt5-refused-items', accountId);
    const from = proxy.requests.length;
    const run = ea('items', agent.key, [
      // 'Unlimited' leverage: past the server's 1:10,000, which would refuse the state.
      `account ${login} ${SERVER} EUR 2000000000 10250.5 10310.25 220 10090.25`,
      `clock ${OFFSET_MIN}`,
      'symbol EURUSD.m 1.0823 1.0825 1',
      `position 900 900 EURUSD.m buy 0.5 1.0812 1.0824 0 1.09 59.75 0 ${brokerAgo(2 * HOUR)} 0`,
      // 0.00005 lot: below what the server takes for an open position (0.0001).
      `position 902 902 EURUSD.m buy 0.00005 1.08 1.0823 0 0 0 0 ${brokerAgo(2 * HOUR)} 0`,
      `deal 6 6 900 ${brokerAgo(2 * HOUR)} 0 0 EURUSD.m 0.5 1.0812 0 0 0 0`,
      `deal 8 8 902 ${brokerAgo(2 * HOUR)} 0 0 EURUSD.m 0.00005 1.08 0 0 0 0`,
      // Dated 20 hours ahead: later than the server's clock allows (the broker's clock is at most 15 h ahead of UTC).
      `deal 77 0 0 ${brokerAgo(-20 * HOUR)} 2 0 - 0 0 0 0 0 100 Dated ahead`,
      `deal 78 0 0 ${brokerAgo(600)} 2 0 - 0 0 0 0 0 200 Deposit`,
    ]);
    await waitFor('the deals the server takes', async () => (await op.deals(accountId)).map((d) => d.ticket).join() === '6,8,78');
    expect((await op.positions(accountId)).map((p) => p.identifier)).toEqual([900]);
    // Not stuck: a trade made now reaches the server.
    await inTerminal(run, ['open 7100 EURUSD.m buy 0.1 1.0825']);
    await waitFor('the new position on the server', async () => (await op.positions(accountId)).some((p) => p.identifier === 7100));
    expect(await stopEa(run)).toBe(0);

    expect(run.lines.filter((l) => l.includes('position 902')).length).toBe(1);
    expect(run.lines.filter((l) => l.includes('deal 77')).length).toBe(1);
    expect(run.lines.find((l) => l.includes('position 902'))).toBe(`CopyMonitor: the server refused ${login}@${SERVER} position 902 (400): accounts.0.positions.open.1.volume: volume must be at least 0.0001 lot; left out of the reports`);
    const dropped = sentFrom(from).flatMap((b) => b.dropped ?? []);
    expect(dropped.map((d) => d.item)).toEqual([`${login}@${SERVER} position 902`, `${login}@${SERVER} deal 77`]);
    expect(dropped[0]!.reason).toMatch(/^accounts\.0\.positions\.open\.1\.volume: volume must be at least 0\.0001 lot/);
    expect(dropped[1]!.reason).toMatch(/^accounts\.0\.deals\.items\.\d+\.time: .* later than the server's clock allows/);
    expect(await droppedOf(agent.id)).toEqual([dropped[1]]);
    const states = sentFrom(from).flatMap((b) => b.accounts).filter((a) => a.login === login).map((a) => a.state);
    expect(states.length).toBeGreaterThan(0);
    for (const state of states) expect(state).toMatchObject({ leverage: 10_000 });
  });

  it('an account the server refuses as a whole (its currency) is held back: said once, reported in dropped, not sent again at once', async () => {
    const login = '51250002';
    const accountId = await op.account(login, SERVER);
    const agent = await op.agent('mt5-refused-account', accountId);
    const from = proxy.requests.length;
    const run = ea('account', agent.key, [`account ${login} ${SERVER} USD 100 10000 10000 0 10000`, `clock ${OFFSET_MIN}`, 'symbol EURUSD.m 1.0823 1.0825 1']);
    await waitFor('the refusal in the log', () => run.lines.some((l) => l.includes('is in EUR, not USD')));
    await waitFor('dropped on the server', async () => (await droppedOf(agent.id)) !== null);
    await new Promise((r) => setTimeout(r, 5000));
    expect(await stopEa(run)).toBe(0);
    expect(run.lines.filter((l) => l.includes('is in EUR, not USD'))).toHaveLength(1);
    const sent = sentFrom(from);
    expect(sent.filter((b) => b.accounts.some((a) => a.login === login))).toHaveLength(1);
    expect(sent.length).toBeGreaterThanOrEqual(2); // the refused batch, then batches without the account
    expect(await droppedOf(agent.id)).toEqual([{ item: `${login}@${SERVER}`, reason: `The account ${login} on ${SERVER} is in EUR, not USD.` }]);
    expect(sent.flatMap((b) => b.dropped ?? [])).toHaveLength(1);
  });

  it('text goes as UTF-16: comments arrive as written, C1 controls blanked, a cut at 64 characters keeps whole characters', async () => {
    const login = '51250003';
    const accountId = await op.account(login, SERVER);
    const agent = await op.agent('mt5-text', accountId);
    const from = proxy.requests.length;
    const long = `${'x'.repeat(63)}😀tail`;
    const run = ea('text', agent.key, [
      `account ${login} ${SERVER} EUR 100 10250.5 10310.25 220 10090.25`,
      `clock ${OFFSET_MIN}`,
      'symbol EURUSD.m 1.0823 1.0825 1',
      `position 900 900 EURUSD.m buy 0.5 1.0812 1.0824 0 1.09 59.75 0 ${brokerAgo(2 * HOUR)} 0 ${long}`,
      `deal 1 0 0 ${brokerAgo(3 * HOUR)} 2 0 - 0 0 0 0 0 10000 Пополнение счёта №7`,
      `deal 2 0 0 ${brokerAgo(3 * HOUR - 60)} 6 0 - 0 0 0 0 0 50 Bonus\u0085March ✓`,
      `deal 6 6 900 ${brokerAgo(2 * HOUR)} 0 0 EURUSD.m 0.5 1.0812 0 0 0 0 ${long}`,
    ]);
    await waitFor('the deals on the server', async () => (await op.deals(accountId)).length === 3);
    // (the proxy keeps a request once its connection has closed, which may come after the server applied it)
    await waitFor('the batches with the deals', () => sentFrom(from).flatMap((b) => b.accounts).flatMap((a) => a.deals?.items ?? []).length >= 3);
    expect(await stopEa(run)).toBe(0);
    const sent = sentFrom(from).flatMap((b) => b.accounts);
    const deals = new Map(sent.flatMap((a) => a.deals?.items ?? []).map((d) => [d.ticket, d.comment]));
    expect(deals.get(1)).toBe('Пополнение счёта №7');
    expect(deals.get(2)).toBe('Bonus March ✓');
    expect(deals.get(6)).toBe('x'.repeat(63));
    expect(sent.flatMap((a) => a.positions?.open ?? []).find((p) => p.identifier === 900)?.comment).toBe('x'.repeat(63));
  });
});
