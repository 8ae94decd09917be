import { randomUUID } from 'node:crypto';
import WebSocket from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { IngestAccount, IngestAnswer, IngestBatch, IngestDeal } from '#shared/contract/ingest.ts';
import { insertAccount, insertBroker } from '#server/db/accounts-repo.ts';
import { grantAccount, insertAgent } from '#server/db/agents-repo.ts';
import { setSymbol } from '#server/db/symbol-map-repo.ts';
import { hashToken, newToken } from '#server/auth/tokens.ts';
import { hashPassword } from '#server/auth/password.ts';
import { BACKENDS, http, startServer, type TestServer } from './helpers/server.ts';

/**
 * A fake MetaTrader 5 terminal: it pushes what an Expert Advisor would (Ingest API v1), with the
 * broker's server clock 2 hours ahead of UTC (then 3, after a daylight-saving change).
 */
class Terminal {
  session = randomUUID();
  seq = 0;
  offset = 120;
  constructor(
    private readonly server: TestServer,
    readonly key: string,
    readonly login: string,
    readonly srv: string,
  ) {}

  batch(account: Omit<IngestAccount, 'login' | 'server'>, over: Partial<IngestBatch> = {}): IngestBatch {
    return {
      session: this.session,
      seq: ++this.seq,
      batch_id: randomUUID(),
      utc_offset_minutes: this.offset,
      sent_at: Date.now(),
      accounts: [{ login: this.login, server: this.srv, ...account }],
      ...over,
    };
  }

  send(batch: IngestBatch, key = this.key) {
    return http<IngestAnswer & { message?: string }>(this.server, 'POST', '/api/ingest/v1/batches', { body: batch, headers: { 'x-agent-key': key } });
  }
}

/** Broker time (the terminal's wall clock) of a UTC instant, with the terminal's offset. */
const brokerTime = (isoUtc: string, offsetMinutes: number) => Date.parse(isoUtc) / 1000 + offsetMinutes * 60;

const deal = (over: Partial<IngestDeal>): IngestDeal => ({
  ticket: 1, position_id: 100, time: 1_795_000_000, type: 0, entry: 'in', symbol: 'EURUSD.m', volume: 1, price: 1.1,
  commission: 0, fee: 0, swap: 0, profit: 0, ...over,
});

describe.each(BACKENDS)('Ingest API v1 with fake terminals (%s)', (backend) => {
  let server: TestServer;
  let terminal: Terminal;
  let accountId: number;
  let otherLogin: string;
  let admin: string;
  const one = async <T extends object>(sql: string, params: unknown[] = []) => (await server.app.db.query<T>(sql, params))[0]!;
  const balance = async () => (await one<{ balance: number }>('SELECT balance FROM accounts WHERE id = $1', [accountId])).balance;
  const trades = () =>
    server.app.db.query<{ ticket: number; type: string; quantity: number; open_price: number; close_price: number; net: number; datetime: Date }>(
      "SELECT ticket, type, quantity, open_price, close_price, net, datetime FROM deals WHERE account_id = $1 AND kind = 'trade' ORDER BY ticket",
      [accountId],
    );

  beforeAll(async () => {
    server = await startServer(backend, { demo: false });
    const db = server.app.db;
    const broker = await insertBroker(db, {
      broker_name: 'Pepperstone', img_path: '/brokers/none.svg', spread_pips: 0, latency_ms: 0, commission_per_lot: 0, rebate_per_lot: 0,
    });
    const account = (login: string, name: string) =>
      insertAccount(db, {
        account_id: `pepperstone-${login}`, account: login, account_name: name, broker_id: broker, server: 'Pepperstone-Live01',
        server_name: 'Pepperstone Live 01', teiko_category: 'SMA', currency: 'EUR', is_master: true, master_id: null, copy_ratio: 1,
        leverage: 100, ping: 0, last_update: 0, source: 'agent',
      });
    accountId = await account('51234567', 'Real Master');
    otherLogin = '59999999';
    await account(otherLogin, 'Someone Else');
    await setSymbol(db, broker, 'EURUSD.m', 'EURUSD');
    const key = newToken();
    const agentId = await insertAgent(db, 'mt5-vps-1', hashToken(key));
    await grantAccount(db, agentId, accountId, 'trade');
    terminal = new Terminal(server, key, '51234567', 'Pepperstone-Live01');
    await server.app.authStore.upsertUser({
      username: 'ops', password_hash: await hashPassword('ops-password-1'), status: 'active',
      permissions: ['write', 'read_rebate'], portfolio_auth: ['Consolidated Portfolio', 'SMA'],
    });
    const signIn = await http<{ data: { api_key: string } }>(server, 'POST', '/api/login', { body: { username: 'ops', password: 'ops-password-1' } });
    admin = signIn.body.data.api_key;
  });
  afterAll(async () => server.close());

  it('refuses a batch without a key, with an unknown key, or for an account the key is not scoped to', async () => {
    const batch = terminal.batch({ state: { balance: 1, equity: 1, margin: 0, free_margin: 1, leverage: 100, currency: 'EUR' } });
    terminal.seq--;
    expect((await http(server, 'POST', '/api/ingest/v1/batches', { body: batch })).status).toBe(401);
    expect((await terminal.send(batch, newToken())).status).toBe(401);
    // A user's session key does not open the agents' route.
    expect((await http(server, 'POST', '/api/ingest/v1/batches', { body: batch, key: admin })).status).toBe(401);
    const foreign = { ...batch, accounts: [{ ...batch.accounts[0]!, login: otherLogin }] };
    const refused = await terminal.send(foreign);
    expect(refused.status).toBe(403);
    expect(refused.body.message).toBe(`Forbidden: this agent key is not scoped to the account ${otherLogin} on Pepperstone-Live01.`);
    // Nothing of it was applied: the sequence is still free.
    expect((await one<{ n: number }>('SELECT count(*)::int AS n FROM agent_sessions')).n).toBe(0);
  });

  it('takes the account state and a full position snapshot; the account shows on accounts/info', async () => {
    const res = await terminal.send(
      terminal.batch({
        state: { balance: 10_250.5, equity: 10_310.25, margin: 220, free_margin: 10_090.25, leverage: 100, currency: 'EUR' },
        positions: {
          full: true,
          open: [{ identifier: 900, symbol: 'EURUSD.m', type: 'buy', volume: 0.5, price_open: 1.0812, price_current: 1.0824, sl: 0, tp: 1.09, profit: 59.75, swap: 0, time: brokerTime('2026-11-24T08:00:00Z', 120) }],
          closed: [],
        },
      }),
    );
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ ack: 1, resync: false, clock_skew_flagged: false, applied: { positions: 1, deals: 0, deleted: 0 } });
    const info = await http<{ data: { account: string; balance: number; equity: number }[] }>(server, 'GET', '/api/brokers/accounts/info', { key: admin });
    expect(info.body.data.find((a) => a.account === '51234567')).toMatchObject({ balance: 10_250.5, equity: 10_310.25 });
    const position = await one<{ symbol: string; sl: number | null; tp: number; opened_at: Date }>(
      'SELECT symbol, sl, tp, opened_at FROM positions WHERE account_id = $1 AND identifier = 900',
      [accountId],
    );
    // The broker's suffix is mapped, an unset stop (0) is null, and the broker's clock is taken back to UTC.
    expect(position).toEqual({ symbol: 'EURUSD', sl: null, tp: 1.09, opened_at: new Date('2026-11-24T08:00:00Z') });
  });

  it("feeds a signed-in socket the terminal's position though no quote gave a rate to EUR", async () => {
    const ticket = await http<{ data: { ticket: string } }>(server, 'POST', '/api/ws-ticket', { key: admin });
    const socket = new WebSocket(`${server.url.replace('http', 'ws')}/ws/brokers/live-positions-aggregate?portfolio=SMA&token=${ticket.body.data.ticket}`);
    const first = await new Promise<{ positionsAggregate: { u_symbol: string; quantity: number; profit: number }[] }>((resolve, reject) => {
      socket.once('message', (data: Buffer) => resolve(JSON.parse(data.toString()) as never));
      socket.once('error', reject);
    });
    expect(first.positionsAggregate).toEqual([expect.objectContaining({ u_symbol: 'EURUSD', quantity: 0.5, profit: 59.75 })]);
    // A snapshot after the next report, computed by the hub's timer: the server keeps serving.
    const next = new Promise((resolve) => socket.once('message', resolve));
    await terminal.send(terminal.batch({}));
    await next;
    socket.close();
    expect((await http(server, 'GET', '/health')).status).toBe(200);
  });

  it('books a partial close and the rest as two round trips at the volume-weighted open', async () => {
    const before = await balance();
    const t = (iso: string) => brokerTime(iso, terminal.offset);
    const res = await terminal.send(
      terminal.batch({
        deals: {
          items: [
            deal({ ticket: 11, position_id: 200, time: t('2026-11-23T09:00:00Z'), type: 0, entry: 'in', volume: 1, price: 1.1, commission: -3.5 }),
            deal({ ticket: 12, position_id: 200, time: t('2026-11-23T09:30:00Z'), type: 0, entry: 'in', volume: 1, price: 1.102, commission: -3.5 }),
            deal({ ticket: 13, position_id: 200, time: t('2026-11-23T12:00:00Z'), type: 1, entry: 'out', volume: 0.5, price: 1.105, profit: 150, commission: -1.75 }),
            deal({ ticket: 14, position_id: 200, time: t('2026-11-23T15:00:00Z'), type: 1, entry: 'out', volume: 1.5, price: 1.099, profit: -300, swap: -2, commission: -5.25 }),
          ],
          deleted: [],
        },
      }),
    );
    expect(res.status).toBe(200);
    expect(res.body.applied.deals).toBe(2);
    // Open at (1.1000 × 1 + 1.1020 × 1) / 2 = 1.1010. First close: 0.5 lot, commission −1.75 plus a quarter
    // of the −7.00 paid to open = −3.50, net 150 − 3.50 = 146.50. Second: 1.5 lots, −5.25 − 5.25 = −10.50,
    // net −300 − 2 − 10.50 = −312.50.
    const rows = (await trades()).filter((r) => r.ticket === 13 || r.ticket === 14);
    expect(rows.map((r) => [r.ticket, r.type, r.quantity, r.open_price, r.close_price, r.net])).toEqual([
      [13, 'Buy', 0.5, 1.101, 1.105, 146.5],
      [14, 'Buy', 1.5, 1.101, 1.099, -312.5],
    ]);
    expect(rows[0]!.datetime).toEqual(new Date('2026-11-23T12:00:00Z'));
    expect(await balance()).toBeCloseTo(before + 146.5 - 312.5, 2);
    expect(res.body.history_from['51234567@Pepperstone-Live01']).toBe(Date.parse('2026-11-23T15:00:00Z') / 1000);
  });

  it('books a reversal (in/out) as the close of the buy and the open of a sell', async () => {
    const t = (iso: string) => brokerTime(iso, terminal.offset);
    const res = await terminal.send(
      terminal.batch({
        deals: {
          items: [
            deal({ ticket: 21, position_id: 300, time: t('2026-11-23T10:00:00Z'), type: 0, entry: 'in', volume: 1, price: 1.1 }),
            deal({ ticket: 22, position_id: 300, time: t('2026-11-23T11:00:00Z'), type: 1, entry: 'inout', volume: 3, price: 1.105, profit: 500 }),
            deal({ ticket: 23, position_id: 300, time: t('2026-11-23T13:00:00Z'), type: 0, entry: 'out', volume: 2, price: 1.1, profit: 1_000 }),
          ],
          deleted: [],
        },
      }),
    );
    expect(res.status).toBe(200);
    const rows = (await trades()).filter((r) => r.ticket === 22 || r.ticket === 23);
    expect(rows.map((r) => [r.ticket, r.type, r.quantity, r.open_price, r.close_price, r.net])).toEqual([
      [22, 'Buy', 1, 1.1, 1.105, 500],
      [23, 'Sell', 2, 1.105, 1.1, 1_000],
    ]);
  });

  it('applies a deal the broker deletes, and one it edits, to the balance', async () => {
    const before = await balance();
    const edited = await terminal.send(
      terminal.batch({
        deals: { items: [deal({ ticket: 23, position_id: 300, time: brokerTime('2026-11-23T13:00:00Z', terminal.offset), type: 0, entry: 'out', volume: 2, price: 1.1, profit: 900 })], deleted: [] },
      }),
    );
    expect(edited.status).toBe(200);
    expect(await balance()).toBeCloseTo(before - 100, 2);
    const deleted = await terminal.send(terminal.batch({ deals: { items: [], deleted: [23] } }));
    expect(deleted.body.applied.deleted).toBe(1);
    expect((await trades()).some((r) => r.ticket === 23)).toBe(false);
    expect(await balance()).toBeCloseTo(before - 1_000, 2);
  });

  it("books a deposit, and an agent commission deal on the balance and its month's rebate row", async () => {
    const before = await balance();
    const t = brokerTime('2026-11-20T07:00:00Z', terminal.offset);
    const rebateBefore = await one<{ r: number }>(
      "SELECT coalesce(sum(total_rebate), 0) AS r FROM rebates WHERE account_id = $1 AND month = '2026-11-01'",
      [accountId],
    );
    const res = await terminal.send(
      terminal.batch({
        deals: {
          items: [
            deal({ ticket: 31, position_id: 0, time: t, type: 2, entry: 'in', symbol: '', volume: 0, price: 0, profit: 5_000 }),
            deal({ ticket: 32, position_id: 0, time: t, type: 10, entry: 'in', symbol: '', volume: 0, price: 0, profit: 42.5 }),
          ],
          deleted: [],
        },
      }),
    );
    expect(res.status).toBe(200);
    // MT5 credits the agent commission to the balance, as it does a deposit.
    expect(await balance()).toBeCloseTo(before + 5_000 + 42.5, 2);
    const deposit = await one<{ kind: string; amount: number }>("SELECT kind, amount FROM deals WHERE account_id = $1 AND ticket = 31", [accountId]);
    expect(deposit).toEqual({ kind: 'deposit', amount: 5_000 });
    const credited = await one<{ kind: string; amount: number }>('SELECT kind, amount FROM deals WHERE account_id = $1 AND ticket = 32', [accountId]);
    expect(credited).toEqual({ kind: 'rebate', amount: 42.5 });
    const rebate = await one<{ r: number }>("SELECT total_rebate AS r FROM rebates WHERE account_id = $1 AND month = '2026-11-01'", [accountId]);
    expect(rebate.r).toBeCloseTo(rebateBefore.r + 42.5, 2);
  });

  it('stores times in UTC across a daylight-saving change of the broker clock', async () => {
    terminal.offset = 180;
    const res = await terminal.send(
      terminal.batch({
        deals: { items: [deal({ ticket: 41, position_id: 0, time: brokerTime('2026-11-24T06:00:00Z', 180), type: 2, entry: 'in', symbol: '', volume: 0, price: 0, profit: 100 })], deleted: [] },
      }),
    );
    expect(res.status).toBe(200);
    const row = await one<{ datetime: Date }>('SELECT datetime FROM deals WHERE account_id = $1 AND ticket = 41', [accountId]);
    expect(row.datetime).toEqual(new Date('2026-11-24T06:00:00Z'));
  });

  it('answers a replayed batch as the first time and changes nothing', async () => {
    const batch = terminal.batch({ deals: { items: [deal({ ticket: 51, position_id: 0, time: brokerTime('2026-11-24T07:00:00Z', 180), type: 2, entry: 'in', symbol: '', volume: 0, price: 0, profit: 10 })], deleted: [] } });
    const first = await terminal.send(batch);
    const before = await balance();
    const again = await terminal.send(batch);
    expect(again.status).toBe(200);
    expect(again.body).toEqual(first.body);
    expect(await balance()).toBe(before);
  });

  it('refuses a sequence number from the past, and asks for a resync after a gap', async () => {
    const past = terminal.batch({});
    past.seq = 1;
    const refused = await terminal.send(past);
    expect(refused.status).toBe(409);
    expect(refused.body.message).toMatch(/^Sequence 1 is not after \d+/);
    terminal.seq--;
    const last = terminal.seq;
    terminal.seq += 5;
    const gap = await terminal.send(terminal.batch({ deals: { items: [deal({ ticket: 61, position_id: 0, type: 2, entry: 'in', symbol: '', volume: 0, price: 0, profit: 1 })], deleted: [] } }));
    expect(gap.body).toMatchObject({ ack: last, resync: true, applied: { deals: 0 } });
    expect((await server.app.db.query('SELECT 1 FROM deals WHERE ticket = 61')).length).toBe(0);
    // A new session with a full snapshot starts again at 1.
    terminal.session = randomUUID();
    terminal.seq = 0;
    const fresh = await terminal.send(terminal.batch({ positions: { full: true, open: [], closed: [] } }));
    expect(fresh.body).toMatchObject({ ack: 1, resync: false });
    expect((await server.app.db.query('SELECT 1 FROM positions WHERE account_id = $1', [accountId])).length).toBe(0);
  });

  it('flags a clock more than 60 s off', async () => {
    const res = await terminal.send(terminal.batch({}, { sent_at: Date.now() - 300_000 }));
    expect(res.body.clock_skew_flagged).toBe(true);
    expect(res.body.clock_skew_s).toBeGreaterThan(299);
  });

  it('refuses a malformed or oversized batch with a message', async () => {
    const bad = await terminal.send({ ...terminal.batch({}), seq: -1 });
    terminal.seq--;
    expect(bad.status).toBe(400);
    expect(bad.body.message).toMatch(/seq/);
    const many = terminal.batch({ deals: { items: Array.from({ length: 501 }, (_, i) => deal({ ticket: 10_000 + i })), deleted: [] } });
    terminal.seq--;
    const big = await terminal.send(many);
    expect(big.status).toBe(400);
    const wrongCurrency = await terminal.send(terminal.batch({ state: { balance: 1, equity: 1, margin: 0, free_margin: 1, leverage: 100, currency: 'USD' } }));
    terminal.seq--;
    expect(wrongCurrency.status).toBe(400);
    expect(wrongCurrency.body.message).toBe('The account 51234567 on Pepperstone-Live01 is in EUR, not USD.');
  });

  describe('commands back to the terminal', () => {
    type Command = { id: string; login: string; kind: string; payload: Record<string, number>; expires_at: number };
    const poll = (wait = 5) =>
      http<{ commands: Command[] }>(server, 'GET', `/api/ingest/v1/commands?wait=${wait}`, { headers: { 'x-agent-key': terminal.key } });
    const answer = (id: string, body: { state: string; message?: string }) =>
      http<{ message: string }>(server, 'POST', `/api/ingest/v1/commands/${id}`, { body, headers: { 'x-agent-key': terminal.key } });
    const editTp = (tp: number) =>
      http<{ message: string }>(server, 'POST', '/api/positions/set-tp-sl-by-symbol', {
        key: admin,
        body: { category: 'Forex', symbol: 'EURUSD', direction: 'long', currency: 'EUR', take_profit: tp, stop_loss: 1.07, portfolio: 'SMA' },
      });

    beforeAll(async () => {
      const res = await terminal.send(
        terminal.batch({
          positions: {
            full: true,
            open: [{ identifier: 901, symbol: 'EURUSD.m', type: 'buy', volume: 1, price_open: 1.08, price_current: 1.081, sl: 0, tp: 0, profit: 100, swap: 0, time: brokerTime('2026-11-24T09:00:00Z', terminal.offset) }],
            closed: [],
          },
        }),
      );
      expect(res.status).toBe(200);
    });

    it("edits TP/SL through the terminal: the dashboard's answer waits for the terminal's, and a command is answered once", async () => {
      const edit = editTp(1.095);
      const { body } = await poll();
      expect(body.commands).toHaveLength(1);
      const command = body.commands[0]!;
      expect(command).toMatchObject({ login: '51234567', kind: 'modify', payload: { identifier: 901, tp: 1.095, sl: 1.07 } });
      expect(command.expires_at).toBeGreaterThan(Date.now());
      // Handed out once: the next poll has nothing.
      expect((await poll(0)).body.commands).toEqual([]);
      expect((await answer(command.id, { state: 'done' })).status).toBe(200);
      const res = await edit;
      expect(res.status).toBe(200);
      expect(res.body.message).toBe('Take profit 1.095 and stop loss 1.07 set on 1 position of EURUSD.');
      const again = await answer(command.id, { state: 'done' });
      expect(again.status).toBe(404);
      expect(again.body.message).toBe(`No command ${command.id} is awaiting this agent's answer.`);
    });

    it("shows the terminal's refusal with its message", async () => {
      const edit = editTp(1.2);
      const { body } = await poll();
      await answer(body.commands[0]!.id, { state: 'rejected', message: 'Invalid stops [10016]' });
      const res = await edit;
      expect(res.status).toBe(422);
      expect(res.body.message).toBe('The terminal refused: Invalid stops [10016]');
    });

    it("tells the user the outcome is unknown when the terminal answers 'expired', and that nothing changed on 'not_found'", async () => {
      const late = editTp(1.101);
      await answer((await poll()).body.commands[0]!.id, { state: 'expired' });
      const unknown = await late;
      expect(unknown.status).toBe(504);
      expect(unknown.body.message).toBe('The terminal has not confirmed yet: the outcome is unknown. The order will not be sent again.');
      const gone = editTp(1.102);
      await answer((await poll()).body.commands[0]!.id, { state: 'not_found' });
      const res = await gone;
      expect(res.status).toBe(200);
      expect(res.body.message).toBe('Take profit 1.102 and stop loss 1.07 set on 0 positions of EURUSD.');
    });

    it('refuses an answer to a command of another agent, or a malformed one', async () => {
      const edit = editTp(1.1);
      const { body } = await poll();
      const id = body.commands[0]!.id;
      const stranger = newToken();
      await insertAgent(server.app.db, 'stranger', hashToken(stranger));
      const foreign = await http(server, 'POST', `/api/ingest/v1/commands/${id}`, { body: { state: 'done' }, headers: { 'x-agent-key': stranger } });
      expect(foreign.status).toBe(404);
      expect((await answer(id, { state: 'maybe' })).status).toBe(400);
      expect((await http(server, 'POST', '/api/ingest/v1/commands/not-a-uuid', { body: { state: 'done' }, headers: { 'x-agent-key': terminal.key } })).status).toBe(400);
      await answer(id, { state: 'done' });
      expect((await edit).status).toBe(200);
    });
  });
});
