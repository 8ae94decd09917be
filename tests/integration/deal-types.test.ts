/**
 * Every MT5 deal type that moves the balance, on the books of a real account (docs/architecture.md,
 * "Deal types on the books"), driven as a terminal and a user would: through the ingest API (the
 * balance, the deal list, the balance and growth series, the NAV derived from the deals; the broker
 * editing and deleting them), through the statement import (a report holding a charge, whose stated
 * balance the books reach; money of a JPY account in whole yen), and a statement's opening balance
 * booked beside a terminal's batch that books a deal meanwhile. Every figure is worked by hand.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { IngestAccount, IngestDeal } from '#shared/contract/ingest.ts';
import type { HistoricalDealsResponse } from '#shared/contract/deals.ts';
import type { ImportStatementResponse } from '#shared/contract/import.ts';
import { hashPassword } from '#server/auth/password.ts';
import { hashToken, newToken } from '#server/auth/tokens.ts';
import { insertAccount, insertBroker } from '#server/db/accounts-repo.ts';
import { grantAccount, insertAgent } from '#server/db/agents-repo.ts';
import { queryableOf } from '#server/db/write-context.ts';
import { BACKENDS, http, startServer, type TestServer } from './helpers/server.ts';
import { mt5Report } from '../fixtures/reports/mt5-report.ts';

/** The pinned clock: Wednesday 2026-11-25, 10:00 UTC. */
const NOW = Date.parse('2026-11-25T10:00:00Z');
const utc = (iso: string) => Date.parse(iso) / 1000;
/** A balance-side deal as a terminal reports it (no position, no symbol), its money in `profit`. */
const op = (ticket: number, type: number, iso: string, profit: number): IngestDeal => ({
  ticket, position_id: 0, type, entry: 'in', symbol: '', volume: 0, price: 0, commission: 0, fee: 0, swap: 0, profit, time: utc(iso),
});

type Info = { account_id: string; balance: number; equity: number; net_profit: number; total_commission: number; total_fees: number; total_rebate: number | null };
type NavAnswer = { data: { account_id: string; date_day: number; balance: number; equity: number; derived: boolean }[] };

describe.each(BACKENDS)('MT5 deal types on the books of real accounts (%s)', (backend) => {
  let server: TestServer;
  let admin: string;
  let agentKey: string;
  const session = randomUUID();
  let seq = 0;
  const ids = new Map<string, number>();

  const batch = (login: string, account: Omit<IngestAccount, 'login' | 'server'>) =>
    http<{ applied: { deals: number } }>(server, 'POST', '/api/ingest/v1/batches', {
      headers: { 'x-agent-key': agentKey },
      body: { session, seq: ++seq, batch_id: randomUUID(), utc_offset_minutes: 0, sent_at: NOW, accounts: [{ login, server: 'Types-Live', ...account }] },
    });
  const send = async (login: string, account: Omit<IngestAccount, 'login' | 'server'>) => {
    const res = await batch(login, account);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body;
  };
  const info = async (accountId: string) =>
    (await http<{ data: Info[] }>(server, 'GET', '/api/brokers/accounts/info', { key: admin })).body.data.find((a) => a.account_id === accountId)!;
  const history = async (accountId: string) =>
    (await http<HistoricalDealsResponse>(server, 'GET', `/api/brokers/historical-deals?account=${accountId}`, { key: admin })).body.dealsStats[0]!;
  const navBalances = async (accountId: string) =>
    (await http<NavAnswer>(server, 'GET', '/api/brokers/accounts/historical_infos?date_id=11.2026', { key: admin })).body.data
      .filter((r) => r.account_id === accountId)
      .map((r) => [r.date_day, r.balance, r.equity, r.derived]);
  const upload = (accountId: string, html: string) =>
    fetch(`${server.url}/api/accounts/import-statement?account=${accountId}&utc_offset_minutes=0`, {
      method: 'POST',
      headers: { 'content-type': 'application/octet-stream', 'x-api-key': admin },
      body: html,
    }).then(async (res) => ({ status: res.status, body: (await res.json()) as ImportStatementResponse & { message: string } }));

  beforeAll(async () => {
    server = await startServer(backend, { demo: false, market: { now: () => NOW } });
    const db = server.app.db;
    await server.app.authStore.upsertUser({ username: 'types-ops', password_hash: await hashPassword('types-ops-password-1'), status: 'active', permissions: ['write', 'read_rebate'], portfolio_auth: ['SMA'] });
    admin = (await http<{ data: { api_key: string } }>(server, 'POST', '/api/login', { body: { username: 'types-ops', password: 'types-ops-password-1' } })).body.data.api_key;
    const broker = await insertBroker(db, { broker_name: 'TypesBroker', img_path: '/brokers/none.svg', spread_pips: 0, latency_ms: 0, commission_per_lot: 0, rebate_per_lot: 0 });
    const agentId = await insertAgent(db, 'types-terminal', hashToken((agentKey = newToken())));
    for (const [login, currency] of [['7300001', 'USD'], ['7300002', 'USD'], ['7300003', 'JPY'], ['7300004', 'USD'], ['7300005', 'USD']] as const) {
      const id = await insertAccount(db, {
        account_id: `types-${login}`, account: login, account_name: `Types ${login}`, broker_id: broker, server: 'Types-Live', server_name: 'Types Live',
        teiko_category: 'SMA', currency, is_master: false, master_id: null, copy_ratio: 1, leverage: 100, ping: 0, last_update: 0, source: 'agent',
      });
      ids.set(login, id);
      await grantAccount(db, agentId, id, 'read');
    }
  });
  afterAll(async () => server.close());

  describe('through the ingest API: a charge, interest, a dividend and its tax, a commission deal and a bonus', () => {
    const account = 'types-7300001';
    // Deposit 1 000.00 (Nov 20); charge −5.00 and interest +1.23 (Nov 21); dividend +4.50 and tax −0.68 (Nov 22);
    // a commission deal −7.00 (Nov 23); a bonus +100.00 and a credit of 500.00 (Nov 24).
    beforeAll(async () => {
      const body = await send('7300001', {
        deals: {
          items: [
            op(1, 2, '2026-11-20T08:00:00Z', 1_000),
            op(2, 4, '2026-11-21T09:00:00Z', -5),
            op(3, 12, '2026-11-21T10:00:00Z', 1.23),
            op(4, 15, '2026-11-22T09:00:00Z', 4.5),
            op(5, 17, '2026-11-22T09:01:00Z', -0.68),
            op(6, 7, '2026-11-23T06:00:00Z', -7),
            op(7, 6, '2026-11-24T06:00:00Z', 100),
            op(8, 3, '2026-11-24T07:00:00Z', 500),
          ],
          deleted: [],
        },
      });
      // Every deal but the credit, which MT5 keeps apart from the balance.
      expect(body.applied.deals).toBe(7);
    });

    it('books each on the balance: 1 000.00 − 5.00 + 1.23 + 4.50 − 0.68 − 7.00 + 100.00 = 1 093.05; no trading profit, commission or fee', async () => {
      expect(await info(account)).toMatchObject({ balance: 1_093.05, net_profit: 0, total_commission: 0, total_fees: 0, total_rebate: 0 });
    });

    it('lists each in the deal list as a balance row named by its type, and the list adds up to the balance', async () => {
      const { deals } = await history(account);
      expect(deals.map((d) => [d.type, d.category, d.symbol, d.profit])).toEqual([
        ['Bonus', 'Balance', '', 100],
        ['Commission', 'Balance', '', -7],
        ['Tax', 'Balance', '', -0.68],
        ['Dividend', 'Balance', '', 4.5],
        ['Interest', 'Balance', '', 1.23],
        ['Charge', 'Balance', '', -5],
        ['Deposit', 'Balance', '', 1_000],
      ]);
      expect(deals.reduce((s, d) => s + d.profit, 0)).toBeCloseTo(1_093.05, 6);
    });

    it('moves the balance series with each, and the growth as results of the account; the bonus opens a new sub-period as a deposit would', async () => {
      const { all } = await history(account);
      // 1 000 → 995.00 → 996.23 → 1 000.73 → 1 000.05 → 993.05 → (bonus) 1 093.05.
      expect(all.balance.map((p) => p.value)).toEqual([1_000, 995, 996.23, 1_000.73, 1_000.05, 993.05, 1_093.05]);
      // Growth: 995 / 1 000 − 1 = −0.5 %; 996.23 / 1 000 → −0.377 %; 1 000.73 → +0.073 %; 1 000.05 → +0.005 %;
      // 993.05 → −0.695 %; the bonus closes the sub-period at 993.05 / 1 000 and adds nothing: −0.695 %.
      expect(all.growth.map((p) => p.value)).toEqual([0, -0.5, -0.377, 0.073, 0.005, -0.695, -0.695]);
      expect(all.stats.growth).toBe(-0.695);
      // No trade closed: the trading profit is empty.
      expect(all.profit).toEqual([]);
      expect(all.stats.net_profit).toBe(0);
    });

    it('derives the end-of-day NAV from them, day by day', async () => {
      // Nov 20: 1 000.00; Nov 21: 1 000 − 5 + 1.23 = 996.23; Nov 22: + 4.50 − 0.68 = 1 000.05; Nov 23: − 7 = 993.05;
      // Nov 24: + 100 = 1 093.05 (the credit moves nothing).
      expect(await navBalances(account)).toEqual([
        [20, 1_000, 1_000, true],
        [21, 996.23, 996.23, true],
        [22, 1_000.05, 1_000.05, true],
        [23, 993.05, 993.05, true],
        [24, 1_093.05, 1_093.05, true],
      ]);
    });

    it('follows the broker: a charge corrected to −6.00, the tax booked as a charge, the interest deleted', async () => {
      await send('7300001', { deals: { items: [op(2, 4, '2026-11-21T09:00:00Z', -6), op(5, 4, '2026-11-22T09:01:00Z', -0.68)], deleted: [3] } });
      // 1 093.05 − 1.00 (the charge) − 1.23 (the interest) = 1 090.82.
      expect((await info(account)).balance).toBe(1_090.82);
      expect((await history(account)).deals.map((d) => [d.type, d.profit])).toEqual([
        ['Bonus', 100], ['Commission', -7], ['Charge', -0.68], ['Dividend', 4.5], ['Charge', -6], ['Deposit', 1_000],
      ]);
      // Nov 21: 1 000 − 6 = 994.00; Nov 22: + 4.50 − 0.68 = 997.82; Nov 23: 990.82; Nov 24: 1 090.82.
      expect((await navBalances(account)).map(([day, balance]) => [day, balance])).toEqual([[20, 1_000], [21, 994], [22, 997.82], [23, 990.82], [24, 1_090.82]]);
    });

    it('changes nothing when the same deals come again', async () => {
      const body = await send('7300001', { deals: { items: [op(1, 2, '2026-11-20T08:00:00Z', 1_000), op(2, 4, '2026-11-21T09:00:00Z', -6), op(7, 6, '2026-11-24T06:00:00Z', 100)], deleted: [] } });
      expect(body.applied.deals).toBe(0);
      expect((await info(account)).balance).toBe(1_090.82);
    });
  });

  describe('through the statement import', () => {
    it("imports a report holding a charge: no warning, and the account's balance is the one the report states", async () => {
      // 1 000.00 before the period; a trade +100.00 (Nov 5); an account fee −5.00 (Nov 6): 1 000 + 100 − 5 = 1 095.00.
      const html = mt5Report({
        login: '7300002',
        currency: 'USD',
        server: 'Types-Live',
        opening: 1_000,
        trades: [
          {
            position: 501, symbol: 'EURUSD', side: 'buy', volume: 0.1,
            open: { deal: 101, time: '2026.11.04 10:00:00', price: 1.1 },
            close: { deal: 102, order: 601, time: '2026.11.05 10:00:00', price: 1.11, profit: 100 },
          },
        ],
        cashFlows: [{ deal: 103, time: '2026.11.06 00:00:00', amount: -5, type: 'charge', comment: 'Account fee' }],
      });
      const res = await upload('types-7300002', html);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(res.body.warnings).toEqual([]);
      expect(res.body.message).toBe("Imported: 3 added, 0 updated, 0 skipped. Opening balance 1 000.00 USD: the balance before the report's first deal.");
      expect(await info('types-7300002')).toMatchObject({ balance: 1_095, equity: 1_095, net_profit: 100 });
      expect((await history('types-7300002')).deals.map((d) => [d.type, d.profit])).toEqual([['Charge', -5], ['Buy', 100], ['Opening balance', 1_000]]);
    });

    it('names money of a JPY account in whole yen', async () => {
      // 3 000 691 yen before the period, a trade −427: 3 000 264.
      const html = mt5Report({
        login: '7300003',
        currency: 'JPY',
        server: 'Types-Live',
        opening: 3_000_691,
        trades: [
          {
            position: 701, symbol: 'USDJPY', side: 'sell', volume: 0.1,
            open: { deal: 201, time: '2026.11.04 10:00:00', price: 150 },
            close: { deal: 202, order: 801, time: '2026.11.05 10:00:00', price: 150.0427, profit: -427 },
          },
        ],
      });
      const res = await upload('types-7300003', html);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(res.body.message).toBe("Imported: 2 added, 0 updated, 0 skipped. Opening balance 3 000 691 JPY: the balance before the report's first deal.");
      expect((await info('types-7300003')).balance).toBe(3_000_264);
    });
  });

  describe("a statement's opening balance while a terminal's batch books a deal of the account", () => {
    // The report: just before its first deal (101, Nov 10) the balance was 1 000.00; a trade +100.00 (Nov 11).
    const reportDeals: IngestDeal[] = [
      { ticket: 101, position_id: 501, type: 0, entry: 'in', symbol: 'EURUSD', volume: 0.1, price: 1.1, commission: 0, fee: 0, swap: 0, profit: 0, time: utc('2026-11-10T10:00:00Z') },
      { ticket: 102, position_id: 501, type: 1, entry: 'out', symbol: 'EURUSD', volume: 0.1, price: 1.11, commission: 0, fee: 0, swap: 0, profit: 100, time: utc('2026-11-11T10:00:00Z') },
    ];
    const statement = { opening: { before_ticket: 101, balance: 1_000 }, floating: 0 };

    /**
     * Holds the account's books as a terminal's batch does while it books a deposit of 200.00 on Nov 1 (a
     * deal the terminal had not sent before): `run` goes on meanwhile until the batch's transaction blocks
     * it (PostgreSQL; the embedded database runs one transaction at a time: there, half a second), then
     * the batch commits.
     */
    const whileBooking = async <T>(login: string, run: () => Promise<T>): Promise<T> => {
      let booked!: (pid: number | null) => void;
      const recorded = new Promise<number | null>((resolve) => (booked = resolve));
      let release!: () => void;
      const gate = new Promise<void>((resolve) => (release = resolve));
      const ledger = server.app.ledger;
      const held = ledger.write(async (tx) => {
        await ledger.record(tx, [{ accountId: ids.get(login)!, ticket: 50, at: utc('2026-11-01T08:00:00Z'), amount: 200, rebalancing: false }]);
        booked(backend === 'postgres' ? (await queryableOf(tx).query<{ pid: number }>('SELECT pg_backend_pid() AS pid'))[0]!.pid : null);
        await gate;
      });
      const pid = await recorded;
      const running = run();
      if (pid === null) await new Promise((resolve) => setTimeout(resolve, 500));
      else {
        // Until `run` waits for the batch's transaction (wherever it first needs the account's books).
        const blocked = async () =>
          (await server.app.db.query<{ n: number }>('SELECT count(*)::int AS n FROM pg_stat_activity WHERE $1 = ANY(pg_blocking_pids(pid))', [pid]))[0]!.n > 0;
        for (let i = 0; i < 200 && !(await blocked()); i++) await new Promise((resolve) => setTimeout(resolve, 50));
      }
      release();
      await held;
      return running;
    };
    const openings = async (accountId: string) => (await history(accountId)).deals.filter((d) => d.type === 'Opening balance').map((d) => d.profit);

    it('a replayed report waits for the batch and opens at what the deposit leaves unexplained: 1 000.00 − 200.00 = 800.00', async () => {
      await send('7300004', { deals: { items: reportDeals, deleted: [] }, statement });
      expect((await info('types-7300004')).balance).toBe(1_100);
      // The report replayed again (its deals unchanged) while the batch books the deposit of Nov 1.
      const res = await whileBooking('7300004', () => batch('7300004', { deals: { items: reportDeals, deleted: [] }, statement }));
      expect(res.status).toBe(200);
      expect(await openings('types-7300004')).toEqual([800]);
      // 200.00 + 800.00 + 100.00 = 1 100.00: the report's balance, the deposit counted once.
      expect((await info('types-7300004')).balance).toBe(1_100);
    });

    it('an imported report does the same', async () => {
      const html = mt5Report({
        login: '7300005', currency: 'USD', server: 'Types-Live', opening: 1_000,
        trades: [{ position: 501, symbol: 'EURUSD', side: 'buy', volume: 0.1, open: { deal: 101, time: '2026.11.10 10:00:00', price: 1.1 }, close: { deal: 102, order: 601, time: '2026.11.11 10:00:00', price: 1.11, profit: 100 } }],
      });
      expect((await upload('types-7300005', html)).status).toBe(200);
      const res = await whileBooking('7300005', () => upload('types-7300005', html));
      expect(res.status).toBe(200);
      expect(await openings('types-7300005')).toEqual([800]);
      expect((await info('types-7300005')).balance).toBe(1_100);
    });
  });
});
