// npm run bench -- statements (issue 39, item 2): 20 concurrent investor statements of a 20,000-deal
// account against a server in a child process, on PGlite and, when TEST_DATABASE_URL or DATABASE_URL
// is set, on PostgreSQL. Meanwhile /health and another user's read (their fee terms, a few queries)
// are probed one after the other; the server's RSS is sampled from /proc. Targets: /health and the
// other user's read under 200 ms, no 503, RSS under 600 MB. Targets 127.0.0.1 only, bounded, stops
// what it starts. Alone: `node --import tsx tests/bench/statements.ts`.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import type { Deal } from '#shared/domain/deal.ts';
import { startProcess } from './spawn.ts';

const DEALS = 20_000;
const CONCURRENT = 20;
const TARGET_MS = 200;
const TARGET_RSS_MB = 600;
/** Every investor's statement covers the account's year: all its deals. */
const YEAR = { from: '2025-01-01', to: '2025-12-31' };
const DAY_S = 86_400;
const START_S = Date.UTC(2025, 0, 1) / 1000;
const PASSWORD = 'bench-statements-1';

const pct = (values: number[], p: number): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return Math.round(sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0);
};

// ------------------------------------------------------------------------------------------------
// The server (`statements.ts serve`): the real app on its own database, seeded, then listening
// ------------------------------------------------------------------------------------------------

async function serve(): Promise<void> {
  const { buildApp } = await import('#server/app.ts');
  const { DEFAULT_AUTH, DEFAULT_MARKET, DEFAULT_PUSH_SERVICE_ORIGINS } = await import('#server/config.ts');
  const { insertAccount, insertBroker } = await import('#server/db/accounts-repo.ts');
  const { insertDeals } = await import('#server/db/deals-repo.ts');
  const { tradeEntry } = await import('#server/ledger/rules.ts');
  const { hashPassword } = await import('#server/auth/password.ts');
  const app = await buildApp({
    port: 0, host: '127.0.0.1', dataDir: process.env.BENCH_DATA_DIR ?? '', inMemory: false,
    databaseUrl: process.env.BENCH_DATABASE_URL || undefined, databaseSchema: process.env.BENCH_DATABASE_SCHEMA || undefined,
    redisUrl: undefined, demo: false, staticDir: undefined, logLevel: 'silent', auth: { ...DEFAULT_AUTH, loginAttemptsPerAddress: 100_000 },
    market: { ...DEFAULT_MARKET, tickMs: 0 }, push: { serviceOrigins: DEFAULT_PUSH_SERVICE_ORIGINS, subject: 'mailto:bench@copy-monitor.invalid' },
    agents: { unconfirmedCloseAfterS: 300 },
  });
  const db = app.db;
  const broker = await insertBroker(db, { broker_name: 'BenchBroker', img_path: '', spread_pips: 0, latency_ms: 0, commission_per_lot: 0, rebate_per_lot: 0 });
  const account = (login: string, category: string) =>
    insertAccount(db, {
      account_id: `stmt-${login}`, account: login, account_name: `Statement ${login}`, broker_id: broker, server: 'Bench-Live', server_name: 'Bench',
      teiko_category: category, currency: 'USD', is_master: false, master_id: null, copy_ratio: 1, leverage: 100, ping: 0, last_update: 0, source: 'agent',
    });
  const busy = await account('1', 'SMA');
  const other = await account('2', 'AMC');
  // A deposit, a withdrawal each quarter, and 20,000 round trips over the year (one every 26 minutes).
  const cash = (at: number, amount: number): Deal => ({
    accountId: busy, kind: amount > 0 ? ('deposit' as const) : ('withdrawal' as const), symbol: null, type: null, category: null, quantity: 0,
    openPrice: null, closePrice: null, openedAt: null, at, amount, profit: 0, swap: 0, commission: 0, fee: 0, rebate: 0, net: 0,
    mae: null, mfe: null, execMs: null, rebalancing: false, ticket: null, positionId: null, copyOf: null,
  });
  const deals = [cash(START_S + 60, 100_000), ...[1, 2, 3].map((q) => cash(START_S + q * 91 * DAY_S, -2_000))];
  for (let i = 0; i < DEALS - deals.length; i++) {
    const openedAt = START_S + 3_600 + i * 1_560;
    deals.push(tradeEntry({
      accountId: busy, symbol: i % 3 ? 'EURUSD' : 'GBPUSD', type: i % 2 ? 'Sell' : 'Buy', category: 'Forex', quantity: 0.1,
      openPrice: 1.1, closePrice: 1.1005, openedAt, closedAt: openedAt + 900, profit: i % 5 ? 5 : -7.5, swap: -0.12, commission: -0.7, fee: 0, rebate: 0,
      low: null, high: null, execMs: null, ticket: 1_000_000 + i,
    }));
  }
  for (let i = 0; i < deals.length; i += 2_000) await db.transaction((tx) => insertDeals(tx, deals.slice(i, i + 2_000)));
  // The year's end-of-day rows, at the balance (nothing open overnight).
  await db.query(
    `INSERT INTO nav_snapshots (account_id, day, balance, equity, taken_at, derived)
     SELECT $1, d::date, b.balance, b.balance, d + interval '1 day', false
       FROM generate_series(DATE '2025-01-01', DATE '2025-12-31', interval '1 day') d,
            LATERAL (SELECT coalesce(sum(CASE WHEN kind = 'trade' THEN net ELSE amount END), 0) AS balance
                       FROM deals WHERE account_id = $1 AND datetime < d + interval '1 day') b`,
    [busy],
  );
  const hash = await hashPassword(PASSWORD);
  for (let i = 1; i <= CONCURRENT; i++) {
    await app.authStore.upsertUser({ username: `investor${i}`, password_hash: hash, status: 'active', permissions: [], portfolio_auth: ['SMA'] });
  }
  await app.authStore.upsertUser({ username: 'other', password_hash: hash, status: 'active', permissions: [], portfolio_auth: ['AMC'] });
  void other;
  const shutdown = () => void app.close().then(() => process.exit(0), () => process.exit(1));
  process.on('SIGTERM', shutdown);
  process.on('SIGINT', shutdown);
  const address = await app.listen({ port: 0, host: '127.0.0.1' });
  process.stdout.write(`${address}\n`);
}

// ------------------------------------------------------------------------------------------------
// The load
// ------------------------------------------------------------------------------------------------

async function signIn(url: string, username: string): Promise<string> {
  const res = await fetch(`${url}/api/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username, password: PASSWORD }) });
  if (!res.ok) throw new Error(`sign-in of ${username}: ${res.status}`);
  return ((await res.json()) as { data: { api_key: string } }).data.api_key;
}

const rssMb = (pid: number): number => {
  const m = /VmRSS:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Math.round(Number(m[1]) / 1024) : 0;
};

/** nodejs_eventloop_lag_max_seconds since the last scrape, in ms. */
async function loopLagMaxMs(url: string): Promise<number> {
  const text = await (await fetch(`${url}/metrics`)).text();
  const line = text.split('\n').find((l) => l.startsWith('nodejs_eventloop_lag_max_seconds '));
  return line === undefined ? NaN : Math.round(Number(line.split(' ')[1]) * 1000);
}

interface Scenario {
  name: string;
  /** The investors' keys, one a statement (the same key 20 times: one investor). */
  keys: string[];
  query: (i: number) => string;
}

async function run(url: string, pid: number, otherKey: string, scenario: Scenario) {
  const statuses = new Map<number, number>();
  const health: number[] = [];
  const reads: number[] = [];
  let rssPeak = rssMb(pid);
  let running = true;
  const sampler = setInterval(() => (rssPeak = Math.max(rssPeak, rssMb(pid))), 100);
  const probe = async () => {
    while (running) {
      let t = performance.now();
      const h = await fetch(`${url}/health`);
      await h.arrayBuffer();
      health.push(performance.now() - t);
      if (h.status !== 200) statuses.set(-h.status, (statuses.get(-h.status) ?? 0) + 1);
      t = performance.now();
      const r = await fetch(`${url}/api/fees/terms?account=stmt-2`, { headers: { 'x-api-key': otherKey } });
      await r.arrayBuffer();
      reads.push(performance.now() - t);
      if (r.status !== 200) statuses.set(-r.status, (statuses.get(-r.status) ?? 0) + 1);
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
  };
  // The server's own longest stall of its event loop in the window (prom-client resets it at each scrape):
  // what the probes' round trips add to it is this machine's load on the bench's client.
  await loopLagMaxMs(url);
  const probing = probe();
  const started = performance.now();
  const retryAfter = new Set<string>();
  // No statement: the probes alone for a few seconds (the baseline of the same run).
  if (scenario.keys.length === 0) await new Promise((resolve) => setTimeout(resolve, 3_000));
  await Promise.all(
    scenario.keys.map(async (key, i) => {
      const res = await fetch(`${url}/api/statements?${scenario.query(i)}`, { headers: { 'x-api-key': key } });
      await res.arrayBuffer();
      statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
      if (res.status === 429) retryAfter.add(res.headers.get('retry-after') ?? 'none');
    }),
  );
  const elapsed = performance.now() - started;
  running = false;
  await probing;
  clearInterval(sampler);
  const stall = await loopLagMaxMs(url);
  const answered = [...statuses].filter(([s]) => s > 0).sort(([a], [b]) => a - b).map(([s, n]) => `${n} × ${s}`).join(', ');
  const probeErrors = [...statuses].filter(([s]) => s < 0).map(([s, n]) => `${n} × ${-s}`).join(', ');
  const ok = Math.max(...health) < TARGET_MS && Math.max(...reads) < TARGET_MS && !statuses.has(503) && !statuses.has(-503) && rssPeak < TARGET_RSS_MB;
  return {
    scenario: scenario.name,
    statements: (answered || 'none') + (retryAfter.size ? ` (Retry-After ${[...retryAfter].join('/')})` : ''),
    'all answered s': Number((elapsed / 1000).toFixed(1)),
    '/health p50 / p99 / max ms': `${pct(health, 50)} / ${pct(health, 99)} / ${Math.round(Math.max(...health))}`,
    "other user's read p50 / p99 / max ms": `${pct(reads, 50)} / ${pct(reads, 99)} / ${Math.round(Math.max(...reads))}`,
    "server's longest event-loop stall ms": stall,
    'probe errors': probeErrors || 'none',
    'RSS peak MB': rssPeak,
    target: ok ? 'meets' : 'OVER TARGET',
  };
}

export async function benchStatements(): Promise<Record<string, string | number>[]> {
  const backends: { name: string; env: Record<string, string>; cleanup: () => Promise<void> }[] = [];
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-statements-'));
  backends.push({ name: 'PGlite', env: { BENCH_DATA_DIR: dataDir }, cleanup: async () => fs.rmSync(dataDir, { recursive: true, force: true }) });
  const pgUrl = process.env.TEST_DATABASE_URL ?? process.env.DATABASE_URL;
  if (pgUrl) {
    const schema = `bench_statements_${process.pid}`;
    const pgDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-statements-pg-'));
    backends.push({
      name: 'PostgreSQL',
      env: { BENCH_DATABASE_URL: pgUrl, BENCH_DATABASE_SCHEMA: schema, BENCH_DATA_DIR: pgDir },
      cleanup: async () => {
        fs.rmSync(pgDir, { recursive: true, force: true });
        const client = new pg.Client({ connectionString: pgUrl });
        await client.connect();
        await client.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
        await client.end();
      },
    });
  }
  const rows: Record<string, string | number>[] = [];
  for (const backend of backends) {
    const server = await startProcess([fileURLToPath(import.meta.url), 'serve'], backend.env, 600_000);
    try {
      const pid = server.child.pid!;
      const investors = [];
      for (let i = 1; i <= CONCURRENT; i++) investors.push(await signIn(server.url, `investor${i}`));
      const other = await signIn(server.url, 'other');
      const idle = rssMb(pid);
      const one = investors[0]!;
      const scenarios: Scenario[] = [
        { name: 'no statement (the baseline)', keys: [], query: () => '' },
        { name: 'one investor, 20 × CSV of a month (2025-06)', keys: Array<string>(CONCURRENT).fill(one), query: () => 'account=stmt-1&period=2025-06&format=csv' },
        { name: 'one investor, 20 × CSV of the year (20,000 deals)', keys: Array<string>(CONCURRENT).fill(one), query: () => `account=stmt-1&from=${YEAR.from}&to=${YEAR.to}&format=csv` },
        {
          name: '20 investors, CSV and JSON of the year',
          keys: investors,
          query: (i) => `account=stmt-1&from=${YEAR.from}&to=${YEAR.to}&format=${i % 2 ? 'json' : 'csv'}`,
        },
        { name: '20 investors, PDF of a month (2025-06)', keys: investors, query: () => 'account=stmt-1&period=2025-06&format=pdf' },
      ];
      for (const scenario of scenarios) {
        rows.push({ backend: backend.name, 'RSS idle MB': idle, ...(await run(server.url, pid, other, scenario)) });
        // Let the previous scenario's stragglers end.
        await new Promise((resolve) => setTimeout(resolve, 2_000));
      }
    } finally {
      server.child.kill('SIGTERM');
      await new Promise((resolve) => server.child.once('exit', resolve));
      await backend.cleanup();
    }
  }
  return rows;
}

if (process.argv[2] === 'serve') {
  await serve();
} else if (import.meta.url === `file://${process.argv[1]}`) {
  console.table(await benchStatements());
}
