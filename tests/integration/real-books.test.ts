/**
 * The books of real accounts, exact to the cent, worked by hand and driven through the ingest API and
 * the statement import as a terminal and a user would: agent commissions on the balance and in the
 * rebates, NAV from the first deal, lower-case MT4 pairs classed Forex, and the figures as the
 * screens read them.
 */
import fs from 'node:fs';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { IngestAccount, IngestDeal } from '#shared/contract/ingest.ts';
import type { HistoricalDealsResponse } from '#shared/contract/deals.ts';
import { hashPassword } from '#server/auth/password.ts';
import { hashToken, newToken } from '#server/auth/tokens.ts';
import { insertAccount, insertBroker } from '#server/db/accounts-repo.ts';
import { grantAccount, insertAgent } from '#server/db/agents-repo.ts';
import { insertNav } from '#server/db/nav-repo.ts';
import { queryableOf } from '#server/db/write-context.ts';
import type { NavEntry } from '#server/ledger/port.ts';
import { BACKENDS, http, startServer, type TestServer } from './helpers/server.ts';
import { connect, ticket } from './helpers/ws.ts';

const DAY_S = 86_400;
/** The pinned clock: Wednesday 2026-11-25, 10:00 UTC. */
const NOW = Date.parse('2026-11-25T10:00:00Z');
const utc = (iso: string) => Date.parse(iso) / 1000;
const dayOf = (iso: string) => Math.floor(utc(iso) / DAY_S);
const deal = (over: Partial<IngestDeal> & Pick<IngestDeal, 'ticket' | 'time'>): IngestDeal => ({
  position_id: 0, type: 2, entry: 'in', symbol: '', volume: 0, price: 0, commission: 0, fee: 0, swap: 0, profit: 0, ...over,
});

type Info = { account_id: string; balance: number; total_rebate: number | null; total_commission: number; total_fees: number; net_profit: number };
type NavAnswer = { data: { account_id: string; date_day: number; balance: number; equity: number; derived: boolean; last_update: number }[]; available_dates: Record<string, number[]> };

describe.each(BACKENDS)('the books of real accounts (%s)', (backend) => {
  let server: TestServer;
  let agentKey: string;
  let ops: string;
  let viewer: string;
  let seq = 0;
  const session = randomUUID();
  const ids = new Map<string, number>();

  /** One batch of a terminal whose broker clock is UTC (times as sent are UTC). */
  const send = async (login: string, account: Omit<IngestAccount, 'login' | 'server'>) => {
    const res = await http<{ applied: { deals: number }; message?: string }>(server, 'POST', '/api/ingest/v1/batches', {
      headers: { 'x-agent-key': agentKey },
      body: { session, seq: ++seq, batch_id: randomUUID(), utc_offset_minutes: 0, sent_at: NOW, accounts: [{ login, server: 'Books-Live', ...account }] },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body;
  };
  const info = async (key: string, accountId: string) =>
    (await http<{ data: Info[] }>(server, 'GET', '/api/brokers/accounts/info', { key })).body.data.find((a) => a.account_id === accountId)!;
  const history = async (key: string, accountId: string) =>
    (await http<HistoricalDealsResponse>(server, 'GET', `/api/brokers/historical-deals?account=${accountId}`, { key })).body.dealsStats[0]!;
  const nav = async (dateId: string, accountId: string) => {
    const res = await http<NavAnswer>(server, 'GET', `/api/brokers/accounts/historical_infos?date_id=${dateId}`, { key: ops });
    return { rows: res.body.data.filter((r) => r.account_id === accountId), days: res.body.available_dates[dateId] ?? [] };
  };
  const navRow = (day: number, balance: number, derived = true) => ({ date_day: day, balance, equity: balance, derived });

  beforeAll(async () => {
    server = await startServer(backend, { demo: false, market: { now: () => NOW } });
    const db = server.app.db;
    const broker = await insertBroker(db, { broker_name: 'BooksBroker', img_path: '/brokers/none.svg', spread_pips: 0, latency_ms: 0, commission_per_lot: 0, rebate_per_lot: 0 });
    const agentId = await insertAgent(db, 'books-terminal', hashToken((agentKey = newToken())));
    for (const [login, currency] of [['6100001', 'EUR'], ['6100002', 'EUR'], ['6100003', 'EUR'], ['6100004', 'USD'], ['2100123', 'USD']] as const) {
      const id = await insertAccount(db, {
        account_id: `books-${login}`, account: login, account_name: `Books ${login}`, broker_id: broker, server: 'Books-Live', server_name: 'Books Live',
        teiko_category: 'SMA', currency, is_master: false, master_id: null, copy_ratio: 1, leverage: 100, ping: 0, last_update: 0, source: 'agent',
      });
      ids.set(login, id);
      await grantAccount(db, agentId, id, 'trade');
    }
    const user = async (username: string, permissions: string[]) => {
      await server.app.authStore.upsertUser({ username, password_hash: await hashPassword(`${username}-password-1`), status: 'active', permissions, portfolio_auth: ['SMA'] });
      return (await http<{ data: { api_key: string } }>(server, 'POST', '/api/login', { body: { username, password: `${username}-password-1` } })).body.data.api_key;
    };
    ops = await user('books-ops', ['write', 'read_rebate']);
    viewer = await user('books-viewer', []);
  });
  afterAll(async () => server.close());

  describe('positions open over a day end (worked by hand)', () => {
    // Deposit 5,000 (Nov 20). EURUSD position 41: in Nov 21 09:00 commission −3.50, out Nov 23 15:00
    // commission −3.50 profit +80. GBPUSD position 42: in Nov 23 10:00 commission −4.20, still open.
    // The broker takes an entry's commission from the balance at once, so its day-end balances are
    // Nov 20: 5,000; Nov 21: 4,996.50; Nov 22: 4,996.50; Nov 23: 5,000 − 3.50 − 3.50 + 80 − 4.20 =
    // 5,068.80; Nov 24: 5,068.80 (the open GBPUSD's −4.20 included).
    const account = 'books-6100004';
    it("derives each past day's NAV at the broker's balance, the commission of positions still open included", async () => {
      await send('6100004', {
        deals: {
          items: [
            deal({ ticket: 401, time: utc('2026-11-20T08:00:00Z'), profit: 5_000 }),
            deal({ ticket: 402, position_id: 41, time: utc('2026-11-21T09:00:00Z'), type: 0, entry: 'in', symbol: 'EURUSD', volume: 1, price: 1.1, commission: -3.5 }),
            deal({ ticket: 403, position_id: 42, time: utc('2026-11-23T10:00:00Z'), type: 1, entry: 'in', symbol: 'GBPUSD', volume: 1.2, price: 1.27, commission: -4.2 }),
            deal({ ticket: 404, position_id: 41, time: utc('2026-11-23T15:00:00Z'), type: 1, entry: 'out', symbol: 'EURUSD', volume: 1, price: 1.1008, commission: -3.5, profit: 80 }),
          ],
          deleted: [],
        },
      });
      const { rows } = await nav('11.2026', account);
      expect(rows.map((r) => [r.date_day, r.balance, r.derived])).toEqual([
        [20, 5_000, true],
        [21, 4_996.5, true],
        [22, 4_996.5, true],
        [23, 5_068.8, true],
        [24, 5_068.8, true],
      ]);
    });
  });

  describe('a deposit, a trade and a monthly agent commission (worked by hand)', () => {
    // Deposit 10 000 (Nov 20); EURUSD buy 1 lot, in 1.1000 commission −1.75 and out 1.1015 profit +150
    // commission −1.75 (Nov 21): net 150 − 3.50 = 146.50; agent commission +12.30 (Nov 23).
    // Balance 10 000 + 146.50 + 12.30 = 10 158.80.
    const account = 'books-6100001';
    beforeAll(async () => {
      const body = await send('6100001', {
        deals: {
          items: [
            deal({ ticket: 1, time: utc('2026-11-20T08:00:00Z'), profit: 10_000 }),
            deal({ ticket: 2, position_id: 7, time: utc('2026-11-21T09:00:00Z'), type: 0, entry: 'in', symbol: 'EURUSD', volume: 1, price: 1.1, commission: -1.75 }),
            deal({ ticket: 3, position_id: 7, time: utc('2026-11-21T15:00:00Z'), type: 1, entry: 'out', symbol: 'EURUSD', volume: 1, price: 1.1015, commission: -1.75, profit: 150 }),
            deal({ ticket: 4, time: utc('2026-11-23T06:00:00Z'), type: 11, profit: 12.3 }),
          ],
          deleted: [],
        },
        quotes: [{ symbol: 'EURUSD', bid: 1.1, ask: 1.1 }],
      });
      expect(body.applied.deals).toBe(3);
    });

    it('puts the agent commission on the balance: 10 158.80, and in total_rebate for read_rebate users only', async () => {
      const mine = await info(ops, account);
      expect(mine).toMatchObject({ balance: 10_158.8, total_rebate: 12.3, total_commission: -3.5, total_fees: 0, net_profit: 146.5 });
      expect((await info(viewer, account)).total_rebate).toBeNull();
    });

    it("shows it in the month's rebate row too", async () => {
      const rebates = await http<{ data: { account: string; month: string; total_rebate: number; balance: number }[] }>(server, 'GET', '/api/stats/rebates?portfolio=SMA', { key: ops });
      expect(rebates.body.data.filter((r) => r.account === 'Books 6100001')).toEqual([
        expect.objectContaining({ month: '2026-11', total_rebate: 12.3, balance: 10_158.8 }),
      ]);
    });

    it("lists it in the deal list as a 'Rebate' balance row, and the list adds up to the balance", async () => {
      const { deals } = await history(ops, account);
      expect(deals.map((d) => [d.type, d.category, d.symbol, d.profit, d.rebate])).toEqual([
        ['Rebate', 'Balance', '', 12.3, 12.3],
        ['Buy', 'Forex', 'EURUSD', 150, 0],
        ['Deposit', 'Balance', '', 10_000, 0],
      ]);
      const money = deals.reduce((s, d) => s + (d.category === 'Balance' ? d.profit : d.profit + d.swap + d.commission + d.fee), 0);
      expect(money).toBeCloseTo(10_158.8, 6);
      // Without read_rebate the row is there (it moved the balance), its rebate figure is not.
      expect((await history(viewer, account)).deals.map((d) => [d.type, d.profit, d.rebate])[0]).toEqual(['Rebate', 12.3, null]);
    });

    it('keeps a trade fee and its commission apart, in the account currency and in EUR', async () => {
      const trade = (await history(ops, account)).deals[1]!;
      expect(trade).toMatchObject({ commission: -3.5, commission_currency: -3.5, fee: 0, fee_currency: 0 });
      // 1 lot of 100 000 EUR at 1.1000 USD = 110 000 USD: what the lots were worth at the open, in EUR
      // at the terminal's quote of 1.1000.
      expect(trade.quantity_currency).toBe(100_000);
    });

    it('moves the balance series, and the growth as income (10 158.80 / 10 000 → 1.588 %), not the trading profit', async () => {
      const { all } = await history(ops, account);
      expect(all.balance.map((p) => p.value)).toEqual([10_000, 10_146.5, 10_158.8]);
      expect(all.growth.at(-1)?.value).toBe(1.588);
      expect(all.stats.growth).toBe(1.588);
      expect(all.profit.map((p) => p.value)).toEqual([146.5]);
    });

    it('has end-of-day NAV from its first deal to yesterday, derived at each day-end balance', async () => {
      const { rows, days } = await nav('11.2026', account);
      expect(days).toEqual([20, 21, 22, 23, 24]);
      expect(rows.map((r) => ({ date_day: r.date_day, balance: r.balance, equity: r.equity, derived: r.derived }))).toEqual([
        navRow(20, 10_000),
        navRow(21, 10_146.5),
        navRow(22, 10_146.5),
        navRow(23, 10_158.8),
        navRow(24, 10_158.8),
      ]);
      expect(rows[0]!.last_update).toBe(utc('2026-11-21T00:00:00Z'));
    });

    it('takes the commission back when the broker corrects it, on the balance, the rebates and the NAV', async () => {
      await send('6100001', { deals: { items: [deal({ ticket: 4, time: utc('2026-11-23T06:00:00Z'), type: 11, profit: 15 })], deleted: [] } });
      expect(await info(ops, account)).toMatchObject({ balance: 10_161.5, total_rebate: 15 });
      expect((await nav('11.2026', account)).rows.map((r) => r.balance)).toEqual([10_000, 10_146.5, 10_146.5, 10_161.5, 10_161.5]);
      await send('6100001', { deals: { items: [], deleted: [4] } });
      expect(await info(ops, account)).toMatchObject({ balance: 10_146.5, total_rebate: 0 });
      expect((await history(ops, account)).deals.map((d) => d.type)).toEqual(['Buy', 'Deposit']);
    });
  });

  describe('NAV from the first deal, and the rows taken live', () => {
    const account = 'books-6100002';
    /** A NAV row taken at a day end, as the ledger writes it. */
    const live = (row: NavEntry) => server.app.ledger.write((tx) => insertNav(queryableOf(tx), [row]));
    it('derives the past days again from a late deal, and never overwrites a row taken live', async () => {
      await send('6100002', {
        deals: { items: [deal({ ticket: 11, time: utc('2026-11-22T10:00:00Z'), profit: 5_000 }), deal({ ticket: 12, time: utc('2026-11-24T10:00:00Z'), profit: 1_000 })], deleted: [] },
      });
      // Nov 23 ended live at 5 050 (a position open at midnight): that row stays.
      await live({ accountId: ids.get('6100002')!, day: dayOf('2026-11-23T00:00:00Z'), balance: 5_000, equity: 5_050, takenAt: utc('2026-11-24T00:00:00Z') });
      // A late deposit on Nov 22 (a deal the terminal had not sent yet).
      await send('6100002', { deals: { items: [deal({ ticket: 10, time: utc('2026-11-22T08:00:00Z'), profit: 200 })], deleted: [] } });
      const { rows } = await nav('11.2026', account);
      expect(rows.map((r) => ({ date_day: r.date_day, balance: r.balance, equity: r.equity, derived: r.derived }))).toEqual([
        navRow(22, 5_200),
        { date_day: 23, balance: 5_000, equity: 5_050, derived: false },
        navRow(24, 6_200),
      ]);
    });

    it('lets a row taken live at a day end replace the derived one', async () => {
      await live({ accountId: ids.get('6100002')!, day: dayOf('2026-11-24T00:00:00Z'), balance: 6_200, equity: 6_180, takenAt: utc('2026-11-25T00:00:00Z') });
      expect((await nav('11.2026', account)).rows.at(-1)).toMatchObject({ date_day: 24, balance: 6_200, equity: 6_180, derived: false });
    });

    it('writes no NAV for deals of today, which has not ended', async () => {
      await send('6100002', { deals: { items: [deal({ ticket: 13, time: utc('2026-11-25T09:00:00Z'), profit: 10 })], deleted: [] } });
      expect((await nav('11.2026', account)).days).toEqual([20, 21, 22, 23, 24]);
    });
  });

  describe('the figures that came out unrounded', () => {
    // Deposit 10 000; A +150 (commission −3.50): 146.50; B −340.01 (commission −3.30 in, −3.29 out): −346.60;
    // C +545.60; withdrawal 1 000; D +100.
    const account = 'books-6100003';
    const trade = (n: number, profit: number, commissionIn: number, commissionOut: number, day: string) => [
      deal({ ticket: n * 10, position_id: n, time: utc(`${day}T09:00:00Z`), type: 0, entry: 'in', symbol: 'EURUSD', volume: 1, price: 1.1, commission: commissionIn }),
      deal({ ticket: n * 10 + 1, position_id: n, time: utc(`${day}T15:00:00Z`), type: 1, entry: 'out', symbol: 'EURUSD', volume: 1, price: 1.1, commission: commissionOut, profit }),
    ];
    beforeAll(async () => {
      await send('6100003', {
        deals: {
          items: [
            deal({ ticket: 1, time: utc('2026-11-02T08:00:00Z'), profit: 10_000 }),
            ...trade(1, 150, -1.75, -1.75, '2026-11-03'),
            ...trade(2, -340.01, -3.3, -3.29, '2026-11-04'),
            ...trade(3, 545.6, 0, 0, '2026-11-05'),
            deal({ ticket: 2, time: utc('2026-11-06T08:00:00Z'), profit: -1_000 }),
            ...trade(4, 100, 0, 0, '2026-11-09'),
          ],
          deleted: [],
        },
      });
    });

    it('worst trade −346.60, not −346.59999999999997', async () => {
      expect((await history(ops, account)).all.stats.worst_trade?.profit).toBe(-346.6);
    });

    it('profit factor to 4 decimals: (146.50 + 545.60 + 100) / 346.60 = 2.2853', async () => {
      expect((await history(ops, account)).all.stats.profit_factor).toBe(2.2853);
    });

    it('growth to 4 decimals, the same in the stats and at the end of the series: 10 345.50 / 10 000 × 9 445.50 / 9 345.50 → 4.5620 %', async () => {
      const { all } = await history(ops, account);
      expect(all.stats.growth).toBe(4.562);
      expect(all.growth.at(-1)?.value).toBe(4.562);
    });
  });

  describe('MT4 lower-case pairs with broker suffixes', () => {
    const login = '2100123';
    it('classes a terminal position audusd as Forex under AUDUSD, on the live feed too, its fee apart from its commission', async () => {
      await send('6100001', {
        positions: {
          full: true,
          open: [{ identifier: 501, symbol: 'audusd', type: 'buy', volume: 0.3, price_open: 0.655, price_current: 0.656, sl: 0, tp: 0, profit: 30, swap: -1, commission: -2.1, time: utc('2026-11-25T08:00:00Z') }],
          closed: [],
        },
      });
      const row = (await server.app.db.query<{ symbol: string; category: string }>('SELECT symbol, category FROM positions WHERE identifier = 501'))[0];
      expect(row).toEqual({ symbol: 'AUDUSD', category: 'Forex' });
      const client = await connect(server, '/ws/brokers/live-positions-aggregate-by', { token: await ticket(server, ops), portfolio: 'SMA', aggregate_by: 'account', account: 'books-6100001' });
      const message = (client.messages[0] ?? (await client.next())) as { positionsAggregate: { u_symbol: string; category: string; fee_currency: number; commission_currency: number; swap_currency: number }[] };
      client.socket.close();
      expect(message.positionsAggregate).toEqual([expect.objectContaining({ u_symbol: 'AUDUSD', category: 'Forex', fee_currency: 0, commission_currency: -2.1, swap_currency: -1 })]);
    });

    it('classes the deals of an imported MT4 statement (eurusd, gbpusd, xauusd) as Forex, and derives its NAV from the first deal', async () => {
      const file = fs.readFileSync(new URL('../fixtures/reports/mt4-statement-cp1252.htm', import.meta.url));
      const res = await fetch(`${server.url}/api/accounts/import-statement?account=${login}&utc_offset_minutes=0`, {
        method: 'POST',
        headers: { 'content-type': 'application/octet-stream', 'x-api-key': ops },
        body: new Uint8Array(file),
      });
      expect(res.status, await res.clone().text()).toBe(200);
      const { deals } = await history(ops, `books-${login}`);
      expect(deals.filter((d) => d.category !== 'Balance').map((d) => [d.symbol, d.category])).toEqual([
        ['XAUUSD', 'Forex'],
        ['GBPUSD', 'Forex'],
        ['GBPUSD', 'Forex'],
        ['EURUSD', 'Forex'],
      ]);
      // The report's own figures: closed P/L −961.85 with its deposit and withdrawal → balance 8 538.15.
      // Day ends (UTC): Jun 1 10 000; Jun 2 +350 −7 −0.45 = 10 342.55; Jun 5 +40 −1.40 = 10 381.15;
      // Jun 7 −75 −2.10 −1.00 −0.90 = 10 302.15; Jun 8 −1 250 −14 = 9 038.15; Jun 9 −500 = 8 538.15.
      const june = await nav('6.2023', `books-${login}`);
      expect(june.rows.slice(0, 9).map((r) => [r.date_day, r.balance])).toEqual([
        [1, 10_000], [2, 10_342.55], [3, 10_342.55], [4, 10_342.55], [5, 10_381.15], [6, 10_381.15], [7, 10_302.15], [8, 9_038.15], [9, 8_538.15],
      ]);
      expect(june.rows.every((r) => r.derived)).toBe(true);
      // And every day after, to yesterday.
      expect((await nav('11.2026', `books-${login}`)).rows.at(-1)).toMatchObject({ date_day: 24, balance: 8_538.15, derived: true });
    });
  });
});
