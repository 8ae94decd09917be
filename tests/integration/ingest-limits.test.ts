import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { IngestAccount, IngestAnswer, IngestBatch, IngestDeal, IngestPosition } from '#shared/contract/ingest.ts';
import { insertAccount, insertBroker } from '#server/db/accounts-repo.ts';
import { grantAccount, insertAgent } from '#server/db/agents-repo.ts';
import { commandsByIds, insertCommands } from '#server/db/commands-repo.ts';
import { insertDeals } from '#server/db/deals-repo.ts';
import type { Deal } from '#shared/domain/deal.ts';
import { hashToken, newToken } from '#server/auth/tokens.ts';
import { BACKENDS, http, login, startServer, type TestServer } from './helpers/server.ts';

/**
 * The limits of the ingest API (docs/ingest-api.md, 'Limits'): what a terminal agent may send, and
 * that nothing it sends, however odd, answers 5xx or spoils the reads of the accounts it feeds.
 */

const LOGIN = '51234567';
const SERVER = 'Pepperstone-Live01';

const deal = (over: Partial<IngestDeal>): IngestDeal => ({
  ticket: 1, position_id: 100, time: Date.parse('2026-11-20T09:00:00Z') / 1000, type: 0, entry: 'in', symbol: 'EURUSD', volume: 1,
  price: 1.1, commission: 0, fee: 0, swap: 0, profit: 0, ...over,
});

const position = (over: Partial<IngestPosition>): IngestPosition => ({
  identifier: 900, symbol: 'EURUSD', type: 'buy', volume: 0.5, price_open: 1.08, price_current: 1.081, sl: 0, tp: 0, profit: 5,
  swap: 0, time: Date.parse('2026-11-20T09:00:00Z') / 1000, ...over,
});

describe.each(BACKENDS)('ingest limits (%s)', (backend) => {
  let server: TestServer;
  let key: string;
  let agentId: number;
  let accountId: number;
  const session = randomUUID();
  let seq = 0;

  const batch = (account: Omit<IngestAccount, 'login' | 'server'>, over: Partial<IngestBatch> = {}): IngestBatch => ({
    session,
    seq: seq + 1,
    batch_id: randomUUID(),
    utc_offset_minutes: 0,
    sent_at: Date.now(),
    accounts: [{ login: LOGIN, server: SERVER, ...account }],
    ...over,
  });
  /** Sends a batch; the sequence moves on only when it was applied. */
  const send = async (b: unknown) => {
    const res = await http<IngestAnswer & { message: string }>(server, 'POST', '/api/ingest/v1/batches', { body: b, headers: { 'x-agent-key': key } });
    if (res.status === 200 && !res.body.resync) seq = res.body.ack;
    return res;
  };
  const count = async (sql: string, params: unknown[] = []) => (await server.app.db.query<{ n: number }>(sql, params))[0]!.n;
  const brokerDeals = () => count('SELECT count(*)::int AS n FROM broker_events WHERE account_id = $1', [accountId]);
  const positions = () => count('SELECT count(*)::int AS n FROM positions WHERE account_id = $1', [accountId]);

  beforeAll(async () => {
    server = await startServer(backend, { demo: false });
    const db = server.app.db;
    const broker = await insertBroker(db, {
      broker_name: 'Pepperstone', img_path: '/brokers/none.svg', spread_pips: 0, latency_ms: 0, commission_per_lot: 0, rebate_per_lot: 0,
    });
    accountId = await insertAccount(db, {
      account_id: `pepperstone-${LOGIN}`, account: LOGIN, account_name: 'Real Master', broker_id: broker, server: SERVER,
      server_name: 'Pepperstone Live 01', teiko_category: 'SMA', currency: 'EUR', is_master: true, master_id: null, copy_ratio: 1,
      leverage: 100, ping: 0, last_update: 0, source: 'agent',
    });
    key = newToken();
    agentId = await insertAgent(db, 'mt5-vps-1', hashToken(key));
    await grantAccount(db, agentId, accountId, 'trade');
    expect((await send(batch({ positions: { full: true, open: [], closed: [] } }))).status).toBe(200);
  });
  afterAll(async () => server?.close());

  describe('sent_at', () => {
    it.each([
      ['0', 0],
      ['in seconds', Math.floor(Date.now() / 1000)],
      ['negative', -1],
      ['in microseconds', Date.now() * 1000],
      ['past any clock', Number.MAX_SAFE_INTEGER],
    ])('refuses a sent_at %s with 400 saying what is expected, and the next batch is applied', async (_, sentAt) => {
      const res = await send(batch({}, { sent_at: sentAt }));
      expect(res.status, JSON.stringify(res.body)).toBe(400);
      expect(res.body.message).toMatch(/^sent_at must be the agent's clock in UTC epoch milliseconds/);
      const next = await send(batch({}));
      expect(next.status, JSON.stringify(next.body)).toBe(200);
      expect(next.body.clock_skew_flagged).toBe(false);
    });

    it('accepts a clock decades off, flags it and keeps it without overflow', async () => {
      const sentAt = Date.parse('2099-12-31T00:00:00Z');
      const res = await send(batch({}, { sent_at: sentAt }));
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(res.body.clock_skew_flagged).toBe(true);
      // The server's clock is behind the agent's by (2099-12-31 − now): some 73 years, in seconds.
      expect(res.body.clock_skew_s).toBeLessThan(-70 * 365 * 86_400);
      const stored = (await server.app.db.query<{ s: number }>('SELECT clock_skew_s AS s FROM agent_sessions WHERE agent_id = $1', [agentId]))[0]!;
      expect(stored.s).toBe(res.body.clock_skew_s);
      const early = await send(batch({}, { sent_at: Date.parse('2000-01-01T00:00:00Z') }));
      expect(early.status, JSON.stringify(early.body)).toBe(200);
      expect(early.body.clock_skew_s).toBeGreaterThan(26 * 365 * 86_400);
    });
  });

  describe('duplicates within a batch', () => {
    it('refuses one ticket twice in the deals with 400 naming it, and applies nothing of the batch', async () => {
      const before = await brokerDeals();
      const res = await send(
        batch({
          positions: { full: false, open: [position({ identifier: 950 })], closed: [] },
          deals: { items: [deal({ ticket: 7001 }), deal({ ticket: 7002 }), deal({ ticket: 7001, price: 1.2 })], deleted: [] },
        }),
      );
      expect(res.status, JSON.stringify(res.body)).toBe(400);
      expect(res.body.message).toMatch(/ticket 7001 is given twice/);
      expect(await brokerDeals()).toBe(before);
      expect(await count('SELECT count(*)::int AS n FROM positions WHERE account_id = $1 AND identifier = 950', [accountId])).toBe(0);
    });

    it('refuses two positions with one identifier with 400 naming it, and applies nothing of the batch', async () => {
      const before = await brokerDeals();
      const res = await send(
        batch({
          deals: { items: [deal({ ticket: 7003 })], deleted: [] },
          positions: { full: true, open: [position({ identifier: 951 }), position({ identifier: 951, volume: 1 })], closed: [] },
        }),
      );
      expect(res.status, JSON.stringify(res.body)).toBe(400);
      expect(res.body.message).toMatch(/identifier 951 is given twice/);
      expect(await brokerDeals()).toBe(before);
      expect(await positions()).toBe(0);
    });

    it('refuses one account twice in a batch', async () => {
      const res = await send({ ...batch({}), accounts: [{ login: LOGIN, server: SERVER }, { login: LOGIN, server: SERVER }] });
      expect(res.status, JSON.stringify(res.body)).toBe(400);
      expect(res.body.message).toMatch(new RegExp(`account ${LOGIN} on ${SERVER} is given twice`));
    });
  });

  describe('text', () => {
    const hostile = ['EUR\u0000USD', 'EUR\nUSD', 'EUR\u001bUSD', 'EUR\u0085USD'];
    const cases: [string, (s: string) => unknown][] = [
      ['session', (s) => ({ ...batch({}), session: s })],
      ['login', (s) => ({ ...batch({}), accounts: [{ login: s, server: SERVER }] })],
      ['server', (s) => ({ ...batch({}), accounts: [{ login: LOGIN, server: s }] })],
      ['a position symbol', (s) => batch({ positions: { full: false, open: [position({ symbol: s })], closed: [] } })],
      ['a position comment', (s) => batch({ positions: { full: false, open: [position({ comment: s })], closed: [] } })],
      ['a deal symbol', (s) => batch({ deals: { items: [deal({ ticket: 7100, symbol: s })], deleted: [] } })],
      ['a deal comment', (s) => batch({ deals: { items: [deal({ ticket: 7101, comment: s })], deleted: [] } })],
      ['a quote symbol', (s) => batch({ quotes: [{ symbol: s, bid: 1, ask: 1.1 }] })],
    ];
    it.each(cases)('refuses control characters in %s with 400', async (what, make) => {
      for (const text of hostile) {
        const res = await send(make(text));
        expect(res.status, `${what} ${JSON.stringify(text)}: ${JSON.stringify(res.body)}`).toBe(400);
        expect(res.body.message).toMatch(/must not contain control characters/);
      }
      expect(await count('SELECT count(*)::int AS n FROM broker_events WHERE ref IN (7100, 7101)')).toBe(0);
    });

    it('still takes an empty symbol and comment on a balance deal', async () => {
      const res = await send(batch({ deals: { items: [deal({ ticket: 7102, position_id: 0, type: 2, symbol: '', comment: '', volume: 0, price: 0, profit: 10 })], deleted: [] } }));
      expect(res.status, JSON.stringify(res.body)).toBe(200);
    });
  });

  describe('times', () => {
    const inAYear = Math.floor(Date.now() / 1000) + 365 * 86_400;
    it.each([
      ['a deal dated after 2038', () => batch({ deals: { items: [deal({ ticket: 7200, time: Date.parse('2040-01-01T00:00:00Z') / 1000 })], deleted: [] } }), 'accounts.0.deals.items.0.time'],
      ['a deal dated next year', () => batch({ deals: { items: [deal({ ticket: 7201, time: inAYear })], deleted: [] } }), 'accounts.0.deals.items.0.time'],
      ['a position opened next year', () => batch({ positions: { full: false, open: [position({ identifier: 960, time: inAYear })], closed: [] } }), 'accounts.0.positions.open.0.time'],
    ])('refuses %s with 400 naming the field', async (_, make, field) => {
      const res = await send(make());
      expect(res.status, JSON.stringify(res.body)).toBe(400);
      expect(res.body.message).toMatch(new RegExp(`^${field.replace(/\./g, '\\.')}: .*later than the server's clock`));
      expect(await count('SELECT count(*)::int AS n FROM broker_events WHERE ref IN (7200, 7201)')).toBe(0);
    });

    it('refuses a time before 1970, and one before 2000 (0 or 1: a fault of the agent, and a NAV row for every day since)', async () => {
      for (const [ticket, time] of [[7202, -1], [7204, 0], [7205, 1], [7206, Date.UTC(1999, 11, 31, 23, 59, 59) / 1000]] as const) {
        const res = await send(batch({ deals: { items: [deal({ ticket, time })], deleted: [] } }));
        expect(res.status).toBe(400);
        expect(res.body.message).toBe("accounts.0.deals.items.0.time: time must be the broker's clock in seconds since 1970, from 2000-01-01 on");
      }
      expect(await count('SELECT count(*)::int AS n FROM broker_events WHERE ref IN (7202, 7204, 7205, 7206)')).toBe(0);
    });

    it("takes a deal a few hours ahead of UTC (the broker's clock runs in its own time zone)", async () => {
      const offset = 14 * 60;
      const brokerNow = Math.floor(Date.now() / 1000) + offset * 60;
      const res = await send(batch({ deals: { items: [deal({ ticket: 7203, time: brokerNow, position_id: 0, type: 2, symbol: '', volume: 0, price: 0, profit: 1 })], deleted: [] } }, { utc_offset_minutes: offset }));
      expect(res.status, JSON.stringify(res.body)).toBe(200);
    });
  });

  describe('answers to commands past their expiry', () => {
    /** A modify command for the agent, handed out now and expiring in `ms`. */
    const handOut = async (ms: number) => {
      const id = randomUUID();
      const now = Date.now();
      await insertCommands(server.app.db, [
        { id, agentId, accountId, kind: 'modify', payload: { identifier: 900, sl: 0, tp: 1.2 }, createdAt: new Date(now), expiresAt: new Date(now + ms) },
      ]);
      const polled = await http<{ commands: { id: string; expires_at: number }[] }>(server, 'GET', '/api/ingest/v1/commands?wait=0', { headers: { 'x-agent-key': key } });
      const command = polled.body.commands.find((c) => c.id === id)!;
      expect(command).toBeDefined();
      return command;
    };
    const answer = (id: string, body: object) =>
      http<{ message: string }>(server, 'POST', `/api/ingest/v1/commands/${id}`, { body, headers: { 'x-agent-key': key } });
    const waitPast = async (at: number) => {
      while (Date.now() <= at + 50) await new Promise((resolve) => setTimeout(resolve, 100));
    };

    it.each(['done', 'rejected', 'not_found'])("refuses '%s' after the expiry with 409, and the command stays expired", async (state) => {
      const command = await handOut(1_000);
      await waitPast(command.expires_at);
      const res = await answer(command.id, { state, message: 'ran it late' });
      expect(res.status, JSON.stringify(res.body)).toBe(409);
      expect(res.body.message).toBe(
        `Command ${command.id} expired at ${new Date(command.expires_at).toISOString()}: it cannot be answered '${state}' now (a command past its expiry is not run; answer 'expired').`,
      );
      const [row] = await commandsByIds(server.app.db, [command.id]);
      // An order waiting for it reads 'expired' (outcome unknown), never 'done'.
      expect(row!.state).toBe('expired');
      // The terminal may still say so.
      expect((await answer(command.id, { state: 'expired' })).status).toBe(200);
    });

    it("takes 'expired' after the expiry, once", async () => {
      const command = await handOut(1_000);
      await waitPast(command.expires_at);
      const res = await answer(command.id, { state: 'expired' });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect((await answer(command.id, { state: 'done' })).status).toBe(409);
    });

    it("takes 'done' before the expiry, and a second answer is 404", async () => {
      const command = await handOut(30_000);
      expect((await answer(command.id, { state: 'done' })).status).toBe(200);
      expect((await answer(command.id, { state: 'done' })).status).toBe(404);
      const [row] = await commandsByIds(server.app.db, [command.id]);
      expect(row!.state).toBe('done');
    });

    it('queues a new close of a position whose earlier close was sent and never answered before its expiry', async () => {
      const now = Date.now();
      const close = (id: string, at: number, ms: number) =>
        insertCommands(server.app.db, [
          { id, agentId, accountId, kind: 'close', payload: { identifier: 4242, volume: 1 }, createdAt: new Date(at), expiresAt: new Date(at + ms) },
        ]);
      const first = randomUUID();
      expect(await close(first, now, 1_000)).toEqual(new Set([first]));
      const polled = await http<{ commands: { id: string }[] }>(server, 'GET', '/api/ingest/v1/commands?wait=0', { headers: { 'x-agent-key': key } });
      expect(polled.body.commands.map((c) => c.id)).toContain(first);
      // While it may still be answered, no second close goes out; once it expired, one does.
      const early = randomUUID();
      expect(await close(early, now + 500, 30_000)).toEqual(new Set());
      await waitPast(now + 1_000);
      const second = randomUUID();
      expect(await close(second, Date.now(), 30_000)).toEqual(new Set([second]));
      const rows = await commandsByIds(server.app.db, [first, second]);
      expect(Object.fromEntries(rows.map((r) => [r.id, r.state]))).toEqual({ [first]: 'expired', [second]: 'pending' });
      // The lost close's late 'done' is refused: it expired.
      expect((await answer(first, { state: 'done' })).status).toBe(409);
    });

    it('refuses control characters in the terminal\'s message', async () => {
      const command = await handOut(30_000);
      const res = await answer(command.id, { state: 'rejected', message: 'Invalid stops\u0000' });
      expect(res.status).toBe(400);
      expect(res.body.message).toMatch(/must not contain control characters/);
    });
  });
});

describe.each(BACKENDS)('reads over deals stored at any time (%s)', (backend) => {
  let server: TestServer;
  let key: string;
  beforeAll(async () => {
    server = await startServer(backend);
    key = await login(server, 'admin');
  });
  afterAll(async () => server?.close());

  it('answers the copy report and growth with 200 after deals dated in 2040 and in 1969 were stored', async () => {
    const accounts = [...server.app.market.snapshot().accounts.values()];
    const follower = accounts.find((a) => a.master_id !== null)!;
    const trade = (accountId: number, at: number, ticket: number): Deal => ({
      accountId, kind: 'trade', symbol: 'EURUSD', type: 'Buy', category: 'Forex', quantity: 0.1, openPrice: 1.1, closePrice: 1.101,
      openedAt: at - 60, at, amount: 0, profit: 10, swap: 0, commission: 0, fee: 0, rebate: 0, net: 10, mae: null, mfe: null,
      execMs: null, rebalancing: false, ticket, positionId: ticket, copyOf: null,
    });
    const future = Date.parse('2040-06-01T00:00:00Z') / 1000;
    const past = Date.parse('1969-12-31T22:00:00Z') / 1000;
    await insertDeals(server.app.db, [
      trade(follower.id, future, 990_001), trade(follower.master_id!, future, 990_002),
      trade(follower.id, past, 990_003), trade(follower.master_id!, past, 990_004),
    ]);
    for (const period of ['1m', '3m', 'all']) {
      const report = await http(server, 'GET', `/api/copy/report?portfolio=Consolidated%20Portfolio&period=${period}`, { key });
      expect(report.status, JSON.stringify(report.body).slice(0, 300)).toBe(200);
      const growth = await http(server, 'GET', `/api/copy/growth?account=${follower.account_id}&period=${period}`, { key });
      expect(growth.status, JSON.stringify(growth.body).slice(0, 300)).toBe(200);
    }
  });
});
