/**
 * The MT5 EA's orders as a real trade server takes them (docs/ea.md, 'Commands'): volumes to the
 * symbol's lot step within its minimum and maximum, SL/TP to its digits, the filling the symbol allows,
 * and what cannot be done refused with the terminal's own words. An `open` done names the position it
 * opened. Commands are queued as the server queues them (src/server/broker/agent/agent-broker.ts).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OFFSET_MIN, brokerAgo, buildDriver, closeSuite, operatorServer, startEa, stopEa, terminalPositions, waitFor, type EaRun, type OperatorServer } from './harness.ts';

const LOGIN = '51240001';
const SERVER = 'Pepperstone-Live01';

describe('the MetaTrader 5 Expert Advisor trading as the symbol allows', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ea-orders-'));
  let driver: string;
  let op: OperatorServer;
  let accountId: number;
  let agentId: number;
  let run: EaRun;

  // EURUSD.m: 5 digits, 0.01 to 50 lots by 0.01, stops at least 30 points away; GBPUSD.m: Instant
  // execution with no filling flag; USDJPY.m: Market execution, IOC only.
  const terminal = [
    `account ${LOGIN} ${SERVER} EUR 100 10000 10000 0 10000`,
    `clock ${OFFSET_MIN}`,
    'symbol EURUSD.m 1.0823 1.0825 1 digits 5 volmin 0.01 volmax 50 volstep 0.01 stops 30 exemode market',
    'symbol GBPUSD.m 1.2701 1.2703 0 digits 5 exemode instant',
    'symbol USDJPY.m 151.201 151.213 2 digits 3 exemode market',
    `position 900 900 EURUSD.m buy 0.5 1.0812 1.0823 0 0 55 0 ${brokerAgo(3600)} 0 manual`,
    `deal 6 6 900 ${brokerAgo(3600)} 0 0 EURUSD.m 0.5 1.0812 0 0 0 0`,
  ];
  // One open per master position, ever (the server keeps no second): each its own master position.
  let master = 4241;
  const open = (payload: Record<string, unknown>) =>
    op.command(agentId, accountId, 'open', { type: 'buy', sl: 0, tp: 0, master_position_id: ++master, master_login: '70000001', master_server: SERVER, ...payload });

  beforeAll(async () => {
    driver = await buildDriver(dir);
    op = await operatorServer();
    accountId = await op.account(LOGIN, SERVER);
    const agent = await op.agent('mt5-orders', accountId);
    agentId = agent.id;
    run = startEa(driver, dir, 'orders', { url: op.server.url, key: agent.key }, terminal);
    await waitFor('the session', () => run.lines.some((l) => l.includes('session started')));
  }, 180_000);

  afterAll(() => closeSuite(run ? [run] : [], op?.server, dir));

  it('an open of 0.237 lot with SL/TP of 7 decimals is sent as 0.24 lot, SL/TP to 5 digits, and answered with its position', async () => {
    const id = await open({ symbol: 'EURUSD', volume: 0.237, sl: 1.0712349, tp: 1.0954321 });
    const answer = await op.answered(id);
    expect(answer).toMatchObject({ state: 'done', message: 'Request executed [10009]' });
    const copy = await waitFor('the copy in the terminal', () => terminalPositions(run).find((p) => p.comment === 'cm#4242'));
    expect(copy).toMatchObject({ symbol: 'EURUSD.m', volume: 0.24, sl: 1.07123, tp: 1.09543 });
    expect(answer.identifier).toBe(copy.identifier);
  });

  it('what the symbol cannot take is refused with the terminal\'s words: a volume below its minimum, stops inside its stops level', async () => {
    const tiny = await op.answered(await open({ symbol: 'EURUSD', volume: 0.004 }));
    expect(tiny.state).toBe('rejected');
    expect(tiny.message).toMatch(/^Invalid volume \[10014\]/);
    // The bid is 1.0823: a stop loss at 1.0821 is 20 points from it, the level is 30.
    const close = await op.answered(await open({ symbol: 'EURUSD', volume: 0.1, sl: 1.0821 }));
    expect(close.state).toBe('rejected');
    expect(close.message).toMatch(/^Invalid stops \[10016\]/);
    const edit = await op.answered(await op.command(agentId, accountId, 'modify', { identifier: 900, sl: 1.0821, tp: 0 }));
    expect(edit).toMatchObject({ state: 'rejected' });
    expect(edit.message).toMatch(/^Invalid stops \[10016\]/);
    expect(terminalPositions(run).filter((p) => p.symbol === 'EURUSD.m').map((p) => p.volume).sort()).toEqual([0.24, 0.5]);
  });

  it('a TP/SL edit of 7 decimals is set to the symbol\'s 5 digits', async () => {
    const answer = await op.answered(await op.command(agentId, accountId, 'modify', { identifier: 900, sl: 1.0700001, tp: 1.0950004 }));
    expect(answer).toMatchObject({ state: 'done' });
    await waitFor('the new stops in the terminal', () => terminalPositions(run).find((p) => p.identifier === 900 && p.sl === 1.07 && p.tp === 1.095));
  });

  it('a close of part of a position goes to the lot step', async () => {
    const answer = await op.answered(await op.command(agentId, accountId, 'close', { identifier: 900, volume: 0.123 }));
    expect(answer).toMatchObject({ state: 'done' });
    await waitFor('the rest in the terminal', () => terminalPositions(run).find((p) => p.identifier === 900 && Math.abs(p.volume - 0.38) < 1e-9));
  });

  it('an open of more than the symbol\'s maximum opens its maximum, and the answer says so', async () => {
    const answer = await op.answered(await open({ symbol: 'EURUSD', volume: 80, master_position_id: 4300 }));
    expect(answer).toMatchObject({ state: 'done', message: 'Request executed [10009]; 50 lot of the 80 asked, EURUSD.m\'s maximum' });
    const copy = await waitFor('the copy in the terminal', () => terminalPositions(run).find((p) => p.comment === 'cm#4300'));
    expect(copy.volume).toBe(50);
  });

  it('an open fills as the symbol allows: FOK in Instant execution without filling flags, IOC where only IOC is allowed', async () => {
    const instant = await op.answered(await open({ symbol: 'GBPUSD', volume: 0.1, master_position_id: 5001 }));
    expect(instant).toMatchObject({ state: 'done' });
    const ioc = await op.answered(await open({ symbol: 'USDJPY', volume: 0.1, master_position_id: 5002 }));
    expect(ioc).toMatchObject({ state: 'done' });
    await waitFor('both copies in the terminal', () => terminalPositions(run).filter((p) => p.comment === 'cm#5001' || p.comment === 'cm#5002').length === 2);
    expect(terminalPositions(run).filter((p) => p.comment === 'cm#5001' || p.comment === 'cm#5002').map((p) => p.symbol).sort()).toEqual(['GBPUSD.m', 'USDJPY.m']);
    expect(await stopEa(run)).toBe(0);
  });
});
