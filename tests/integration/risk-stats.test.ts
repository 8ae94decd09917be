import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertAccount } from '#server/db/accounts-repo.ts';
import { insertDeals } from '#server/db/deals-repo.ts';
import type { Deal } from '#shared/domain/deal.ts';
import { insertNav } from '#server/db/nav-repo.ts';
import type { HistoricalDealsResponse } from '#shared/contract/deals.ts';
import { BACKENDS, http, login, startServer, type TestServer } from './helpers/server.ts';

/**
 * Risk statistics of the Accounts screen's Stats panel (issue 20 item 7) over real HTTP: the
 * historical-deals answer carries Sharpe, Sortino, expectancy, recovery factor and the equity
 * drawdown, computed from the account's deals and its end-of-day NAV rows.
 */

const DAY_S = 86_400;
/** 2024-01-01, a Monday, in days since 1970-01-01. */
const MON = 19_723;
const at = (day: number, hour: number) => day * DAY_S + hour * 3600;

type Stats = HistoricalDealsResponse['dealsStats'][number]['all']['stats'];

describe.each(BACKENDS)('risk statistics in historical-deals (%s)', (backend) => {
  let server: TestServer;
  let admin: string;
  const ACCOUNT = 'risk-stats-1';

  const statsOf = async (query = ''): Promise<Stats> => {
    const res = await http<HistoricalDealsResponse>(server, 'GET', `/api/brokers/historical-deals?account=${ACCOUNT}${query}`, { key: admin });
    expect(res.status).toBe(200);
    return res.body.dealsStats[0]!.all.stats;
  };

  beforeAll(async () => {
    server = await startServer(backend);
    admin = await login(server, 'admin');
    const db = server.app.db;
    const broker = (await db.query<{ id: number }>('SELECT id FROM brokers ORDER BY id LIMIT 1'))[0]!;
    const id = await insertAccount(db, {
      account_id: ACCOUNT,
      account: '990001',
      account_name: 'Risk Stats Test',
      broker_id: broker.id,
      server: 'Test-Server',
      server_name: 'Test Server',
      teiko_category: 'SMA',
      currency: 'USD',
      is_master: false,
      master_id: null,
      copy_ratio: 1,
      leverage: 100,
      ping: 0,
      last_update: at(MON + 8, 0),
      source: 'agent',
    });
    const base = {
      accountId: id, symbol: null, type: null, category: null, quantity: 0, openPrice: null, closePrice: null, openedAt: null,
      amount: 0, profit: 0, swap: 0, commission: 0, fee: 0, rebate: 0, net: 0, mae: null, mfe: null, execMs: null,
      rebalancing: false, ticket: null, positionId: null, copyOf: null,
    } satisfies Omit<Deal, 'kind' | 'at'>;
    const trade = (day: number, profit: number, commission = 0): Deal => ({
      ...base, kind: 'trade', at: at(day, 15), symbol: 'EURUSD', type: 'Buy', category: 'Forex', quantity: 1,
      openPrice: 1.1, closePrice: 1.1, openedAt: at(day, 9), profit, commission, net: profit + commission,
    });
    // Deposit 10 000 on Monday; trades net +200 (210 − 10 commission), −102, +302.94, −208.02 Tuesday to Friday;
    // withdrawal 2 000 the next Monday.
    await insertDeals(db, [
      { ...base, kind: 'deposit', at: at(MON, 9), amount: 10_000 },
      trade(MON + 1, 210, -10),
      trade(MON + 2, -102),
      trade(MON + 3, 302.94),
      trade(MON + 4, -208.02),
      { ...base, kind: 'withdrawal', at: at(MON + 7, 10), amount: -2_000 },
    ]);
    // End-of-day NAV (no position left open overnight): Mon 10 000 … Fri 10 192.92, a flat weekend, Mon 8 192.92.
    const equity = [10_000, 10_200, 10_098, 10_400.94, 10_192.92, 10_192.92, 10_192.92, 8_192.92];
    await insertNav(db, equity.map((e, i) => ({ accountId: id, day: MON + i, balance: e, equity: e, takenAt: (MON + i + 1) * DAY_S })));
  });
  afterAll(async () => {
    await server.close();
  });

  it('all time: the figures worked out by hand', async () => {
    const s = await statsOf();
    // Weekday returns (the weekend rows are skipped, Monday runs from Friday):
    //   10200 / 10000 − 1 = +2 %; 10098 / 10200 − 1 = −1 %; 10400.94 / 10098 − 1 = +3 %;
    //   10192.92 / 10400.94 − 1 = −2.00001 %; (8192.92 + 2000) / 10192.92 − 1 = 0 (the withdrawal is neutralised).
    expect(s.return_days).toBe(5);
    // mean = 0.02 / 5 = 0.004; deviations +0.016, −0.014, +0.026, −0.024, −0.004 → Σ² = 0.00172; / 4 = 0.00043;
    // stdev 0.0207364; Sharpe = 0.004 / 0.0207364 × √252 (15.874508) = 3.0622.
    expect(s.sharpe_ratio).toBeCloseTo(3.0622, 3);
    // Downside deviation √((0.0001 + 0.0004) / 5) = 0.01; Sortino = 0.004 / 0.01 × 15.874508 = 6.3498.
    expect(s.sortino_ratio).toBeCloseTo(6.3498, 3);
    // NAV index 1.02 → 1.0098 → 1.040094 → 1.019292: the fall from the peak is 2 %.
    expect(s.equity_drawdown).toBeCloseTo(2, 3);
    // Expectancy (200 − 102 + 302.94 − 208.02) / 4 = 192.92 / 4 = 48.23.
    expect(s.expectancy).toBe(48.23);
    // Cumulative result 200, 98, 400.94, 192.92: falls 102 and 208.02 → recovery 192.92 / 208.02 = 0.927411.
    expect(s.max_drawdown_money).toBe(208.02);
    expect(s.recovery_factor).toBeCloseTo(0.9274, 4);
    expect(s.net_profit).toBeCloseTo(192.92, 6);
    // The balance drawdown beside it: the same 2 % here, as no position stayed open overnight.
    expect(s.max_drawdown).toBeCloseTo(2, 3);
  });

  it('a period: from Wednesday 00:00 the base is Tuesday’s NAV and the trades are Wednesday’s on', async () => {
    const s = await statsOf(`&start_date=${(MON + 2) * DAY_S}`);
    // Returns −1 %, +3 %, −2.00001 %, 0: mean ≈ 0 → Sharpe and Sortino ≈ 0.
    expect(s.return_days).toBe(4);
    expect(s.sharpe_ratio).toBeCloseTo(0, 3);
    expect(s.sortino_ratio).toBeCloseTo(0, 3);
    // Index 0.99 → 1.0197 → 0.999306: peak 1.0197 → 2 %.
    expect(s.equity_drawdown).toBeCloseTo(2, 3);
    // Trades −102, +302.94, −208.02: expectancy −7.08 / 3 = −2.36; cumulative −102, 200.94, −7.08;
    // falls 0 → −102 = 102 and 200.94 → −7.08 = 208.02; recovery −7.08 / 208.02 = −0.034035.
    expect(s.expectancy).toBe(-2.36);
    expect(s.max_drawdown_money).toBe(208.02);
    expect(s.recovery_factor).toBeCloseTo(-0.034, 3);
  });

  it('a period after the last NAV row: nothing to measure, so null and not 0', async () => {
    const s = await statsOf(`&start_date=${(MON + 30) * DAY_S}`);
    expect(s).toMatchObject({ return_days: 0, sharpe_ratio: null, sortino_ratio: null, equity_drawdown: null, expectancy: null, recovery_factor: null });
  });

  it('a demo account with generated history carries every figure', async () => {
    const info = await http<{ data: { account_id: string }[] }>(server, 'GET', '/api/brokers/accounts/info', { key: admin });
    const demo = info.body.data.find((a) => a.account_id !== ACCOUNT)!;
    const res = await http<HistoricalDealsResponse>(server, 'GET', `/api/brokers/historical-deals?account=${demo.account_id}`, { key: admin });
    expect(res.status).toBe(200);
    const s = res.body.dealsStats[0]!.all.stats;
    // Three months of history: dozens of weekday returns, trades and some losing days.
    expect(s.return_days).toBeGreaterThan(40);
    for (const figure of [s.sharpe_ratio, s.sortino_ratio, s.equity_drawdown, s.expectancy, s.recovery_factor]) {
      expect(typeof figure).toBe('number');
      expect(Number.isFinite(figure)).toBe(true);
    }
    expect(s.equity_drawdown).toBeGreaterThanOrEqual(0);
    // Expectancy is the mean net result of the trades listed beside it.
    const trades = res.body.dealsStats[0]!.deals.filter((d) => d.type === 'Buy' || d.type === 'Sell');
    const net = trades.reduce((sum, d) => sum + d.profit + d.swap + d.commission + d.fee, 0);
    expect(s.expectancy).toBeCloseTo(net / trades.length, 1);
    // Recovery factor is net profit over the drawdown in money.
    expect(s.recovery_factor).toBeCloseTo(s.net_profit / s.max_drawdown_money, 3);
  });
});
