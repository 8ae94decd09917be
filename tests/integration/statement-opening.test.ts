import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertAccount } from '#server/db/accounts-repo.ts';
import type { HistoricalDealsResponse } from '#shared/contract/deals.ts';
import type { ImportStatementResponse } from '#shared/contract/import.ts';
import { BACKENDS, http, login, startServer, type TestServer } from './helpers/server.ts';
import { mt5Report, type Trade } from '../fixtures/reports/mt5-report.ts';

/**
 * Reports that cover a period open at the balance before their first row (docs/statements.md,
 * "Opening balance"), whatever order they are imported in. Three monthly reports of one account,
 * worked by hand: January starts at 1 000.00 and gains 100.00; February starts at 1 100.00 and gains
 * 50.00; March starts at 1 300.00 (150.00 came in between that no report shows) and gains 20.00.
 */

const LOGIN = '8800001';
const trade = (position: number, open: string, close: string, profit: number): Trade => ({
  position,
  symbol: 'EURUSD',
  side: 'buy',
  volume: 0.1,
  open: { deal: position * 10 + 1, time: open, price: 1.1 },
  close: { deal: position * 10 + 2, order: position * 10 + 3, time: close, price: 1.1 + profit / 10_000, profit },
});
const JANUARY = trade(10, '2024.01.10 10:00:00', '2024.01.11 10:00:00', 100);
const FEBRUARY = trade(20, '2024.02.10 10:00:00', '2024.02.11 10:00:00', 50);
const MARCH = trade(30, '2024.03.10 10:00:00', '2024.03.11 10:00:00', 20);
const report = (opening: number, ...trades: Trade[]) => mt5Report({ login: LOGIN, currency: 'USD', opening, trades });

/** UTC epoch seconds of a broker time (the imports below are at offset 0). */
const at = (time: string) => Date.parse(`${time.replace(/\./g, '-').replace(' ', 'T')}Z`) / 1000;

describe.each(BACKENDS)('the opening balance of period reports (%s)', (backend) => {
  let server: TestServer;
  let admin: string;
  const accountId = `opening-${LOGIN}`;

  const upload = (html: string) =>
    fetch(`${server.url}/api/accounts/import-statement?account=${accountId}`, {
      method: 'POST',
      headers: { 'content-type': 'application/octet-stream', 'x-api-key': admin },
      body: html,
    }).then(async (res) => ({ status: res.status, body: (await res.json()) as ImportStatementResponse }));

  /** The account's balance and equity, its opening balance rows (amount and time) and its deposits. */
  const books = async () => {
    const info = await http<{ data: { account_id: string; balance: number; equity: number; pnl: number; equity_perc: number }[] }>(
      server, 'GET', '/api/brokers/accounts/info', { key: admin },
    );
    const row = info.body.data.find((a) => a.account_id === accountId)!;
    const history = await http<HistoricalDealsResponse>(server, 'GET', `/api/brokers/historical-deals?account=${accountId}`, { key: admin });
    const deals = history.body.dealsStats[0]!.deals;
    return {
      balance: row.balance,
      equity: row.equity,
      pnl: row.pnl,
      equityPerc: row.equity_perc,
      openings: deals.filter((d) => d.type === 'Opening balance').map((d) => ({ amount: d.profit, at: d.datetime })).reverse(),
      deposits: deals.filter((d) => d.type === 'Deposit').length,
      growth: history.body.dealsStats[0]!.all.stats.growth,
    };
  };

  /** The account's end-of-day NAV balance on a day ('2024.02.09'), null without a row; every such row is derived. */
  const navBalance = async (day: string): Promise<number | null> => {
    const [year, month, date] = day.split('.').map(Number) as [number, number, number];
    const res = await http<{ data: { account_id: string; date_id: string; date_day: number; balance: number; derived: boolean }[] }>(
      server, 'GET', `/api/brokers/accounts/historical_infos?date_id=${month}.${year}`, { key: admin },
    );
    const row = res.body.data.find((r) => r.account_id === accountId && r.date_id === `${month}.${year}` && r.date_day === date);
    if (row) expect(row.derived).toBe(true);
    return row?.balance ?? null;
  };

  beforeAll(async () => {
    server = await startServer(backend);
    admin = await login(server, 'admin');
    const broker = (await server.app.db.query<{ id: number }>('SELECT id FROM brokers ORDER BY id LIMIT 1'))[0]!;
    await insertAccount(server.app.db, {
      account_id: accountId, account: LOGIN, account_name: 'Opening', broker_id: broker.id, server: 'Example-Server',
      server_name: 'Example', teiko_category: 'SMA', currency: 'USD', is_master: false, master_id: null,
      copy_ratio: 1, leverage: 100, ping: 0, last_update: 0, source: 'agent',
    });
  });
  afterAll(async () => {
    await server.close();
  });

  it('February alone: opens at 1 100.00 a second before its first deal, not as a deposit; equity is the balance', async () => {
    const res = await upload(report(1_100, FEBRUARY));
    expect(res.status).toBe(200);
    expect(res.body.message).toBe('Imported: 2 added, 0 updated, 0 skipped. Opening balance 1 100.00 USD: the balance before the report\'s first deal.');
    expect(await books()).toEqual({
      balance: 1_150,
      equity: 1_150,
      pnl: 0,
      equityPerc: 0,
      openings: [{ amount: 1_100, at: at('2024.02.10 10:00:00') - 1 }],
      deposits: 0,
      // The opening balance is the starting capital: 1 100 → 1 150 is +4.5454… %.
      growth: expect.closeTo((50 / 1_100) * 100, 4) as number,
    });
  });

  it('February alone: its end-of-day NAV starts at the opening balance, on the day of its first deal', async () => {
    expect(await navBalance('2024.02.09')).toBeNull();
    expect(await navBalance('2024.02.10')).toBe(1_100);
    expect(await navBalance('2024.02.11')).toBe(1_150);
  });

  it('February again: nothing changes', async () => {
    const before = await books();
    const res = await upload(report(1_100, FEBRUARY));
    expect(res.body).toMatchObject({ added: 0, updated: 0, skipped: 2 });
    expect(await books()).toEqual(before);
  });

  it('January, imported after: the account now opens at January\'s 1 000.00 and February\'s opening goes (January\'s rows explain it)', async () => {
    const res = await upload(report(1_000, JANUARY));
    expect(res.body).toMatchObject({ added: 2, updated: 0, skipped: 0 });
    const books_ = await books();
    expect(books_).toMatchObject({ balance: 1_150, equity: 1_150, openings: [{ amount: 1_000, at: at('2024.01.10 10:00:00') - 1 }] });
    // 1 000 → 1 150 over the two months: +15 %.
    expect(books_.growth).toBeCloseTo(15, 6);
    // The NAV derived from the deals moved with the opening: January opens it, February's days follow from January's rows.
    expect(await navBalance('2024.01.09')).toBeNull();
    expect(await navBalance('2024.01.10')).toBe(1_000);
    expect(await navBalance('2024.01.11')).toBe(1_100);
    expect(await navBalance('2024.02.09')).toBe(1_100);
    expect(await navBalance('2024.02.11')).toBe(1_150);
  });

  it('a report overlapping both months changes nothing', async () => {
    const before = await books();
    const res = await upload(report(1_000, JANUARY, FEBRUARY));
    expect(res.body).toMatchObject({ added: 0, updated: 0, skipped: 4 });
    expect(await books()).toEqual(before);
  });

  it('March, after a gap: the 150.00 its rows do not explain opens it, a second before its first deal', async () => {
    const res = await upload(report(1_300, MARCH));
    expect(res.status).toBe(200);
    expect(res.body.message).toContain('Opening balance 150.00 USD');
    expect(await books()).toMatchObject({
      balance: 1_320,
      equity: 1_320,
      openings: [
        { amount: 1_000, at: at('2024.01.10 10:00:00') - 1 },
        { amount: 150, at: at('2024.03.10 10:00:00') - 1 },
      ],
      deposits: 0,
    });
  });
});
