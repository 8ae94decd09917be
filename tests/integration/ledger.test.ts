import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dayOf, DAY_S } from '#shared/domain/days.ts';
import type { ClosedTrade } from '#shared/domain/book-events.ts';
import { BACKENDS, startServer, type TestServer } from './helpers/server.ts';

describe.each(BACKENDS)('the ledger on the stored books (%s)', (backend) => {
  let server: TestServer;
  let accountId: number;
  const ledger = () => server.app.ledger;
  const one = async <T extends object>(sql: string, params: unknown[] = []) => (await server.app.db.query<T>(sql, params))[0]!;
  const balance = async () => (await one<{ balance: number }>('SELECT balance FROM accounts WHERE id = $1', [accountId])).balance;

  const trade = (over: Partial<ClosedTrade> = {}): ClosedTrade => {
    const closedAt = Math.floor(Date.now() / 1000);
    return {
      accountId, symbol: 'EURUSD', type: 'Buy', category: 'Forex', quantity: 1.25, openPrice: 1.1, closePrice: 1.102,
      openedAt: closedAt - 3600, closedAt, profit: 250, swap: -4.5, commission: -8.75, fee: 0, rebate: 7.5,
      low: 1.0995, high: 1.1025, execMs: 40, ...over,
    };
  };

  beforeAll(async () => {
    // No market: the ledger is driven by hand.
    server = await startServer(backend);
    server.app.copier?.stop();
    server.app.market?.pause();
    accountId = (await one<{ id: number }>("SELECT id FROM accounts WHERE account_name = 'SMA FX Master'")).id;
  });
  afterAll(async () => server.close());

  it("books a closed trade: its deal with the net result, the balance, the month's rebate row", async () => {
    const before = await balance();
    const month = new Date().toISOString().slice(0, 7);
    const rebate = await one<{ lots: number; total_rebate: number }>(
      "SELECT coalesce(sum(lots), 0) AS lots, coalesce(sum(total_rebate), 0) AS total_rebate FROM rebates WHERE account_id = $1 AND to_char(month, 'YYYY-MM') = $2",
      [accountId, month],
    );
    const version = ledger().version;
    await ledger().write((tx) => ledger().record(tx, [trade()]));
    // 250 − 4.50 − 8.75 + 0 = 236.75
    expect(await balance()).toBeCloseTo(before + 236.75, 2);
    const deal = await one<{ net: number; mae: number; mfe: number }>(
      'SELECT net, mae, mfe FROM deals WHERE account_id = $1 ORDER BY id DESC LIMIT 1',
      [accountId],
    );
    expect(deal.net).toBe(236.75);
    expect(deal.mae).toBeCloseTo(0.0005, 10);
    expect(deal.mfe).toBeCloseTo(0.0025, 10);
    const after = await one<{ lots: number; total_rebate: number; balance: number }>(
      "SELECT lots, total_rebate, balance FROM rebates WHERE account_id = $1 AND to_char(month, 'YYYY-MM') = $2",
      [accountId, month],
    );
    expect(after.lots).toBeCloseTo(rebate.lots + 1.25, 4);
    expect(after.total_rebate).toBeCloseTo(rebate.total_rebate + 7.5, 2);
    expect(after.balance).toBeCloseTo(before + 236.75, 2);
    expect(ledger().version).toBe(version + 1);
  });

  it('records nothing when the rest of its transaction fails', async () => {
    const before = await balance();
    const deals = await one<{ n: number }>('SELECT count(*)::int AS n FROM deals');
    const version = ledger().version;
    await expect(
      ledger().write(async (tx) => {
        await ledger().record(tx, [trade()]);
        throw new Error('the position could not be removed');
      }),
    ).rejects.toThrow('the position could not be removed');
    expect(await balance()).toBe(before);
    expect((await one<{ n: number }>('SELECT count(*)::int AS n FROM deals')).n).toBe(deals.n);
    expect(ledger().version).toBe(version);
  });

  it("closes a month's last day: NAV for every account, and profit sharing on the high-water mark", async () => {
    // The last day of next month: no NAV row exists for it yet.
    const now = new Date();
    const lastDay = dayOf(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 2, 1) / 1000) - 1;
    const row = await one<{ balance: number; hwm: number; teiko_category: string; account_name: string }>(
      'SELECT balance, hwm, teiko_category, account_name FROM accounts WHERE id = $1',
      [accountId],
    );
    const equity = Math.round((row.hwm + 1_000) * 100) / 100;
    const accounts = (await server.app.db.query<{ id: number }>('SELECT id FROM accounts')).map((a) => ({
      id: a.id, name: '', brokerName: '', margin: 0, lastUpdate: 0, equity: a.id === accountId ? equity : 1_000,
    }));
    await ledger().write((tx) => ledger().endDay(tx, lastDay, accounts));
    const nav = await server.app.db.query<{ account_id: number; equity: number }>(
      'SELECT account_id, equity FROM nav_snapshots WHERE day = $1',
      [new Date(lastDay * DAY_S * 1000)],
    );
    expect(nav).toHaveLength(accounts.length);
    expect(nav.find((n) => n.account_id === accountId)!.equity).toBe(equity);
    // SMA pays 20 % of the 1,000 over the mark.
    expect(row.teiko_category).toBe('SMA');
    const sharing = await one<{ profit_sharing_amount: number }>(
      'SELECT profit_sharing_amount FROM rebates WHERE account_id = $1 AND month = $2',
      [accountId, new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1))],
    );
    expect(sharing.profit_sharing_amount).toBe(200);
    const hwm = await one<{ hwm: number }>('SELECT hwm FROM accounts WHERE id = $1', [accountId]);
    expect(hwm.hwm).toBeCloseTo(equity - 200, 2);
  });
});
