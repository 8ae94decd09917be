/**
 * Real accounts' days end even when no process was leading at midnight: the days a server was down
 * (or asleep between two housekeepings) end at the next one, each at the figures the terminals last
 * reported, and a month's end among them charges the month's fees. A day ends once per account:
 * ending it again changes nothing.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { IngestAccountState, IngestDeal } from '#shared/contract/ingest.ts';
import { hashPassword } from '#server/auth/password.ts';
import { hashToken, newToken } from '#server/auth/tokens.ts';
import { insertAccount, insertBroker } from '#server/db/accounts-repo.ts';
import { grantAccount, insertAgent } from '#server/db/agents-repo.ts';
import { BACKENDS, http, startServer, type TestServer } from './helpers/server.ts';

const DAY_S = 86_400;
const utc = (iso: string) => Date.parse(iso) / 1000;
const dayOf = (iso: string) => Math.floor(utc(iso) / DAY_S);

describe.each(BACKENDS)('day ends of real accounts (%s)', (backend) => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'day-ends-'));
  const schema = `t_dayends_${randomUUID().slice(0, 8)}`;
  let server: TestServer;
  let now = Date.parse('2026-10-29T12:00:00Z');
  let agentKey = '';
  let key = '';
  let accountId = 0;
  let seq = 0;
  const session = randomUUID();
  const start = () => startServer(backend, { demo: false, market: { now: () => now }, ...(backend === 'pglite' ? { dataDir } : { schema }) });

  const send = async (state: Partial<IngestAccountState>, items: IngestDeal[] = []) => {
    const res = await http(server, 'POST', '/api/ingest/v1/batches', {
      headers: { 'x-agent-key': agentKey },
      body: {
        session, seq: ++seq, batch_id: randomUUID(), utc_offset_minutes: 0, sent_at: now,
        accounts: [{ login: '8100001', server: 'Days-Live', state: { balance: 10_000, equity: 10_000, margin: 0, free_margin: 10_000, leverage: 100, currency: 'USD', ...state }, deals: { items, deleted: [] } }],
      },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
  };
  const navDays = async () =>
    (await server.app.db.query<{ day: number; equity: number }>(
      `SELECT (day - DATE '1970-01-01')::int AS day, equity FROM nav_snapshots WHERE account_id = $1 AND NOT derived ORDER BY day`,
      [accountId],
    )).map((r) => [r.day, r.equity]);
  const charges = async () =>
    (await http<{ data: { entries: { kind: string; entry: string; period: string; amount: number; mark_after: number }[] } }>(
      server, 'GET', '/api/fees?account=days-8100001&from=2026-10-01&to=2026-11-30', { key },
    )).body.data.entries.filter((e) => e.entry === 'charge').map((e) => [e.kind, e.period, e.amount, e.mark_after]);
  /** The housekeeping runs every 5 s: waits for it to have ended the days. */
  const until = async (what: () => Promise<unknown[]>, length: number) => {
    for (let i = 0; i < 80; i++) {
      if ((await what()).length >= length) return;
      await new Promise((r) => setTimeout(r, 100));
    }
  };

  beforeAll(async () => {
    server = await start();
    const db = server.app.db;
    const broker = await insertBroker(db, { broker_name: 'DaysBroker', img_path: '/brokers/none.svg', spread_pips: 0, latency_ms: 0, commission_per_lot: 0, rebate_per_lot: 0 });
    const agentId = await insertAgent(db, 'days-terminal', hashToken((agentKey = newToken())));
    accountId = await insertAccount(db, {
      account_id: 'days-8100001', account: '8100001', account_name: 'Days 8100001', broker_id: broker, server: 'Days-Live', server_name: 'Days Live',
      teiko_category: 'SMA', currency: 'USD', is_master: false, master_id: null, copy_ratio: 1, leverage: 100, ping: 0, last_update: 0, source: 'agent',
    });
    await grantAccount(db, agentId, accountId, 'trade');
    await server.app.authStore.upsertUser({ username: 'days-ops', password_hash: await hashPassword('days-ops-password-1'), status: 'active', permissions: ['write'], portfolio_auth: ['SMA'] });
    key = (await http<{ data: { api_key: string } }>(server, 'POST', '/api/login', { body: { username: 'days-ops', password: 'days-ops-password-1' } })).body.data.api_key;
    await send({}, [{ ticket: 1, position_id: 0, type: 2, entry: 'in', symbol: '', volume: 0, price: 0, commission: 0, fee: 0, swap: 0, profit: 10_000, time: utc('2026-10-29T10:00:00Z') }]);
  }, 60_000);
  afterAll(async () => {
    await server.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
    if (backend === 'postgres') {
      const client = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
      await client.connect();
      await client.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
      await client.end();
    }
  });

  it('ends every day slept through at the next housekeeping, and charges the month that ended among them', async () => {
    // An open position: equity 10,500 from here on.
    await send({ equity: 10_500 });
    now = Date.parse('2026-11-02T01:00:00Z');
    await until(navDays, 4);
    expect(await navDays()).toEqual([
      [dayOf('2026-10-29T00:00:00Z'), 10_500],
      [dayOf('2026-10-30T00:00:00Z'), 10_500],
      [dayOf('2026-10-31T00:00:00Z'), 10_500],
      [dayOf('2026-11-01T00:00:00Z'), 10_500],
    ]);
    // SMA without terms: 20 % × (10,500 − 10,000) = 100, mark 10,400.
    expect(await charges()).toEqual([['performance', '2026-10', 100, 10_400]]);
  }, 30_000);

  it('ends a day once per account: ending it again changes neither the books nor the fees', async () => {
    const before = await server.app.db.query('SELECT hwm, fee_accrued FROM accounts WHERE id = $1', [accountId]);
    await server.app.ledger.write((tx) =>
      server.app.ledger.endDay(tx, dayOf('2026-10-31T00:00:00Z'), [{ id: accountId, name: '', brokerName: '', margin: 0, lastUpdate: 0, equity: 20_000 }]),
    );
    expect(await server.app.db.query('SELECT hwm, fee_accrued FROM accounts WHERE id = $1', [accountId])).toEqual(before);
    expect(await charges()).toEqual([['performance', '2026-10', 100, 10_400]]);
  });

  it('after a restart, ends the days the server was down from the last day a real account ended', async () => {
    await server.app.close();
    now = Date.parse('2026-11-05T03:00:00Z');
    server = await start();
    await until(navDays, 7);
    expect((await navDays()).map(([d]) => d)).toEqual(
      ['10-29', '10-30', '10-31', '11-01', '11-02', '11-03', '11-04'].map((d) => dayOf(`2026-${d}T00:00:00Z`)),
    );
  }, 60_000);
});
