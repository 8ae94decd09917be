/**
 * Several instances (issue 19): two real server processes on one PostgreSQL schema and one Redis.
 * Runs when TEST_DATABASE_URL and TEST_REDIS_URL are set (.ci/run sets both).
 */
import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { CLUSTER_DB, CLUSTER_REDIS, freePort, freshSchema, sql, startInstance, stopInstance, type Instance } from './helpers/cluster.ts';
import type { Market } from '#shared/domain/market.ts';
import type { Side } from '#shared/domain/side.ts';

interface Row {
  u_symbol: string;
  type: Side;
  category: Market;
  currency: string;
  time: number;
  legs: number;
}
interface Snapshot {
  timestamp: number;
  positionsAggregate: Row[];
}

const PORTFOLIO = 'Consolidated Portfolio';
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function signIn(url: string, username = 'admin', password = 'admin-demo'): Promise<Response> {
  return fetch(`${url}/api/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username, password }) });
}

/** A live feed on one instance: every snapshot it receives, in order. */
class Feed {
  readonly messages: Snapshot[] = [];
  private constructor(readonly ws: WebSocket) {
    ws.on('message', (data: Buffer) => this.messages.push(JSON.parse(data.toString()) as Snapshot));
  }

  static async open(url: string, key: string): Promise<Feed> {
    const res = await fetch(`${url}/api/ws-ticket`, { method: 'POST', headers: { 'x-api-key': key } });
    expect(res.status).toBe(200);
    const { ticket } = ((await res.json()) as { data: { ticket: string } }).data;
    const ws = new WebSocket(`${url.replace('http', 'ws')}/ws/brokers/live-positions-aggregate?portfolio=${encodeURIComponent(PORTFOLIO)}&token=${ticket}`);
    const feed = new Feed(ws);
    await new Promise<void>((resolve, reject) => {
      ws.once('open', () => resolve());
      ws.once('error', reject);
    });
    return feed;
  }

  /** Waits for a snapshot (received after `after` messages) that satisfies `test`. */
  async until(test: (s: Snapshot) => boolean, timeoutMs = 10_000, after = 0): Promise<Snapshot> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const hit = this.messages.slice(after).find(test);
      if (hit) return hit;
      if (Date.now() > deadline) throw new Error(`no such snapshot in ${timeoutMs} ms (${this.messages.length} received)`);
      await sleep(50);
    }
  }

  close(): void {
    this.ws.close();
  }
}

const duplicatedDeals = (schema: string) =>
  sql<{ n: number }>(
    schema,
    `SELECT count(*)::int AS n FROM (
       SELECT 1 FROM deals WHERE kind = 'trade'
       GROUP BY account_id, symbol, type, opened_at, datetime, quantity, open_price
       HAVING count(*) > 1) d`,
  );

describe.runIf(CLUSTER_DB && CLUSTER_REDIS)('several instances on one PostgreSQL and one Redis', () => {
  let a: Instance;
  let b: Instance;
  let schema: string;
  let drop: () => Promise<void>;
  let key: string;
  const feeds: Feed[] = [];

  beforeAll(async () => {
    ({ schema, drop } = await freshSchema('scale'));
    const env = { DATABASE_URL: CLUSTER_DB!, DATABASE_SCHEMA: schema, REDIS_URL: CLUSTER_REDIS!, DEMO: '1' };
    // Started together: migrations run once (an advisory lock), one of them leads.
    [a, b] = await Promise.all([startInstance(env, await freePort()), startInstance(env, await freePort())]);
    const ready = async (i: Instance) => ((await (await fetch(`${i.url}/ready`)).json()) as { market: { running: boolean } }).market.running;
    // Make `a` the leader, whichever won.
    if (!(await ready(a))) [a, b] = [b, a];
    expect(await ready(a)).toBe(true);
    expect(await ready(b)).toBe(false);
  }, 180_000);

  afterAll(async () => {
    for (const f of feeds) f.close();
    await Promise.all([a, b].filter(Boolean).map((i) => stopInstance(i)));
    await drop?.();
  }, 60_000);

  it('runs the migrations once when both start together', async () => {
    const versions = await sql<{ version: number; n: number }>(schema, 'SELECT version, count(*)::int AS n FROM schema_migrations GROUP BY version');
    expect(versions.length).toBeGreaterThan(0);
    expect(versions.every((v) => v.n === 1)).toBe(true);
  });

  it('takes a session created on A on B, and a websocket ticket of A on B', async () => {
    const res = await signIn(a.url);
    expect(res.status).toBe(200);
    key = ((await res.json()) as { data: { api_key: string } }).data.api_key;
    const info = await fetch(`${b.url}/api/brokers/accounts/info`, { headers: { 'x-api-key': key } });
    expect(info.status).toBe(200);
    expect(((await info.json()) as { data: unknown[] }).data.length).toBe(32);
    feeds.push(await Feed.open(b.url, key));
  });

  it('serves on B the snapshots that the market on A produces, a new one each second', async () => {
    const onB = feeds[0]!;
    const first = await onB.until((s) => s.positionsAggregate.length > 0);
    const later = await onB.until((s) => s.timestamp >= first.timestamp + 2_000, 10_000);
    expect(later.timestamp).toBeGreaterThan(first.timestamp);
    // B runs no market of its own: the ticks counted on A are the only ones.
    const metrics = async (i: Instance) => (await (await fetch(`${i.url}/ready`)).json()) as { market: { running: boolean } };
    expect((await metrics(b)).market.running).toBe(false);
  });

  it('acts once on a close sent to B, and both instances\' sockets see it', async () => {
    const onB = feeds[0]!;
    const onA = await Feed.open(a.url, key);
    feeds.push(onA);
    const snap = await onB.until((s) => s.positionsAggregate.length > 0);
    const row = snap.positionsAggregate[0]!;
    const same = (r: Row) => r.u_symbol === row.u_symbol && r.type === row.type;
    const sentAt = Date.now();
    const [seenA, seenB] = [onA.messages.length, onB.messages.length];
    const res = await fetch(`${b.url}/api/positions/close-by-symbol`, {
      method: 'POST',
      headers: { 'x-api-key': key, 'content-type': 'application/json', 'idempotency-key': `close-${sentAt}` },
      body: JSON.stringify({ category: row.category, symbol: row.u_symbol, direction: row.type === 'Buy' ? 'long' : 'short', currency: row.currency, portfolio: PORTFOLIO }),
    });
    const body = (await res.json()) as { message: string };
    expect(res.status, body.message).toBe(200);
    expect(body.message).toMatch(new RegExp(`${row.legs} positions? of ${row.u_symbol} closed`));
    // Gone from both feeds (or only positions opened since then are left).
    const gone = (s: Snapshot) => s.positionsAggregate.every((r) => !same(r) || r.time * 1000 >= sentAt - 1000);
    await onA.until(gone, 10_000, seenA);
    await onB.until(gone, 10_000, seenB);
    const audits = await sql<{ n: number }>(schema, "SELECT count(*)::int AS n FROM audit_log WHERE action = 'positions.close'");
    expect(audits[0]!.n).toBe(1);
    expect((await duplicatedDeals(schema))[0]!.n).toBe(0);
  });

  it('counts sign-in attempts across instances', async () => {
    // Ten wrong passwords for one name from one address are allowed, five on each instance…
    for (const i of [a, b]) {
      for (let n = 0; n < 5; n++) expect((await signIn(i.url, 'investor', 'wrong password')).status).toBe(401);
    }
    // …and the eleventh is refused on either, as on one instance.
    const res = await signIn(a.url, 'investor', 'wrong password');
    expect(res.status).toBe(429);
    expect(((await res.json()) as { message: string }).message).toMatch(/Too many sign-in attempts/);
  });

  it('lets an agent post and poll on B while A runs the market: a TP edit sent to B reaches the agent and its answer comes back', async () => {
    const env = { ...process.env, DATABASE_URL: CLUSTER_DB!, DATABASE_SCHEMA: schema };
    const admin = (...args: string[]) => promisify(execFile)(process.execPath, ['--import', 'tsx', 'src/server/admin/cli.ts', ...args], { env });
    await admin('broker', 'add', 'Pepperstone');
    await admin('account', 'add', '--broker', 'Pepperstone', '--login', '51234567', '--server', 'Pepperstone-Live01', '--name', 'Live FX Master', '--currency', 'EUR', '--category', 'global forex');
    const agentKey = (await admin('agent', 'create', 'vps-1', '--account', '51234567@Pepperstone-Live01:trade')).stdout.trim().split('\n').at(-1)!.trim();
    const res = await fetch(`${b.url}/api/ingest/v1/batches`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-agent-key': agentKey },
      body: JSON.stringify({
        session: randomUUID(), seq: 1, batch_id: randomUUID(), utc_offset_minutes: 0, sent_at: Date.now(),
        accounts: [{
          login: '51234567', server: 'Pepperstone-Live01',
          state: { balance: 25_000, equity: 25_120, margin: 1_100, free_margin: 24_020, leverage: 100, currency: 'EUR' },
          positions: { full: true, open: [{ identifier: 900, symbol: 'EURUSD', type: 'buy', volume: 1.5, price_open: 1.0812, price_current: 1.0824, sl: 0, tp: 0, profit: 166.2, swap: 0, time: Math.floor(Date.now() / 1000) }], closed: [] },
          quotes: [{ symbol: 'EURUSD', bid: 1.0824, ask: 1.0826 }],
        }],
      }),
    });
    expect(res.status).toBe(200);
    // The leader (A) read the report B took: A's answer shows the terminal's equity.
    const equityOnA = async () => {
      const info = (await (await fetch(`${a.url}/api/brokers/accounts/info`, { headers: { 'x-api-key': key } })).json()) as { data: { account: string; equity: number }[] };
      return info.data.find((r) => r.account === '51234567')?.equity;
    };
    await expect.poll(equityOnA, { timeout: 5_000 }).toBe(25_120);

    // The edit goes to B, B hands it to A (which runs the market), A queues the command, the agent's
    // long poll on B wakes with it, the answer posted to B reaches A, and A's answer reaches B.
    const edit = fetch(`${b.url}/api/positions/set-tp-sl-by-symbol`, {
      method: 'POST',
      headers: { 'x-api-key': key, 'content-type': 'application/json', 'idempotency-key': randomUUID() },
      body: JSON.stringify({ category: 'Forex', symbol: 'EURUSD', direction: 'long', currency: 'EUR', take_profit: 1.2, stop_loss: 1.0, portfolio: 'Global FX' }),
    });
    const polled = Date.now();
    const poll = (await (await fetch(`${b.url}/api/ingest/v1/commands?wait=10`, { headers: { 'x-agent-key': agentKey } })).json()) as {
      commands: { id: string; kind: string; payload: { identifier: number; tp: number; sl: number } }[];
    };
    if (poll.commands.length === 0) {
      const failed = await edit;
      throw new Error(`no command reached the agent; the edit answered ${failed.status} ${await failed.text()}`);
    }
    expect(poll.commands).toHaveLength(1);
    expect(poll.commands[0]).toMatchObject({ kind: 'modify', payload: { identifier: 900, tp: 1.2, sl: 1.0 } });
    // Woken by the queued command, not by the end of its 10 s wait.
    expect(Date.now() - polled).toBeLessThan(5_000);
    const ack = await fetch(`${b.url}/api/ingest/v1/commands/${poll.commands[0]!.id}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-agent-key': agentKey },
      body: JSON.stringify({ state: 'done' }),
    });
    expect(ack.status).toBe(200);
    const answer = await edit;
    const body = (await answer.json()) as { message: string };
    expect(answer.status, body.message).toBe(200);
    expect(body.message).toMatch(/^Take profit 1\.2 and stop loss 1 set on \d+ positions? of EURUSD\.$/);
  }, 60_000);

  it('hands the market to B within 10 s when the leader is killed, with no deal written twice', async () => {
    const onB = feeds[0]!;
    const killedAt = Date.now();
    await stopInstance(a, 'SIGKILL');
    let tookOver = 0;
    while (Date.now() - killedAt < 15_000) {
      const ready = (await (await fetch(`${b.url}/ready`)).json()) as { market: { running: boolean } };
      if (ready.market.running) {
        tookOver = Date.now() - killedAt;
        break;
      }
      await sleep(100);
    }
    expect(tookOver).toBeGreaterThan(0);
    expect(tookOver).toBeLessThanOrEqual(10_000);
    // B's own market now ticks for B's sockets.
    const seen = onB.messages.length;
    const next = await onB.until(() => true, 5_000, seen);
    await onB.until((s) => s.timestamp > next.timestamp, 5_000, seen);
    // Orders act on B itself now.
    const info = await fetch(`${b.url}/api/brokers/accounts/info`, { headers: { 'x-api-key': key } });
    expect(info.status).toBe(200);
    await sleep(2_000);
    expect((await duplicatedDeals(schema))[0]!.n).toBe(0);
  }, 40_000);
});
