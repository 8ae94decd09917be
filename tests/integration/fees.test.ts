/**
 * Fees and statements end to end, worked by hand (docs/fees.md): a write user sets a follower's terms
 * through the API; a month of deals comes in through the ingest API as a terminal sends them; the
 * month's days end in the ledger; /api/fees shows every accrual and charge with its arithmetic, and
 * the statement (JSON, CSV and PDF) agrees with it and with the books to the cent. A deal of the
 * charged month arriving late is adjusted in the next month, the charge left as it was.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { IngestDeal } from '#shared/contract/ingest.ts';
import { hashPassword } from '#server/auth/password.ts';
import { hashToken, newToken } from '#server/auth/tokens.ts';
import { insertAccount, insertBroker } from '#server/db/accounts-repo.ts';
import { grantAccount, insertAgent } from '#server/db/agents-repo.ts';
import { BACKENDS, http, startServer, type TestServer } from './helpers/server.ts';
import { insertDeals } from '#server/db/deals-repo.ts';
import { tradeEntry } from '#server/ledger/rules.ts';
import { statementQueue } from '#server/fees/statement-queue.ts';

const DAY_S = 86_400;
const utc = (iso: string) => Date.parse(iso) / 1000;
const dayOf = (iso: string) => Math.floor(utc(iso) / DAY_S);
const deal = (over: Partial<IngestDeal> & Pick<IngestDeal, 'ticket' | 'time'>): IngestDeal => ({
  position_id: 0, type: 2, entry: 'in', symbol: '', volume: 0, price: 0, commission: 0, fee: 0, swap: 0, profit: 0, ...over,
});

/*
 * The month, by hand (USD account, SMA: 20 % without terms). Terms from 1 October: monthly;
 * performance 25 % on equity, withdrawals lower the mark by their amount; management 2 % a year.
 *   30 Sep  deposit 100,000                       balance 100,000   mark 100,000
 *   10 Oct  deposit  20,000                       balance 120,000   mark 120,000
 *   15 Oct  EURUSD buy 2 lots: profit 9,000, swap −3, commission −7 → net 8,990   balance 128,990
 *   20 Oct  withdrawal 10,000                     balance 118,990   mark 110,000
 *   31 Oct  equity 118,990: performance 25 % × (118,990 − 110,000) = 2,247.50, mark 116,742.50
 * Management, on each day's end-of-day equity: 9 days at 100,000, 5 at 120,000, 5 at 128,990, 12 at
 * 118,990: 2 % / 365 × (900,000 + 600,000 + 644,950 + 1,427,880) = 195.7715… → charged 195.77.
 * Each day's accrual is kept to 6 decimals: 5.479452, 6.575342, 7.067945, 6.52.
 */
const BALANCE_AT_END_OF: [string, number][] = [
  ['2026-09-30', 100_000],
  ...Array.from({ length: 31 }, (_, i): [string, number] => {
    const d = i + 1;
    const iso = `2026-10-${String(d).padStart(2, '0')}`;
    return [iso, d < 10 ? 100_000 : d < 15 ? 120_000 : d < 20 ? 128_990 : 118_990];
  }),
];

describe.each(BACKENDS)('fees and statements (%s)', (backend) => {
  let server: TestServer;
  let now = Date.parse('2026-09-30T10:00:00Z');
  let agentKey: string;
  let manager: string;
  let investor: string;
  let outsider: string;
  let seq = 0;
  const session = randomUUID();
  const ids = new Map<string, number>();
  const ACCOUNT = 'fees-7100001';
  const UNTERMED = 'fees-7100002';

  const send = async (login: string, items: IngestDeal[]) => {
    const res = await http<{ applied: { deals: number } }>(server, 'POST', '/api/ingest/v1/batches', {
      headers: { 'x-agent-key': agentKey },
      body: { session, seq: ++seq, batch_id: randomUUID(), utc_offset_minutes: 0, sent_at: now, accounts: [{ login, server: 'Fees-Live', deals: { items, deleted: [] } }] },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
  };
  /** The days end as the server's day-end does it, at these equities (no position is open overnight: equity = balance). */
  const endDays = async (days: [string, number][], extra: Map<number, number> = new Map()) => {
    for (const [iso, equity] of days) {
      const figures = [
        { id: ids.get('7100001')!, name: '', brokerName: '', margin: 0, lastUpdate: 0, equity },
        ...[...extra].map(([id, e]) => ({ id, name: '', brokerName: '', margin: 0, lastUpdate: 0, equity: e })),
      ];
      await server.app.ledger.write((tx) => server.app.ledger.endDay(tx, dayOf(`${iso}T00:00:00Z`), figures));
    }
  };
  const setTerms = (key: string, body: unknown) => http<{ message: string }>(server, 'PUT', '/api/fees/terms', { key, body });
  const TERMS = {
    period: 'monthly',
    performance: { rate: 0.25, basis: 'equity', withdrawals: 'amount' },
    management: { annual_rate: 0.02 },
    volume: null,
  };

  beforeAll(async () => {
    server = await startServer(backend, { demo: false, market: { now: () => now } });
    const db = server.app.db;
    const broker = await insertBroker(db, { broker_name: 'FeesBroker', img_path: '/brokers/none.svg', spread_pips: 0, latency_ms: 0, commission_per_lot: 0, rebate_per_lot: 0 });
    const agentId = await insertAgent(db, 'fees-terminal', hashToken((agentKey = newToken())));
    for (const [login, currency] of [['7100001', 'USD'], ['7100002', 'USD'], ['7100003', 'EUR'], ['7100004', 'USD']] as const) {
      const id = await insertAccount(db, {
        account_id: `fees-${login}`, account: login, account_name: `Follower ${login}`, broker_id: broker, server: 'Fees-Live', server_name: 'Fees Live',
        teiko_category: 'SMA', currency, is_master: false, master_id: null, copy_ratio: 1, leverage: 100, ping: 0, last_update: 0, source: 'agent',
      });
      ids.set(login, id);
      await grantAccount(db, agentId, id, 'trade');
    }
    const user = async (username: string, permissions: string[], portfolios: string[]) => {
      await server.app.authStore.upsertUser({ username, password_hash: await hashPassword(`${username}-password-1`), status: 'active', permissions, portfolio_auth: portfolios });
      return (await http<{ data: { api_key: string } }>(server, 'POST', '/api/login', { body: { username, password: `${username}-password-1` } })).body.data.api_key;
    };
    manager = await user('fees-manager', ['write', 'read_rebate'], ['SMA']);
    investor = await user('fees-investor', [], ['SMA']);
    outsider = await user('fees-outsider', ['write'], ['Global FX']);
  });
  afterAll(async () => server.close());

  describe('terms', () => {
    it('shows the category default before anybody sets terms', async () => {
      const res = await http<{ data: { current: { default: boolean; terms: typeof TERMS }; versions: unknown[] } }>(server, 'GET', `/api/fees/terms?account=${ACCOUNT}`, { key: investor });
      expect(res.status).toBe(200);
      expect(res.body.data.current).toEqual({
        default: true,
        effective_from: null,
        terms: { period: 'monthly', performance: { rate: 0.2, basis: 'equity', withdrawals: 'amount' }, management: null, volume: null },
      });
    });

    it('refuses terms from a past day: never retroactive', async () => {
      const res = await setTerms(manager, { account: ACCOUNT, effective_from: '2026-09-29', terms: TERMS });
      expect(res.status).toBe(400);
      expect(JSON.stringify(res.body)).toContain('never retroactive');
    });

    it('refuses a user without write (403), an account outside the caller’s portfolios (404) and bad terms (400)', async () => {
      expect((await setTerms(investor, { account: ACCOUNT, effective_from: '2026-10-01', terms: TERMS })).status).toBe(403);
      expect((await setTerms(outsider, { account: ACCOUNT, effective_from: '2026-10-01', terms: TERMS })).status).toBe(404);
      for (const terms of [
        { ...TERMS, performance: { rate: 1.5 } },
        { ...TERMS, period: 'weekly' },
        { ...TERMS, management: { annual_rate: -0.01 } },
        { ...TERMS, volume: { usd_per_million: '30' } },
      ]) {
        const res = await setTerms(manager, { account: ACCOUNT, effective_from: '2026-10-01', terms });
        expect(res.status, JSON.stringify(terms)).toBe(400);
      }
      expect((await setTerms(manager, { account: ACCOUNT, effective_from: '2026-02-30', terms: TERMS })).status).toBe(400);
    });

    it('sets them from 1 October, audited, listed as a version still to come', async () => {
      const res = await setTerms(manager, { account: ACCOUNT, effective_from: '2026-10-01', terms: TERMS });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      const view = await http<{ data: { current: { default: boolean }; versions: { effective_from: string; set_by: string; terms: unknown }[] } }>(
        server, 'GET', `/api/fees/terms?account=${ACCOUNT}`, { key: investor },
      );
      expect(view.body.data.current.default).toBe(true);
      expect(view.body.data.versions).toEqual([expect.objectContaining({ effective_from: '2026-10-01', set_by: 'fees-manager', terms: TERMS })]);
      const audit = await server.app.db.query<{ action: string; detail: { account_id: string } }>("SELECT action, detail FROM audit_log WHERE action = 'fees.terms'");
      expect(audit.map((a) => a.detail)).toEqual([expect.objectContaining({ account_id: ACCOUNT, effective_from: '2026-10-01' }) as unknown]);
    });
  });

  describe('a volume fee on a copied round trip (F6)', () => {
    it('charges each leg of a copied EURUSD trade on a EUR account at its own price: 6.00 EUR and 6.00 EUR; a trade of its own pays none', async () => {
      const res = await setTerms(manager, {
        account: 'fees-7100003', effective_from: '2026-10-01', terms: { period: 'monthly', performance: null, management: null, volume: { usd_per_million: 30 } },
      });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      const trade = {
        accountId: ids.get('7100003')!, symbol: 'EURUSD', type: 'Buy' as const, category: 'Forex' as const, quantity: 2, openPrice: 1.08, closePrice: 1.085,
        openedAt: utc('2026-10-05T09:00:00Z'), closedAt: utc('2026-10-06T15:00:00Z'), profit: 925.93, swap: 0, commission: 0, fee: 0, rebate: 0,
        low: null, high: null, execMs: null,
      };
      await server.app.ledger.write((tx) =>
        server.app.ledger.record(tx, [
          { ...trade, ticket: 901, positionId: 90, copyOf: 77 },
          { ...trade, ticket: 902, positionId: 91, copyOf: null },
        ]),
      );
      const fees = await http<{ data: { entries: { kind: string; entry: string; at: number; basis: number; amount: number; currency: string; note: string }[] } }>(
        server, 'GET', '/api/fees?account=fees-7100003&period=2026-10', { key: investor },
      );
      expect(fees.body.data.entries.map((e) => [e.kind, e.entry, e.at, e.basis, e.amount, e.currency])).toEqual([
        ['volume', 'charge', utc('2026-10-05T09:00:00Z'), 216_000, 6, 'EUR'],
        ['volume', 'charge', utc('2026-10-06T15:00:00Z'), 217_000, 6, 'EUR'],
      ]);
      expect(fees.body.data.entries[0]!.note).toBe('EURUSD open 2 lots at 1.08: 216000.00 USD / 1,000,000 × 30 USD = 6.4800 USD at 1.08');
    });
  });

  describe('a statement of a busy account', () => {
    it('draws a PDF of 5,000 trades off the main thread: the server answers meanwhile', async () => {
      const id = ids.get('7100004')!;
      const start = utc('2026-08-01T00:00:00Z');
      const trades = Array.from({ length: 5_000 }, (_, i) => tradeEntry({
        accountId: id, symbol: 'EURUSD', type: i % 2 ? 'Sell' : 'Buy', category: 'Forex', quantity: 0.1, openPrice: 1.1, closePrice: 1.1005,
        openedAt: start + i * 600, closedAt: start + i * 600 + 300, profit: 5, swap: 0, commission: -0.7, fee: 0, rebate: 0,
        low: null, high: null, execMs: null, ticket: 100_000 + i,
      }));
      await server.app.db.transaction((tx) => insertDeals(tx, trades));
      const answer = fetch(`${server.url}/api/statements?account=fees-7100004&from=2026-08-01&to=2026-09-30&format=pdf`, { headers: { 'x-api-key': manager } });
      // While the statement is being made (its turn in the queue held), the server answers others.
      // Asserted through what happens, not the wall clock: how fast it answers is the bench's to measure.
      await expect.poll(() => statementQueue.stats().running).toBe(1);
      let answeredMeanwhile = 0;
      while (statementQueue.stats().running === 1) {
        if ((await fetch(`${server.url}/health`)).status === 200 && statementQueue.stats().running === 1) answeredMeanwhile++;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      const res = await answer;
      expect(res.status).toBe(200);
      expect(answeredMeanwhile).toBeGreaterThan(0);
      const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'statement-')), 'busy.pdf');
      fs.writeFileSync(file, Buffer.from(await res.arrayBuffer()));
      const text = execFileSync('pdftotext', ['-layout', file, '-'], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
      expect(text).toContain('Closed trades (5000), in USD');
      expect(text).toMatch(/Page \d+ of (\d+)/);
    }, 120_000);
  });

  describe('a month of deals under the terms', () => {
    beforeAll(async () => {
      // Day by day, as it happens: the day's deals come in from the terminal, then the day ends at midnight.
      const deals: IngestDeal[] = [
        deal({ ticket: 1, time: utc('2026-09-30T12:00:00Z'), profit: 100_000 }),
        deal({ ticket: 2, time: utc('2026-10-10T12:00:00Z'), profit: 20_000 }),
        deal({ ticket: 3, position_id: 30, time: utc('2026-10-15T08:00:00Z'), type: 0, entry: 'in', symbol: 'EURUSD', volume: 2, price: 1.1, commission: -3.5 }),
        deal({ ticket: 4, position_id: 30, time: utc('2026-10-15T16:00:00Z'), type: 1, entry: 'out', symbol: 'EURUSD', volume: 2, price: 1.145, commission: -3.5, swap: -3, profit: 9_000 }),
        deal({ ticket: 5, time: utc('2026-10-20T12:00:00Z'), profit: -10_000 }),
      ];
      const untermed = ids.get('7100002')!;
      for (const [iso, equity] of BALANCE_AT_END_OF) {
        now = Date.parse(`${iso}T18:00:00Z`);
        const today = deals.filter((d) => new Date(d.time * 1000).toISOString().startsWith(iso));
        if (today.length) await send('7100001', today);
        if (iso === '2026-09-30') await send('7100002', [deal({ ticket: 21, time: utc('2026-09-30T12:00:00Z'), profit: 50_000 })]);
        // The account without terms ends October at 55,000 (a position open): 20 % of the 5,000 over its mark.
        await endDays([[iso, equity]], new Map([[untermed, iso === '2026-10-31' ? 55_000 : 50_000]]));
      }
      now = Date.parse('2026-11-01T02:00:00Z');
    });

    type Entry = { kind: string; entry: string; period: string; at: number; basis: number; mark_before: number | null; mark_after: number | null; rate: number; amount: number; currency: string; note: string };
    type Fees = { data: { entries: Entry[]; totals: { kind: string; currency: string; charged: number; accrued: number }[] } };
    const october = () => http<Fees>(server, 'GET', `/api/fees?account=${ACCOUNT}&period=2026-10`, { key: investor });

    it('accrues the management fee every day on the day-end equity, to 6 decimals', async () => {
      const accruals = (await october()).body.data.entries.filter((e) => e.entry === 'accrual');
      expect(accruals).toHaveLength(31);
      expect(new Set(accruals.map((e) => e.kind))).toEqual(new Set(['management']));
      expect(accruals.map((e) => e.amount)).toEqual([
        ...Array<number>(9).fill(5.479452),
        ...Array<number>(5).fill(6.575342),
        ...Array<number>(5).fill(7.067945),
        ...Array<number>(12).fill(6.52),
      ]);
      expect(accruals[0]).toMatchObject({ basis: 100_000, rate: 0.02, currency: 'USD', period: '2026-10', note: '100000.00 × 2 % / 365' });
    });

    it('charges the month at its end: management 195.77, performance 2,247.50 with the mark before and after', async () => {
      const res = await october();
      const charges = res.body.data.entries.filter((e) => e.entry === 'charge');
      expect(charges.map((e) => [e.kind, e.period, e.basis, e.mark_before, e.mark_after, e.rate, e.amount])).toEqual([
        ['management', '2026-10', 195.77, null, null, 0.02, 195.77],
        ['performance', '2026-10', 118_990, 110_000, 116_742.5, 0.25, 2_247.5],
      ]);
      expect(charges[1]!.note).toBe('25 % × max(0, 118990.00 − 110000.00)');
      // Dated in October's last second, not in November.
      expect(charges.every((e) => e.at === utc('2026-11-01T00:00:00Z') - 1)).toBe(true);
      expect(res.body.data.totals).toEqual([
        { kind: 'performance', currency: 'USD', charged: 2_247.5, accrued: 0 },
        { kind: 'management', currency: 'USD', charged: 195.77, accrued: 0 },
      ]);
    });

    it("puts the performance fee charged in the month in the spec's profit_sharing_amount, and leaves an account without terms at its category's 20 %", async () => {
      const rows = await http<{ data: { account: string; month: string; profit_sharing_amount: number }[] }>(server, 'GET', '/api/stats/rebates?portfolio=SMA', { key: manager });
      const oct = (name: string) => rows.body.data.find((r) => r.account === name && r.month === '2026-10')?.profit_sharing_amount;
      expect(oct('Follower 7100001')).toBe(2_247.5);
      expect(oct('Follower 7100002')).toBe(1_000);
      const untermed = await http<Fees>(server, 'GET', `/api/fees?account=${UNTERMED}&from=2026-10-01&to=2026-10-31`, { key: investor });
      expect(untermed.body.data.entries.map((e) => [e.kind, e.entry, e.basis, e.mark_before, e.mark_after, e.rate, e.amount])).toEqual([
        ['performance', 'charge', 55_000, 50_000, 54_000, 0.2, 1_000],
      ]);
    });

    type Statement = { data: Record<string, unknown> & { fees: unknown[]; trades: { symbol: string; net: number }[] } };
    const statement = (format: string, key = investor) => http<Statement>(server, 'GET', `/api/statements?account=${ACCOUNT}&period=2026-10&format=${format}`, { key });

    it('states October to the cent: balances, equity, cash flows, results, fees, marks and returns', async () => {
      const s = (await statement('json')).body.data;
      expect(s).toMatchObject({
        from: '2026-10-01',
        to: '2026-10-31',
        opening_balance: 100_000,
        opening_equity: 100_000,
        deposits: 20_000,
        withdrawals: -10_000,
        closed_pl: 9_000,
        swap: -3,
        commissions: -7,
        broker_fees: 0,
        rebates: null,
        other_results: 0,
        closing_balance: 118_990,
        closing_equity: 118_990,
        mark_start: 100_000,
        mark_end: 116_742.5,
      });
      // The lines add up to the closing balance.
      expect(100_000 + 20_000 - 10_000 + 9_000 - 3 - 7).toBe(118_990);
      expect(s.fees).toEqual([
        { kind: 'performance', currency: 'USD', charged: 2_247.5, accrued: 0 },
        { kind: 'management', currency: 'USD', charged: 195.77, accrued: 0 },
      ]);
      // Time-weighted: the days chain to 128,990 / 120,000 (the cash flows' days return 1): +7.4917 %.
      expect(s.twr_pct).toBe(Math.round((128_990 / 120_000 - 1) * 100 * 10_000) / 10_000);
      // Money-weighted (Modified Dietz), the flows weighted by the share of October after them:
      // +20,000 with 21.5 of 31 days to run, −10,000 with 11.5.
      const dietz = (8_990 / (100_000 + (20_000 * 21.5) / 31 - (10_000 * 11.5) / 31)) * 100;
      expect(s.mwr_pct).toBe(Math.round(dietz * 10_000) / 10_000);
      expect(s.trades).toEqual([expect.objectContaining({ symbol: 'EURUSD', type: 'Buy', quantity: 2, profit: 9_000, swap: -3, commission: -7, net: 8_990 })]);
      // A read_rebate user sees rebates credited (none here).
      expect((await statement('json', manager)).body.data.rebates).toBe(0);
    });

    it('gives the same figures as CSV', async () => {
      const res = await statement('csv');
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toContain('text/csv');
      expect(res.headers.get('content-disposition')).toBe('attachment; filename="statement_Follower_7100001_2026-10-01_2026-10-31.csv"');
      const text = await (await fetch(`${server.url}/api/statements?account=${ACCOUNT}&period=2026-10&format=csv`, { headers: { 'x-api-key': investor } })).text();
      for (const line of [
        'Opening balance,100000,USD',
        'Deposits,20000,USD',
        'Withdrawals,-10000,USD',
        'Closed P/L,9000,USD',
        'Swap,-3,USD',
        'Commissions,-7,USD',
        'Closing balance,118990,USD',
        'High-water mark at the end,116742.5,USD',
        'Performance fee charged,2247.5,USD',
        'Management fee charged,195.77,USD',
      ]) {
        expect(text).toContain(`\r\n${line}\r\n`);
      }
      expect(text).toContain('Performance fee,2247.5,0,USD');
      // Prices at the instrument's digits (EURUSD: 5).
      expect(text).toMatch(/\r\n2026-10-15T08:00:00Z,2026-10-15T16:00:00Z,EURUSD,Buy,2,1\.10000,1\.14500,9000,-3,-7,0,8990\r\n/);
    });

    it('gives the same figures as a PDF, with Page X of Y', async () => {
      const res = await fetch(`${server.url}/api/statements?account=${ACCOUNT}&period=2026-10&format=pdf`, { headers: { 'x-api-key': investor } });
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('application/pdf');
      const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'statement-')), 's.pdf');
      fs.writeFileSync(file, Buffer.from(await res.arrayBuffer()));
      const text = execFileSync('pdftotext', ['-layout', file, '-'], { encoding: 'utf8' });
      expect(text).toContain('Statement - Follower 7100001');
      expect(text).toContain('01/10/2026 - 31/10/2026');
      expect(text).toMatch(/Closing balance\s+118 990,00 \$/);
      expect(text).toMatch(/Performance fee charged\s+2 247,50 \$/);
      expect(text).toMatch(/Management fee charged\s+195,77 \$/);
      expect(text).toMatch(/High-water mark at the end\s+116 742,50 \$/);
      expect(text).toMatch(/Page 1 of \d/);
    });

    it('refuses a statement of an account outside the caller’s portfolios (404), unauthenticated (401), and bad ranges (400)', async () => {
      expect((await http(server, 'GET', `/api/statements?account=${ACCOUNT}&period=2026-10&format=json`, { key: outsider })).status).toBe(404);
      expect((await http(server, 'GET', `/api/statements?account=${ACCOUNT}&period=2026-10`)).status).toBe(401);
      expect((await http(server, 'GET', `/api/fees?account=${ACCOUNT}&from=2026-10-05&to=2026-10-01`, { key: investor })).status).toBe(400);
      expect((await http(server, 'GET', `/api/fees?account=${ACCOUNT}&period=2026-10&from=2026-10-01`, { key: investor })).status).toBe(400);
      expect((await http(server, 'GET', `/api/fees?account=${ACCOUNT}&period=2026-13`, { key: investor })).status).toBe(400);
      expect((await http(server, 'GET', `/api/statements?account=${ACCOUNT}&period=2026-10&format=docx`, { key: investor })).status).toBe(400);
    });

    it('adjusts a charge of a deal of October that arrives in November in November, leaving October as charged', async () => {
      now = Date.parse('2026-11-05T10:00:00Z');
      // The broker books a charge of −400 dated 25 October (MT5 deal type 4) only now.
      await send('7100001', [deal({ ticket: 6, time: utc('2026-10-25T09:00:00Z'), type: 4, profit: -400 })]);
      // October recomputed: 25 % × (118,590 − 110,000) = 2,147.50: −100.00; its mark after 116,442.50: −300.
      const nov = await http<Fees>(server, 'GET', `/api/fees?account=${ACCOUNT}&period=2026-11`, { key: investor });
      expect(nov.body.data.entries.map((e) => [e.kind, e.entry, e.period, e.basis, e.mark_before, e.mark_after, e.amount])).toEqual([
        ['performance', 'adjustment', '2026-11', -400, 116_742.5, 116_442.5, -100],
      ]);
      const oct = (await october()).body.data.entries.filter((e) => e.entry === 'charge' && e.kind === 'performance');
      expect(oct.map((e) => e.amount)).toEqual([2_247.5]);
      const terms = await http<{ data: { mark: number } }>(server, 'GET', `/api/fees/terms?account=${ACCOUNT}`, { key: investor });
      expect(terms.body.data.mark).toBe(116_442.5);
    });

    it('adjusts nothing for a deal older than the charged month (a history coming in late was in the figures October started from)', async () => {
      await send('7100001', [deal({ ticket: 7, time: utc('2026-09-15T09:00:00Z'), type: 4, profit: -50 })]);
      const nov = await http<Fees>(server, 'GET', `/api/fees?account=${ACCOUNT}&period=2026-11`, { key: investor });
      expect(nov.body.data.entries.map((e) => e.amount)).toEqual([-100]);
    });
  });
});
