/**
 * An account fed by the EA is indistinguishable from one fed by the reference agent (src/agent,
 * `runAsAgent`, as `npm run agent -- simulate` runs it): the same simulated terminal (its state,
 * open positions, deals and quotes) reaches one account through ea/CopyMonitor.mq5 and another through
 * the Node agent, and the API answers alike for both apart from the account's identity:
 * accounts/info, the live positions feed, the deal history, the historical NAV.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { IngestDeal, IngestPosition } from '#shared/contract/ingest.ts';
import { runAsAgent, type Terminals } from '#agent/reporter.ts';
import { insertBroker } from '#server/db/accounts-repo.ts';
import { grantAccount, insertAgent } from '#server/db/agents-repo.ts';
import { setSymbol } from '#server/db/symbol-map-repo.ts';
import { hashToken, newToken } from '#server/auth/tokens.ts';
import { http, startServer, type TestServer } from '../integration/helpers/server.ts';
import { connect, ticket } from '../integration/helpers/ws.ts';
import { OFFSET_MIN, brokerAgo, buildDriver, closeSuite, insertMasterAccount, loginOps, startEa, stopEa, waitFor, type EaRun } from './harness.ts';

const SERVER = 'Pepperstone-Live01';
const EA_LOGIN = '51234567';
const AGENT_LOGIN = '51234568';
const DAY = 86_400;

/** The simulated terminal, in the driver's format (tests/ea/driver.cpp), for a login. */
const terminalOf = (login: string) => {
  const old = brokerAgo(30 * DAY);
  return [
    `account ${login} ${SERVER} EUR 100 10250.5 10310.25 220 10090.25`,
    `clock ${OFFSET_MIN}`,
    'symbol EURUSD.m 1.0823 1.0825 1',
    `position 900 900 EURUSD.m buy 0.5 1.0812 1.0824 0 1.09 59.75 0 ${brokerAgo(7200)} 0 manual`,
    `position 901 901 EURUSD.m sell 0.2 1.0850 1.0825 1.1 0 50 -1.2 ${brokerAgo(7000)} 0`,
    `deal 1 0 0 ${old} 2 0 - 0 0 0 0 0 10000 Deposit`,
    `deal 2 2 200 ${old + 60} 0 0 EURUSD.m 1 1.1 -3 0 0 0`,
    `deal 3 3 200 ${old + 3600} 1 1 EURUSD.m 1 1.105 -3 0 -1.5 500`,
    `deal 4 4 201 ${brokerAgo(10_800)} 1 0 EURUSD.m 0.5 1.09 0 0 0 0`,
    `deal 5 5 201 ${brokerAgo(9000)} 0 1 EURUSD.m 0.5 1.095 0 0 0 -250`,
    `deal 6 6 900 ${brokerAgo(7200)} 0 0 EURUSD.m 0.5 1.0812 0 0 0 0`,
    `deal 7 7 901 ${brokerAgo(7000)} 1 0 EURUSD.m 0.2 1.0850 0 0 0 0`,
    `deal 8 0 0 ${brokerAgo(600)} 2 0 - 0 0 0 0 0 -500 Withdrawal`,
  ];
};

/**
 * The same terminal as the reference agent's `Terminals`: what the EA reads through the MQL5 calls,
 * in the contract's words. The reference agent sends UTC (utc_offset_minutes 0): broker times − 2 h.
 */
function agentTerminals(lines: string[]): Terminals {
  const utc = (brokerTime: string) => Number(brokerTime) - OFFSET_MIN * 60;
  const rest = (f: string[], from: number) => f.slice(from).join(' ');
  const account = lines.find((l) => l.startsWith('account '))!.split(' ');
  const symbol = lines.find((l) => l.startsWith('symbol '))!.split(' ');
  const positions: IngestPosition[] = lines.filter((l) => l.startsWith('position ')).map((l) => {
    const f = l.split(' ');
    return {
      identifier: Number(f[2]), ticket: Number(f[1]), symbol: f[3]!, type: f[4] as 'buy' | 'sell', volume: Number(f[5]),
      price_open: Number(f[6]), price_current: Number(f[7]), sl: Number(f[8]), tp: Number(f[9]), profit: Number(f[10]), swap: Number(f[11]),
      time: utc(f[12]!), comment: rest(f, 14),
    };
  });
  const deals: IngestDeal[] = lines.filter((l) => l.startsWith('deal ')).map((l) => {
    const f = l.split(' ');
    return {
      ticket: Number(f[1]), order: Number(f[2]), position_id: Number(f[3]), time: utc(f[4]!), type: Number(f[5]),
      entry: (['in', 'out', 'inout', 'out_by'] as const)[Number(f[6])]!, symbol: f[7] === '-' ? '' : f[7]!, volume: Number(f[8]), price: Number(f[9]),
      commission: Number(f[10]), fee: Number(f[11]), swap: Number(f[12]), profit: Number(f[13]), comment: rest(f, 14),
    };
  });
  return {
    accountCount: 1,
    read: async (cursor) => ({
      reports: [{
        login: account[1]!, server: account[2]!,
        state: { currency: account[3]!, leverage: Number(account[4]), balance: Number(account[5]), equity: Number(account[6]), margin: Number(account[7]), free_margin: Number(account[8]) },
        positions: { full: true, open: positions, closed: [] },
        quotes: [{ symbol: symbol[1]!, bid: Number(symbol[2]), ask: Number(symbol[3]) }],
        deals: cursor === 0 ? deals : [],
      }],
      next: 1,
    }),
  };
}

describe('an account fed by the EA and one fed by the reference agent, with the same trades', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ea-parity-'));
  let driver: string;
  let server: TestServer;
  let user: string;
  const keys = { ea: newToken(), agent: newToken() };
  const ids = { ea: 0, agent: 0 };
  let run: EaRun | undefined;
  const stopAgent = new AbortController();
  let agentDone: Promise<number> | undefined;

  beforeAll(async () => {
    driver = await buildDriver(dir);
    server = await startServer('pglite', { demo: false });
    const db = server.app.db;
    const broker = await insertBroker(db, { broker_name: 'Pepperstone', img_path: '', spread_pips: 0, latency_ms: 0, commission_per_lot: 0, rebate_per_lot: 0 });
    await setSymbol(db, broker, 'EURUSD.m', 'EURUSD');
    const account = (login: string, name: string) =>
      insertMasterAccount(db, { account_id: `pepperstone-${login}`, account: login, account_name: name, broker_id: broker, server: SERVER, server_name: 'Pepperstone Live 01' });
    ids.ea = await account(EA_LOGIN, 'Fed by the EA');
    ids.agent = await account(AGENT_LOGIN, 'Fed by the agent');
    await grantAccount(db, await insertAgent(db, 'mt5-ea', hashToken(keys.ea)), ids.ea, 'read');
    await grantAccount(db, await insertAgent(db, 'reference-agent', hashToken(keys.agent)), ids.agent, 'read');
    user = await loginOps(server, ['write']);
  }, 180_000);

  afterAll(() =>
    closeSuite(run ? [run] : [], server, dir, async () => {
      stopAgent.abort();
      await agentDone?.catch(() => undefined);
    }));

  const brokerDeals = async (accountId: number) =>
    (await server.app.db.query<{ n: number }>('SELECT count(*)::int AS n FROM broker_events WHERE account_id = $1', [accountId]))[0]!.n;

  it('both accounts are fed: the EA by its batches, the reference agent by its reports', async () => {
    // One terminal read off the clock once, for both: two readings a second apart would differ.
    const terminal = terminalOf(EA_LOGIN);
    const sameForAgent = terminal.map((line) => line.replace(` ${EA_LOGIN} `, ` ${AGENT_LOGIN} `));
    run = startEa(driver, dir, 'ea', { url: server.url, key: keys.ea }, terminal);
    agentDone = runAsAgent(agentTerminals(sameForAgent), { url: server.url, key: keys.agent, everyMs: 500, signal: stopAgent.signal });
    await waitFor('both histories on the server', async () => (await brokerDeals(ids.ea)) === 8 && (await brokerDeals(ids.agent)) === 8);
    // A few more reports from each, then both stop.
    await new Promise((r) => setTimeout(r, 2500));
    expect(await stopEa(run)).toBe(0);
    stopAgent.abort();
    expect(await agentDone).toBeGreaterThan(1);
  });

  /** An answer with the account's identity taken out (its logins, ids, names). */
  const anonymous = (value: unknown, login: string): unknown =>
    JSON.parse(
      JSON.stringify(value)
        .replaceAll(`pepperstone-${login}`, 'pepperstone-ACCOUNT')
        .replaceAll(login, 'ACCOUNT')
        .replaceAll(login === EA_LOGIN ? 'Fed by the EA' : 'Fed by the agent', 'NAME'),
    );
  const pair = async (probe: (login: string) => Promise<unknown>) => [anonymous(await probe(EA_LOGIN), EA_LOGIN), anonymous(await probe(AGENT_LOGIN), AGENT_LOGIN)];

  it('accounts/info gives both the same figures', async () => {
    const info = await http<{ data: Record<string, unknown>[] }>(server, 'GET', '/api/brokers/accounts/info', { key: user });
    expect(info.status).toBe(200);
    const [ea, agent] = await pair(async (login) => {
      const { id: _id, last_update: _seen, ping: _ping, ...row } = info.body.data.find((a) => a.account === login)!;
      return row;
    });
    expect(ea).toMatchObject({ balance: 10_250.5, equity: 10_310.25, margin: 220 });
    expect(ea).toEqual(agent);
  });

  it('the live positions feed shows both the same positions', async () => {
    const [ea, agent] = await pair(async (login) => {
      const client = await connect(server, '/ws/brokers/live-positions-aggregate-by', { token: await ticket(server, user), portfolio: 'SMA', aggregate_by: 'account', account: login });
      if (!client.messages.length) {
        const closed = await Promise.race([client.next(), client.closed.then((c) => new Error(`closed ${c.code} ${c.reason}`))]);
        if (closed instanceof Error) throw closed;
      }
      client.socket.close();
      const { timestamp: _t, ...message } = client.messages[0] as Record<string, unknown>;
      return message;
    });
    expect(JSON.stringify(ea)).toContain('EURUSD');
    expect(ea).toEqual(agent);
  });

  it('the deal history and its statistics are the same', async () => {
    const [ea, agent] = await pair(async (login) => {
      const res = await http(server, 'GET', `/api/brokers/historical-deals?account=${login}`, { key: user });
      expect(res.status).toBe(200);
      return res.body;
    });
    expect(JSON.stringify(ea)).toContain('Deposit');
    expect(ea).toEqual(agent);
  });

  it('the historical NAV rows are the same', async () => {
    const nav = await http<{ data: Record<string, unknown>[] }>(server, 'GET', '/api/brokers/accounts/historical_infos', { key: user });
    expect(nav.status).toBe(200);
    const [ea, agent] = await pair(async (login) => nav.body.data.filter((r) => JSON.stringify(r).includes(login)));
    expect((ea as unknown[]).length).toBeGreaterThan(0);
    expect(ea).toEqual(agent);
  });
});
