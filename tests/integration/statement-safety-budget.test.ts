import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { statementFigures, type StatementDeal } from '#shared/analytics/statement.ts';
import { dealMoney } from '#shared/domain/deal.ts';
import type { Deal } from '#shared/domain/deal.ts';
import { hashPassword } from '#server/auth/password.ts';
import { insertAccount, insertBroker } from '#server/db/accounts-repo.ts';
import type { Database, Queryable } from '#server/db/database.ts';
import { insertDeals } from '#server/db/deals-repo.ts';
import { markHistory, termsHistory } from '#server/db/fees-repo.ts';
import { navRowsOf } from '#server/db/nav-repo.ts';
import { STATEMENT_QUEUE, statementQueue } from '#server/fees/statement-queue.ts';
import { markAt } from '#server/ledger/fees.ts';
import { tradeEntry } from '#server/ledger/rules.ts';
import { MAX_STATEMENT_DEALS } from '#server/services/fees-service.ts';
import { BACKENDS, http, startServer, type TestServer } from './helpers/server.ts';

/**
 * Statements within a budget (issue 39, docs/statements.md): one queue for every format, taken before
 * any work, with 429 and Retry-After past its bounds; only the range's deals read; the figures the
 * same to the cent as when every deal was read; a cap on the range and on the deals, with a message
 * that says what to do; periods from 1970. No assertion here is on the wall clock: a bound is
 * asserted through what enforces it (the queue's refusal, what the database was asked for), and the
 * time it keeps is measured in `npm run bench -- statements`.
 */

const DAY_S = 86_400;
const utc = (iso: string) => Date.parse(`${iso}Z`) / 1000;
const dayOf = (iso: string) => Math.floor(utc(`${iso}T00:00:00`) / DAY_S);

const cash = (accountId: number, at: number, amount: number): Deal => ({
  accountId, kind: amount > 0 ? 'deposit' : 'withdrawal', symbol: null, type: null, category: null, quantity: 0, openPrice: null, closePrice: null,
  openedAt: null, at, amount, profit: 0, swap: 0, commission: 0, fee: 0, rebate: 0, net: 0, mae: null, mfe: null, execMs: null, rebalancing: false,
  ticket: null, positionId: null, copyOf: null,
});
const trade = (accountId: number, closedAt: number, profit: number, ticket: number): Deal =>
  tradeEntry({
    accountId, symbol: ticket % 3 ? 'EURUSD' : 'GBPUSD', type: ticket % 2 ? 'Sell' : 'Buy', category: 'Forex', quantity: 0.1, openPrice: 1.1,
    closePrice: 1.1005, openedAt: closedAt - 900, closedAt, profit, swap: -0.13, commission: -0.7, fee: ticket % 7 ? 0 : -0.05, rebate: 0,
    low: null, high: null, execMs: null, ticket,
  });

/** Every query the database answers meanwhile, and what it answered (its text's length). */
function recordQueries(db: Database): { stop: () => { sql: string; bytes: number }[] } {
  const seen: { sql: string; bytes: number }[] = [];
  const original = db.query.bind(db);
  (db as { query: Queryable['query'] }).query = async <T extends object>(sql: string, params?: readonly unknown[]) => {
    const rows = await original<T>(sql, params);
    seen.push({ sql, bytes: JSON.stringify(rows).length });
    return rows;
  };
  return {
    stop: () => {
      (db as { query: Queryable['query'] }).query = original;
      return seen;
    },
  };
}

describe.each(BACKENDS)('statements within a budget (%s)', (backend) => {
  let server: TestServer;
  const now = Date.parse('2026-04-15T12:00:00Z');
  const today = Math.floor(now / 1000 / DAY_S);
  let investor: string;
  let other: string;
  let investorId: number;
  let busy: number;
  let proportional: number;

  const statement = (key: string, query: string) => fetch(`${server.url}/api/statements?${query}`, { headers: { 'x-api-key': key } });

  beforeAll(async () => {
    server = await startServer(backend, { demo: false, market: { now: () => now } });
    const db = server.app.db;
    const broker = await insertBroker(db, { broker_name: 'BudgetBroker', img_path: '', spread_pips: 0, latency_ms: 0, commission_per_lot: 0, rebate_per_lot: 0 });
    const account = (login: string) =>
      insertAccount(db, {
        account_id: `budget-${login}`, account: login, account_name: `Budget ${login}`, broker_id: broker, server: 'Budget-Live', server_name: 'Budget',
        teiko_category: 'SMA', currency: 'USD', is_master: false, master_id: null, copy_ratio: 1, leverage: 100, ping: 0, last_update: 0, source: 'agent',
      });
    busy = await account('7300001');
    proportional = await account('7300002');
    // The busy account: 3,000 deals in 2025, then 12 in March 2026.
    const deals: Deal[] = [cash(busy, utc('2025-01-01T08:00:00'), 50_000)];
    for (let i = 0; i < 3_000; i++) deals.push(trade(busy, utc('2025-01-02T00:00:00') + i * 9_000, i % 4 ? 3.25 : -4.1, 10_000 + i));
    for (let i = 0; i < 12; i++) deals.push(trade(busy, utc('2026-03-02T10:00:00') + i * 2 * DAY_S, 7.77, 20_000 + i));
    await db.transaction((tx) => insertDeals(tx, deals));
    // The account whose terms lower the mark in proportion to a withdrawal, with performance charges
    // (their marks) and end-of-day rows, deposits and withdrawals on both sides of them.
    const flows: Deal[] = [
      cash(proportional, utc('2025-06-01T09:00:00'), 100_000),
      cash(proportional, utc('2025-08-14T09:00:00'), -12_345.67),
      cash(proportional, utc('2025-10-03T09:00:00'), 20_000),
      cash(proportional, utc('2025-11-20T09:00:00'), -7_500.01),
      cash(proportional, utc('2026-01-09T09:00:00'), -3_333.33),
      cash(proportional, utc('2026-02-17T09:00:00'), 5_000),
    ];
    for (let i = 0; i < 600; i++) flows.push(trade(proportional, utc('2025-06-02T00:00:00') + i * 43_000, i % 3 ? 41.37 : -29.83, 30_000 + i));
    await db.transaction((tx) => insertDeals(tx, flows));
    await db.query(
      `INSERT INTO fee_terms (account_id, effective_from, terms) VALUES ($1, DATE '2025-06-01', $2)`,
      [proportional, JSON.stringify({ period: 'monthly', performance: { rate: 0.2, basis: 'equity', withdrawals: 'proportional' }, management: null, volume: null })],
    );
    for (const [at, mark] of [['2025-08-31T23:59:59', 104_120.5], ['2025-12-31T23:59:59', 118_001.25]] as const) {
      await db.query(
        `INSERT INTO fee_entries (account_id, kind, entry, period, ref, at, basis, mark_before, mark_after, rate, amount, currency, note)
         VALUES ($1, 'performance', 'charge', $2, $2, $3, $4, 100000, $4, 0.2, 10, 'USD', 'test')`,
        [proportional, at.slice(0, 7), new Date(`${at}Z`), mark],
      );
    }
    await db.query('UPDATE accounts SET hwm = 121000.55 WHERE id = $1', [proportional]);
    await db.query(
      `INSERT INTO nav_snapshots (account_id, day, balance, equity, taken_at)
       SELECT $1, d::date, 0, 100000 + (d::date - DATE '2025-06-01') * 37.5, d + interval '1 day'
         FROM generate_series(DATE '2025-06-01', DATE '2026-04-14', interval '3 day') d`,
      [proportional],
    );
    const user = async (username: string) => {
      await server.app.authStore.upsertUser({ username, password_hash: await hashPassword(`${username}-password-1`), status: 'active', permissions: [], portfolio_auth: ['SMA'] });
      return (await http<{ data: { api_key: string } }>(server, 'POST', '/api/login', { body: { username, password: `${username}-password-1` } })).body.data.api_key;
    };
    investor = await user('budget-investor');
    other = await user('budget-other');
    investorId = (await db.query<{ id: number }>('SELECT id FROM users WHERE username = $1', ['budget-investor']))[0]!.id;
  });
  afterAll(async () => server.close());

  describe('one queue for every format, taken before any work', () => {
    it("refuses a user's third statement at once with 429 and Retry-After, before the account is even looked up", async () => {
      const held = [await statementQueue.take(investorId), await statementQueue.take(investorId)];
      let others: Promise<Response> | undefined;
      try {
        for (const format of ['csv', 'json', 'pdf']) {
          // An account that does not exist: answered 429, not 404, so nothing was read for it.
          for (const account of ['budget-7300001', 'no-such-account']) {
            const res = await statement(investor, `account=${account}&period=2026-03&format=${format}`);
            expect(res.status).toBe(429);
            expect(Number(res.headers.get('retry-after'))).toBeGreaterThanOrEqual(STATEMENT_QUEUE.retryAfterS.min);
            expect(Number(res.headers.get('retry-after'))).toBeLessThanOrEqual(STATEMENT_QUEUE.retryAfterS.max);
            expect(await res.json()).toEqual({ message: 'You have 2 statements being made already: wait for them, then ask again.' });
          }
        }
        // Another user is not refused: theirs waits its turn.
        others = statement(other, 'account=budget-7300001&period=2026-03&format=json');
        await expect.poll(() => statementQueue.stats().waiting).toBe(1);
      } finally {
        for (const done of held) done();
      }
      expect((await others).status).toBe(200);
      expect((await statement(investor, 'account=budget-7300001&period=2026-03&format=csv')).status).toBe(200);
      expect(statementQueue.stats()).toEqual({ running: 0, waiting: 0 });
    });

    it('refuses everyone past the statements made and waiting in total, and takes them again once they are done', async () => {
      // Other users' statements, all the queue holds: being made, then waiting.
      const held = await Promise.all(Array.from({ length: STATEMENT_QUEUE.running }, (_, i) => statementQueue.take(-1 - i)));
      const waiting = Array.from({ length: STATEMENT_QUEUE.waiting }, (_, i) => statementQueue.take(-100 - i));
      expect(statementQueue.stats()).toEqual({ running: STATEMENT_QUEUE.running, waiting: STATEMENT_QUEUE.waiting });
      try {
        const res = await statement(other, 'account=budget-7300001&period=2026-03&format=json');
        expect(res.status).toBe(429);
        expect(Number(res.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
        expect(await res.json()).toEqual({ message: 'The server is making other statements: try again in a moment.' });
      } finally {
        for (const done of held) done();
        // Each waiting one gets its turn as the one before gives it back.
        for (const turn of waiting) (await turn)();
      }
      expect(statementQueue.stats()).toEqual({ running: 0, waiting: 0 });
      expect((await statement(other, 'account=budget-7300001&period=2026-03&format=json')).status).toBe(200);
    });

    it('waits its turn when all are being made, and drops a waiting statement whose request went away', async () => {
      const held = await Promise.all(Array.from({ length: STATEMENT_QUEUE.running }, (_, i) => statementQueue.take(-1 - i)));
      const gone = new AbortController();
      const abandoned = statement(investor, 'account=budget-7300001&period=2026-03&format=csv').catch(() => null);
      void abandoned;
      const leaving = fetch(`${server.url}/api/statements?account=budget-7300001&period=2026-03&format=json`, {
        headers: { 'x-api-key': other },
        signal: gone.signal,
      }).catch(() => null);
      await expect.poll(() => statementQueue.stats().waiting).toBe(2);
      gone.abort();
      await leaving;
      await expect.poll(() => statementQueue.stats().waiting).toBe(1);
      for (const done of held) done();
      expect((await abandoned)?.status).toBe(200);
      await expect.poll(() => statementQueue.stats()).toEqual({ running: 0, waiting: 0 });
    });
  });

  describe('reads only the range', () => {
    it("reads March's 12 deals for a statement of March, not the 3,001 before it", async () => {
      const recording = recordQueries(server.app.db);
      const res = await statement(investor, 'account=budget-7300001&period=2026-03&format=json');
      const queries = recording.stop();
      expect(res.status).toBe(200);
      const s = ((await res.json()) as { data: { trades: unknown[]; opening_balance: number } }).data;
      expect(s.trades).toHaveLength(12);
      // 50,000 deposited, 2,250 round trips at 3.25 and 750 at −4.10, each less 0.83 of swap and
      // commission, and 0.05 of fee those whose ticket is a multiple of 7 paid.
      const fees = Array.from({ length: 3_000 }, (_, i): number => ((10_000 + i) % 7 === 0 ? 5 : 0)).reduce((a, b) => a + b, 0);
      expect(s.opening_balance).toBe((50_000_00 + 2_250 * 325 - 750 * 410 - 3_000 * 83 - fees) / 100);
      // What the database answered for it, all queries together: a few kB (every deal read was about 800 kB).
      const bytes = queries.reduce((sum, q) => sum + q.bytes, 0);
      expect(bytes).toBeLessThan(20_000);
    });
  });

  describe('the same figures to the cent as when every deal was read', () => {
    /** The statement as it was computed before issue 39: from every deal of the account (fees-service.ts at c8d1ce0). */
    const everyDeal = async (accountId: number, fromIso: string, toIso: string) => {
      const db = server.app.db;
      const deals = (
        await db.query<StatementDeal>(
          `SELECT kind, extract(epoch FROM datetime)::bigint AS at, amount, profit, swap, commission, fee, net, symbol, type, quantity,
                  open_price AS "openPrice", close_price AS "closePrice", extract(epoch FROM opened_at)::bigint AS "openedAt"
             FROM deals WHERE account_id = $1 ORDER BY datetime, id`,
          [accountId],
        )
      ).map((d) => ({ ...d, at: Number(d.at), openedAt: d.openedAt === null ? null : Number(d.openedAt) }));
      const range = { fromDay: dayOf(fromIso), toDay: dayOf(toIso) };
      const endS = (Math.min(range.toDay, today) + 1) * DAY_S;
      const marks = (await markHistory(db, accountId, endS)).map((m) => ({ at: Number(m.at), markAfter: m.markAfter }));
      const moves = deals.map((d) => ({ at: d.at, money: dealMoney(d), cashFlow: d.kind === 'deposit' || d.kind === 'withdrawal' }));
      const versions = (await termsHistory(db, [accountId])).get(accountId);
      const balance = moves.reduce((s, m) => s + Math.round(m.money * 100), 0) / 100;
      const figures = statementFigures({
        range, today, deals, nav: await navRowsOf(db, accountId, range.fromDay - 1, range.toDay), live: { balance, equity: balance }, showRebates: false,
      });
      return {
        ...figures,
        mark_start: markAt(range.fromDay * DAY_S, marks, moves, versions, 'SMA'),
        mark_end: range.toDay >= today ? 121_000.55 : markAt(endS, marks, moves, versions, 'SMA'),
      };
    };

    it.each([
      ['a month between two charges', '2025-10-01', '2025-10-31'],
      ['a month after the last charge, its withdrawal taken in proportion', '2026-01-01', '2026-01-31'],
      ['a quarter across a charge', '2025-07-01', '2025-09-30'],
      ['from before the first deal', '2025-05-01', '2025-08-20'],
      ['days in the middle', '2025-11-19', '2026-02-18'],
      ['a range that reaches today', '2026-02-01', '2026-04-15'],
    ])('%s', async (_name, from, to) => {
      const res = await http<{ data: Record<string, unknown> }>(server, 'GET', `/api/statements?account=budget-7300002&from=${from}&to=${to}&format=json`, { key: investor });
      expect(res.status).toBe(200);
      const expected = await everyDeal(proportional, from, to);
      const round = (x: unknown) => (typeof x === 'number' ? Math.round(x * 100) / 100 : x);
      for (const field of [
        'opening_balance', 'opening_equity', 'deposits', 'withdrawals', 'closed_pl', 'swap', 'commissions', 'broker_fees', 'other_results',
        'closing_balance', 'closing_equity', 'mark_start', 'mark_end',
      ] as const) {
        expect({ field, value: res.body.data[field] }).toEqual({ field, value: round(expected[field]) });
      }
      expect(res.body.data.twr_pct).toBe(expected.twr_pct);
      expect(res.body.data.mwr_pct).toBe(expected.mwr_pct);
      expect(res.body.data.trades).toEqual(expected.trades);
    });
  });

  describe('a cap on the range and on the deals', () => {
    it('refuses a range of more than 3,700 days, saying so', async () => {
      const res = await http(server, 'GET', '/api/statements?account=budget-7300001&from=2010-01-01&to=2020-12-31&format=csv', { key: investor });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ message: 'A statement covers at most 3,700 days (about ten years): choose a shorter range.' });
    });

    it(`refuses a PDF of more than ${MAX_STATEMENT_DEALS.pdf.toLocaleString('en-US')} deals, saying what to ask for instead; the CSV of them is made`, async () => {
      const quarter = async () =>
        (
          await server.app.db.query<{ n: number }>(
            "SELECT count(*)::int AS n FROM deals WHERE account_id = $1 AND datetime >= '2025-01-01T00:00:00Z' AND datetime < '2025-04-01T00:00:00Z'",
            [busy],
          )
        )[0]!.n;
      // The first quarter's deals made one more than a PDF lists.
      const extra = Array.from({ length: MAX_STATEMENT_DEALS.pdf + 1 - (await quarter()) }, (_, i) => trade(busy, utc('2025-01-02T00:30:00') + i * 500, 1, 40_000 + i));
      await server.app.db.transaction((tx) => insertDeals(tx, extra));
      expect(await quarter()).toBe(MAX_STATEMENT_DEALS.pdf + 1);
      const res = await http(server, 'GET', '/api/statements?account=budget-7300001&period=2025-Q1&format=pdf', { key: investor });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({
        message: `This statement would list ${(MAX_STATEMENT_DEALS.pdf + 1).toLocaleString('en-US')} deals; a PDF statement lists at most ${MAX_STATEMENT_DEALS.pdf.toLocaleString('en-US')}: choose a shorter range, or ask for CSV.`,
      });
      const csv = await statement(investor, 'account=budget-7300001&period=2025-Q1&format=csv');
      expect(csv.status).toBe(200);
      expect((await csv.text()).split('\r\n').filter((line) => /^2025-\d\d-\d\dT/.test(line))).toHaveLength(MAX_STATEMENT_DEALS.pdf);
      await server.app.db.query('DELETE FROM deals WHERE account_id = $1 AND ticket >= 40000', [busy]);
    });
  });

  describe('periods of four-digit years from 1970', () => {
    it.each(['/api/statements', '/api/fees'])('%s refuses 0026-11 (read as 1926 before) and days before 1970', async (route) => {
      for (const query of ['period=0026-11', 'period=1969-Q4', 'period=0999-01', 'from=0026-11-01&to=0026-11-30', 'from=1969-12-31']) {
        const res = await http(server, 'GET', `${route}?account=budget-7300001&${query}`, { key: investor });
        expect({ query, status: res.status }).toEqual({ query, status: 400 });
      }
      expect((await http(server, 'GET', `${route}?account=budget-7300001&period=0026-11`, { key: investor })).body).toEqual({
        message: "period must be a month ('2026-03') or a quarter ('2026-Q1') of a four-digit year from 1970",
      });
      const format = route === '/api/statements' ? '&format=json' : '';
      expect((await http(server, 'GET', `${route}?account=budget-7300001&period=1970-01${format}`, { key: investor })).status).toBe(200);
    });
  });
});
