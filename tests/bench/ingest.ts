// Ingest API v1 under load, in-process on the embedded database: 10,000 deals (5,000 round trips)
// pushed by one agent in batches of 500, as a 10,000-deal report replay would; then the same again
// (a replay of an overlapping report), which must change nothing.
import { randomUUID } from 'node:crypto';
import { buildApp } from '#server/app.ts';
import { DEFAULT_AUTH, DEFAULT_MARKET } from '#server/config.ts';
import { insertAccount, insertBroker } from '#server/db/accounts-repo.ts';
import { grantAccount, insertAgent } from '#server/db/agents-repo.ts';
import { hashToken, newToken } from '#server/auth/tokens.ts';
import type { IngestDeal } from '#shared/contract/ingest.ts';
import type { FastifyInstance } from 'fastify';
import WebSocket from 'ws';
import { hashPassword } from '#server/auth/password.ts';

const DEALS = 10_000;
const AGENTS = 40;
const ROUNDS = 10;

const pct = (values: number[], p: number): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
};

/**
 * 40 agents, one account each, each with one open position under its own symbol; a signed-in socket
 * on their portfolio. Each round every agent reports a new current price; the latency is from its
 * batch being sent to the first snapshot on the socket that shows that price.
 */
async function agentsToSocket(app: FastifyInstance, url: string, broker: number): Promise<{ p50: number; p99: number }> {
  const agents: { key: string; login: string; session: string; seq: number }[] = [];
  for (let i = 0; i < AGENTS; i++) {
    const login = String(9_000 + i);
    const id = await insertAccount(app.db, {
      account_id: `bench-${login}`, account: login, account_name: `Agent ${i}`, broker_id: broker, server: 'Bench-Live', server_name: 'Bench',
      teiko_category: 'SMA', currency: 'USD', is_master: true, master_id: null, copy_ratio: 1, leverage: 100, ping: 0, last_update: 0, source: 'agent',
    });
    const key = newToken();
    await grantAccount(app.db, await insertAgent(app.db, `bench-${login}`, hashToken(key)), id, 'read');
    agents.push({ key, login, session: randomUUID(), seq: 0 });
  }
  await app.authStore.upsertUser({ username: 'bench', password_hash: await hashPassword('bench-password'), status: 'active', permissions: [], portfolio_auth: ['SMA'] });
  const login = await fetch(`${url}/api/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username: 'bench', password: 'bench-password' }) });
  const apiKey = ((await login.json()) as { data: { api_key: string } }).data.api_key;
  const report = async (a: (typeof agents)[number], price: number) => {
    const res = await fetch(`${url}/api/ingest/v1/batches`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-agent-key': a.key },
      body: JSON.stringify({
        session: a.session, seq: ++a.seq, batch_id: randomUUID(), utc_offset_minutes: 0, sent_at: Date.now(),
        accounts: [{ login: a.login, server: 'Bench-Live', positions: { full: true, closed: [], open: [{
          identifier: 1, symbol: `AG${a.login}`, type: 'buy', volume: 10, price_open: 100, price_current: price, sl: 0, tp: 0, profit: 0, swap: 0, time: 1_790_000_000,
        }] } }],
      }),
    });
    if (!res.ok) throw new Error(`report: ${res.status} ${await res.text()}`);
  };
  for (const a of agents) await report(a, 100);
  const ticket = ((await (await fetch(`${url}/api/ws-ticket`, { method: 'POST', headers: { 'x-api-key': apiKey } })).json()) as { data: { ticket: string } }).data.ticket;
  const pending = new Map<string, { price: number; sent: number }>();
  const latencies: number[] = [];
  const ws = new WebSocket(`${url.replace('http', 'ws')}/ws/brokers/live-positions-aggregate?portfolio=SMA&token=${ticket}`);
  ws.on('message', (data: Buffer) => {
    const now = Date.now();
    const rows = (JSON.parse(data.toString()) as { positionsAggregate?: { u_symbol: string; price_current: number }[] }).positionsAggregate ?? [];
    for (const row of rows) {
      const wanted = pending.get(row.u_symbol);
      if (wanted && Math.abs(row.price_current - wanted.price) < 1e-6) {
        latencies.push(now - wanted.sent);
        pending.delete(row.u_symbol);
      }
    }
  });
  await new Promise((resolve, reject) => {
    ws.once('open', resolve);
    ws.once('error', reject);
  });
  for (let round = 1; round <= ROUNDS; round++) {
    await Promise.all(
      agents.map(async (a, i) => {
        const price = 100 + round + i / 100;
        pending.set(`AG${a.login}`, { price, sent: Date.now() });
        await report(a, price);
      }),
    );
    const deadline = Date.now() + 5_000;
    while (pending.size && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    pending.clear();
  }
  ws.close();
  return { p50: pct(latencies, 50), p99: pct(latencies, 99) };
}

export async function benchIngest(): Promise<Record<string, string>> {
  const app = await buildApp({
    port: 0, host: '127.0.0.1', dataDir: '', inMemory: true, databaseUrl: undefined, databaseSchema: undefined, redisUrl: undefined,
    demo: false, staticDir: undefined, logLevel: 'silent', auth: DEFAULT_AUTH, market: { ...DEFAULT_MARKET, tickMs: 0 },
  });
  const url = await app.listen({ port: 0, host: '127.0.0.1' });
  try {
    const broker = await insertBroker(app.db, { broker_name: 'Bench', img_path: '', spread_pips: 0, latency_ms: 0, commission_per_lot: 0, rebate_per_lot: 0 });
    const account = await insertAccount(app.db, {
      account_id: 'bench-1', account: '1', account_name: 'Bench', broker_id: broker, server: 'Bench-Live', server_name: 'Bench', teiko_category: 'SMA',
      currency: 'USD', is_master: true, master_id: null, copy_ratio: 1, leverage: 100, ping: 0, last_update: 0, source: 'agent',
    });
    const key = newToken();
    await grantAccount(app.db, await insertAgent(app.db, 'bench', hashToken(key)), account, 'read');
    const t0 = Date.UTC(2026, 0, 5) / 1000;
    const deals: IngestDeal[] = [];
    for (let i = 0; i < DEALS / 2; i++) {
      const base = { position_id: 100_000 + i, symbol: 'EURUSD', volume: 1, commission: -3.5, fee: 0, swap: 0 };
      deals.push({ ...base, ticket: 2 * i + 1, time: t0 + i * 600, type: 0, entry: 'in', price: 1.1, profit: 0 });
      deals.push({ ...base, ticket: 2 * i + 2, time: t0 + i * 600 + 300, type: 1, entry: 'out', price: 1.1005, profit: 50 });
    }
    const push = async () => {
      const session = randomUUID();
      const started = performance.now();
      for (let seq = 1; seq <= DEALS / 500; seq++) {
        const res = await fetch(`${url}/api/ingest/v1/batches`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-agent-key': key },
          body: JSON.stringify({
            session, seq, batch_id: randomUUID(), utc_offset_minutes: 0, sent_at: Date.now(),
            accounts: [{ login: '1', server: 'Bench-Live', deals: { items: deals.slice((seq - 1) * 500, seq * 500), deleted: [] } }],
          }),
        });
        if (!res.ok) throw new Error(`batch ${seq}: ${res.status} ${await res.text()}`);
      }
      return (performance.now() - started) / 1000;
    };
    const first = await push();
    const again = await push();
    const rows = await app.db.query<{ n: number }>("SELECT count(*)::int AS n FROM deals WHERE kind = 'trade'");
    const latency = await agentsToSocket(app, url, broker);
    return {
      'ingest: 10,000 deals (5,000 round trips) in 20 batches': `${first.toFixed(2)} s (${Math.round(DEALS / first)} deals/s; target ≤ 5 s)`,
      'ingest: the same 10,000 again (a replay: nothing changes)': `${again.toFixed(2)} s (${Math.round(DEALS / again)} deals/s)`,
      'round trips booked': String(rows[0]?.n ?? 0),
      [`agent report → socket snapshot, ${AGENTS} agents × ${ROUNDS} reports, p50 / p99`]: `${latency.p50} / ${latency.p99} ms (target p99 ≤ 1,500 ms; feeds send at most once a second)`,
    };
  } finally {
    await app.close();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  console.table(Object.entries(await benchIngest()).map(([figure, value]) => ({ figure, value })));
}
