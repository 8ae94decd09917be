import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertAccount } from '#server/db/accounts-repo.ts';
import { insertDeals } from '#server/db/deals-repo.ts';
import type { AnalysisResponse } from '#shared/contract/stats.ts';
import type { Deal } from '#shared/domain/deal.ts';
import { BACKENDS, http, login, startServer, type TestServer } from './helpers/server.ts';

/**
 * GET /api/stats/analysis over real HTTP (issue 42 item 1): the figures of an account's closed trades,
 * checked against a computation of their own below on the deals this suite books (docs/figures.md,
 * example A1: a deposit of 10,000 and six trades of +10 %, −10 %, +10 %, −5 %, +20 % and −5 % of the
 * balance before each), and the route's answers to a caller without a session, outside the account's
 * portfolio, or with a bad query.
 */

const DAY_S = 86_400;
/** 2024-01-01, a Monday, in days since 1970-01-01. */
const MON = 19_723;
const at = (day: number, hour: number, minute = 0) => day * DAY_S + hour * 3600 + minute * 60;

const ACCOUNT = 'analysis-1';
const NETS = [1_000, -1_100, 990, -544.5, 2_069.1, -620.73];

// --- The independent computation: plain arithmetic on the nets, written apart from src/shared ---
const BALANCES = NETS.reduce<number[]>((b, p) => [...b, b.at(-1)! + p], [10_000]);
const HPRS = NETS.map((p, i) => (BALANCES[i]! + p) / BALANCES[i]!);
const RETURNS = HPRS.map((h) => h - 1);
const avg = (xs: number[]) => xs.reduce((s, x) => s + x, 0) / xs.length;
const popSd = (xs: number[]) => Math.sqrt(avg(xs.map((x) => (x - avg(xs)) ** 2)));
const corr = (xs: number[], ys: number[]) => {
  const [mx, my] = [avg(xs), avg(ys)];
  const sxy = xs.reduce((s, x, i) => s + (x - mx) * (ys[i]! - my), 0);
  return sxy / Math.sqrt(xs.reduce((s, x) => s + (x - mx) ** 2, 0) * ys.reduce((s, y) => s + (y - my) ** 2, 0));
};
const INDEPENDENT = (() => {
  const idx = BALANCES.map((_, i) => i);
  const slope = corr(idx, BALANCES) * (popSd(BALANCES) / popSd(idx));
  const residuals = BALANCES.map((b, i) => b - (avg(BALANCES) + slope * (i - avg(idx))));
  const gross = (sign: number) => NETS.filter((p) => Math.sign(p) === sign).reduce((s, p) => s + p, 0);
  return {
    ahpr: (avg(HPRS) - 1) * 100,
    ghpr: ((BALANCES.at(-1)! / BALANCES[0]!) ** (1 / NETS.length) - 1) * 100,
    expectancy: avg(NETS),
    profit_factor: gross(1) / -gross(-1),
    sharpe: avg(RETURNS) / popSd(RETURNS),
    sortino: avg(RETURNS) / Math.sqrt(avg(RETURNS.map((r) => Math.min(r, 0) ** 2))),
    lr_correlation: corr(idx, BALANCES),
    lr_std_error: Math.sqrt(residuals.reduce((s, r) => s + r * r, 0) / (BALANCES.length - 2)),
  };
})();

/** Rounded as the wire rounds it (half away from zero). */
const round = (x: number, d: number) => Math.sign(x) * Math.round(Math.abs(x) * 10 ** d) / 10 ** d;

describe.each(BACKENDS)('GET /api/stats/analysis (%s)', (backend) => {
  let server: TestServer;
  const keys = { admin: '', manager: '', investor: '' };

  const analysis = (query: string, key: string = keys.admin) => http<AnalysisResponse & { message?: string }>(server, 'GET', `/api/stats/analysis?${query}`, { key });

  beforeAll(async () => {
    server = await startServer(backend);
    for (const who of ['admin', 'manager', 'investor'] as const) keys[who] = await login(server, who);
    const db = server.app.db;
    const broker = (await db.query<{ id: number }>('SELECT id FROM brokers ORDER BY id LIMIT 1'))[0]!;
    // SMA: the admin's and the manager's portfolio, not the investor's (Global FX only).
    const id = await insertAccount(db, {
      account_id: ACCOUNT, account: '990042', account_name: 'Analysis Test', broker_id: broker.id, server: 'Test-Server', server_name: 'Test Server',
      teiko_category: 'SMA', currency: 'USD', is_master: true, master_id: null, copy_ratio: 1, leverage: 100, ping: 0, last_update: at(MON + 8, 0), source: 'agent',
    });
    const base = {
      accountId: id, symbol: null, type: null, category: null, quantity: 0, openPrice: null, closePrice: null, openedAt: null,
      amount: 0, profit: 0, swap: 0, commission: 0, fee: 0, rebate: 0, net: 0, mae: null, mfe: null, execMs: null,
      rebalancing: false, ticket: null, positionId: null, copyOf: null,
    } satisfies Omit<Deal, 'kind' | 'at'>;
    const trade = (opened: number, closed: number, profit: number, over: Partial<Deal> = {}): Deal => {
      const t: Deal = { ...base, kind: 'trade', at: closed, openedAt: opened, symbol: 'EURUSD', type: 'Buy', category: 'Forex', quantity: 1, openPrice: 1.1, closePrice: 1.1, profit, ...over };
      return { ...t, net: t.profit + t.commission + t.swap + t.fee };
    };
    await insertDeals(db, [
      { ...base, kind: 'deposit', at: at(MON, 7), amount: 10_000 },
      // Known excursions on the first three (price units): MFE 70, 10, 40 pips; MAE 20, 30, 10 pips.
      trade(at(MON, 8, 30), at(MON, 15), 1_010, { commission: -7, swap: -3, openPrice: 1.1, closePrice: 1.105, mae: 0.002, mfe: 0.007 }),
      trade(at(MON + 1, 8, 10), at(MON + 2, 10), -1_100, { type: 'Sell', openPrice: 1.1, closePrice: 1.102, mae: 0.003, mfe: 0.001 }),
      trade(at(MON + 2, 13), at(MON + 2, 14), 990, { openPrice: 1.2, closePrice: 1.203, mae: 0.001, mfe: 0.004 }),
      trade(at(MON + 3, 23, 30), at(MON + 4, 1), -544.5),
      trade(at(MON + 4, 8, 45), at(MON + 4, 20), 2_069.1),
      trade(at(MON + 4, 22), at(MON + 4, 23), -620.73),
      // After the last trade: moves no figure.
      { ...base, kind: 'withdrawal', at: at(MON + 7, 10), amount: -2_000 },
    ]);
  });
  afterAll(async () => {
    await server.close();
  });

  it('answers the figures of the booked trades, as computed independently and by hand', async () => {
    const res = await analysis(`account=${ACCOUNT}`);
    expect(res.status).toBe(200);
    const a = res.body;
    expect(a).toMatchObject({ account: ACCOUNT, currency: 'USD', n: 6, returns_n: 6, wins: 3, losses: 3, utc_offset_minutes: 0 });
    expect(a.ahpr).toBe(round(INDEPENDENT.ahpr, 4));
    expect(a.ahpr).toBe(3.3333);
    expect(a.ghpr).toBe(round(INDEPENDENT.ghpr, 4));
    expect(a.ghpr).toBe(2.7881);
    expect(a.expectancy).toBe(round(INDEPENDENT.expectancy, 2));
    expect(a.expectancy).toBe(298.98);
    expect(a.profit_factor).toBe(round(INDEPENDENT.profit_factor, 4));
    expect(a.sharpe).toBe(round(INDEPENDENT.sharpe, 4));
    expect(a.sortino).toBe(round(INDEPENDENT.sortino, 4));
    expect(a.sortino).toBe(0.6667);
    expect(a.lr_correlation).toBe(round(INDEPENDENT.lr_correlation, 4));
    expect(a.lr_correlation).toBe(0.716);
    expect(a.lr_std_error).toBe(round(INDEPENDENT.lr_std_error, 2));
    expect(a.lr_std_error).toBe(713.33);
    // W L W L W L: 6 runs; (6 × 5.5 − 18) / √(18 × 12 / 5) = 2.2822, 2Φ(2.2822) − 1 = 97.7521 %.
    expect(a.z_score).toBe(2.2822);
    expect(a.z_probability).toBe(97.7521);
    // Worked by hand in docs/figures.md (A1).
    expect(a.psr).toBeCloseTo(76.419, 3);
    expect(a.min_track_record).toBeCloseTo(27.1062, 3);
    expect(a.risk_of_ruin).toEqual([
      { loss_pct: 10, probability: 53.7249 },
      { loss_pct: 20, probability: 28.8637 },
      { loss_pct: 30, probability: 15.507 },
      { loss_pct: 50, probability: 4.4759 },
      { loss_pct: 100, probability: 0.2003 },
    ]);
    expect(a.risk_of_drawdown!.map((r) => r.loss_pct)).toEqual([10, 20, 30, 50, 100]);
    expect(a.monte_carlo).toEqual({ runs: 1_000, seed: 42, trades: 6 });
    // Excursions known on three trades: efficiencies (7/9, 1/4, 4/5), (7/9, 1/4, 4/5), (5/9, −1/2, 3/5).
    const pips = { mfe: [70, 10, 40], mae: [20, 30, 10], pl: NETS.slice(0, 3) };
    expect(a.mfe_mae).toMatchObject({
      n: 3,
      entry_efficiency: round((7 / 9 + 1 / 4 + 4 / 5) / 3, 4),
      exit_efficiency: round((7 / 9 + 1 / 4 + 4 / 5) / 3, 4),
      total_efficiency: round((5 / 9 - 1 / 2 + 3 / 5) / 3, 4),
      correlation_pl_mfe: round(corr(pips.pl, pips.mfe), 4),
      correlation_pl_mae: round(corr(pips.pl, pips.mae), 4),
      correlation_mfe_mae: -0.5,
    });
    expect(a.mfe_mae.trades).toEqual([
      { closed_at: at(MON, 15), symbol: 'EURUSD', entry_efficiency: 0.7778, exit_efficiency: 0.7778, total_efficiency: 0.5556 },
      { closed_at: at(MON + 2, 10), symbol: 'EURUSD', entry_efficiency: 0.25, exit_efficiency: 0.25, total_efficiency: -0.5 },
      { closed_at: at(MON + 2, 14), symbol: 'EURUSD', entry_efficiency: 0.8, exit_efficiency: 0.8, total_efficiency: 0.6 },
    ]);
    // UTC: opens at 08:30, 08:10, 13:00, 23:30, 08:45, 22:00; closes Mon, Wed, Wed, Fri, Fri, Fri.
    expect(a.by_hour).toHaveLength(24);
    expect(a.by_hour[8]).toEqual({ hour: 8, trades: 3, net: 1_969.1, win_rate: 66.6667 });
    expect(a.by_hour[23]).toEqual({ hour: 23, trades: 1, net: -544.5, win_rate: 0 });
    expect(a.by_weekday.map((b) => b.trades)).toEqual([1, 0, 2, 0, 3, 0, 0]);
    expect(a.by_weekday[4]).toEqual({ weekday: 5, trades: 3, net: 903.87, win_rate: 33.3333 });
  });

  it('reads hours and weekdays in the broker time asked for', async () => {
    const a = (await analysis(`account=${ACCOUNT}&utc_offset_minutes=120`)).body;
    expect(a.utc_offset_minutes).toBe(120);
    // UTC+2: opens 10:30, 10:10, 15:00, 01:30, 10:45, 00:00; the last close is Saturday 01:00.
    expect(a.by_hour.filter((b) => b.trades > 0).map((b) => [b.hour, b.trades])).toEqual([[0, 1], [1, 1], [10, 3], [15, 1]]);
    expect(a.by_weekday.map((b) => b.trades)).toEqual([1, 0, 2, 0, 2, 1, 0]);
  });

  it('finds the account by its login too', async () => {
    const byLogin = await analysis('account=990042');
    expect(byLogin.status).toBe(200);
    expect(byLogin.body.account).toBe(ACCOUNT);
  });

  it('answers a demo account with generated history: every figure a finite number, with n', async () => {
    const info = await http<{ data: { account_id: string }[] }>(server, 'GET', '/api/brokers/accounts/info', { key: keys.admin });
    const demo = info.body.data.find((x) => x.account_id !== ACCOUNT)!;
    const res = await analysis(`account=${demo.account_id}`);
    expect(res.status).toBe(200);
    const a = res.body;
    expect(a.n).toBeGreaterThan(30);
    for (const figure of [a.ahpr, a.ghpr, a.z_score, a.z_probability, a.expectancy, a.profit_factor, a.sharpe, a.sortino, a.psr, a.lr_correlation, a.lr_std_error]) {
      expect(Number.isFinite(figure)).toBe(true);
    }
    expect(a.by_hour.reduce((s, b) => s + b.trades, 0)).toBe(a.n);
    expect(a.by_weekday.reduce((s, b) => s + b.trades, 0)).toBe(a.n);
    for (const r of [...a.risk_of_ruin!, ...a.risk_of_drawdown!]) expect(r.probability).toBeGreaterThanOrEqual(0);
  });

  it('401 without a session', async () => {
    const res = await http(server, 'GET', `/api/stats/analysis?account=${ACCOUNT}`);
    expect(res.status).toBe(401);
  });

  it('an account outside the caller’s portfolios answers as historical-deals does: 404, as an unknown one', async () => {
    const deals = await http(server, 'GET', `/api/brokers/historical-deals?account=${ACCOUNT}`, { key: keys.investor });
    const res = await analysis(`account=${ACCOUNT}`, keys.investor);
    expect({ status: res.status, body: res.body }).toEqual({ status: deals.status, body: deals.body });
    expect({ status: res.status, body: res.body }).toEqual({ status: 404, body: { message: `Account not found: ${ACCOUNT}` } });
    expect((await analysis('account=no-such-account')).status).toBe(404);
    // The manager has SMA.
    expect((await analysis(`account=${ACCOUNT}`, keys.manager)).status).toBe(200);
  });

  it.each([
    ['', /account is required/],
    ['account=', /account must not be empty/],
    ['account=a%00b', /account must not contain control characters/],
    [`account=${'x'.repeat(101)}`, /account is too long/],
    [`account=${ACCOUNT}&utc_offset_minutes=abc`, /utc_offset_minutes must be a whole number of minutes from -720 to 840/],
    [`account=${ACCOUNT}&utc_offset_minutes=900`, /utc_offset_minutes must be a whole number of minutes from -720 to 840/],
    [`account=${ACCOUNT}&utc_offset_minutes=1.5`, /utc_offset_minutes must be a whole number/],
    [`account=${ACCOUNT}&days=30`, /days/],
  ])('400 on a bad query: %s', async (query, message) => {
    const res = await analysis(query);
    expect(res.status).toBe(400);
    expect(res.body.message).toMatch(message);
  });

  it('is in the OpenAPI document, with its query and its answer', async () => {
    const doc = await http<{ paths: Record<string, { get?: { parameters?: { name: string }[]; responses: Record<string, unknown> } }> }>(server, 'GET', '/api/openapi.json');
    const op = doc.body.paths['/api/stats/analysis']?.get;
    expect(op?.parameters?.map((p) => p.name)).toEqual(['account', 'utc_offset_minutes']);
    expect(Object.keys(op!.responses)).toEqual(expect.arrayContaining(['200', '400', '401', '404']));
  });
});
