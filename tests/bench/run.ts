// npm run bench: history generation, HTTP throughput against the same server's cheapest authenticated answer, websocket fan-out,
// then the client: first-load budget and Lighthouse (client.ts), the live table in Chromium (live-table.ts).
// Every load targets 127.0.0.1 only, is bounded in time and count, and stops by itself.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { openPglite } from '#server/db/database.ts';
import { migrate } from '#server/db/migrations.ts';
import { generateHistory } from '#server/broker/simulated/history.ts';
import { benchClient } from './client.ts';
import { startProcess } from './spawn.ts';
import { benchLiveTable } from './live-table.ts';
import { benchIngest } from './ingest.ts';
import { benchCopyReport } from './copy-report.ts';
import { benchMemory, metric, openFeeds } from './memory.ts';

// `npm run bench -- scale`: only the several-instances benchmark (tests/bench/scale.ts).
if (process.argv.includes('copy')) {
  const { benchCopyReport } = await import('./copy-report.ts');
  console.table(Object.entries(await benchCopyReport()).map(([figure, value]) => ({ figure, value })));
  process.exit(0);
}
if (process.argv.includes('scale')) {
  const { benchScale } = await import('./scale.ts');
  await benchScale();
  process.exit(0);
}

const DURATION_S = Number(process.env.BENCH_SECONDS ?? 5);
const SOCKETS = Number(process.env.BENCH_SOCKETS ?? 1000);
const FANOUT_S = Number(process.env.BENCH_FANOUT_SECONDS ?? 30);

function dirSize(dir: string): number {
  let total = 0;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, entry.name);
    total += entry.isDirectory() ? dirSize(p) : fs.statSync(p).size;
  }
  return total;
}

const start = (args: string[], env: Record<string, string>) => startProcess(args, env);

const rssMb = (pid: number): number => {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024;
};

const pct = (values: number[], p: number): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
};

async function load(url: string, headers: Record<string, string>) {
  const r = await autocannon({ url, connections: 10, duration: DURATION_S, headers });
  return { rps: r.requests.average, p50: r.latency.p50, p99: r.latency.p99, errors: r.errors + r.non2xx };
}

// 1. History generation
const genDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-history-'));
const db = await openPglite(genDir);
await migrate(db);
const t0 = performance.now();
const made = await generateHistory(db, { seed: 42, now: Date.now(), months: 12 });
if (!made) throw new Error('a fresh database already had a history');
const genMs = performance.now() - t0;
await db.close();
const dbMb = dirSize(genDir) / 1024 / 1024;
fs.rmSync(genDir, { recursive: true, force: true });
console.table([
  { figure: 'history generation (12 months)', value: `${Math.round(genMs)} ms` },
  { figure: 'deals / NAV rows / rebate rows', value: `${made.deals} / ${made.navRows} / ${made.rebateRows}` },
  { figure: 'embedded database size', value: `${dbMb.toFixed(1)} MB` },
]);

// 1b. Ingest API v1: an agent's deals.
console.table(Object.entries(await benchIngest()).map(([figure, value]) => ({ figure, value })));

// 1c. The copy report (issue 20).
console.table(Object.entries(await benchCopyReport()).map(([figure, value]) => ({ figure, value })));

// 2. HTTP under load, from this process, against the server in another
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-server-'));
const server = await start(['src/server/main.ts'], { PORT: '0', HOST: '127.0.0.1', DATA_DIR: dataDir, DEMO: '1', LOG_LEVEL: 'info', STATIC_DIR: '/nonexistent' });
const bare = await start(['tests/bench/bare-server.ts'], { PORT: '0' });
try {
  const loginRes = await fetch(`${server.url}/api/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: 'admin', password: 'admin-demo' }),
  });
  const key = ((await loginRes.json()) as { data: { api_key: string } }).data.api_key;
  const headers = { 'x-api-key': key };
  const accounts = (await (await fetch(`${server.url}/api/brokers/accounts/info`, { headers })).json()) as { data: { account_id: string }[] };
  const account = accounts.data[0]!.account_id;

  // The ratios' base is this server's cheapest authenticated answer (the same key check, hooks and
  // request logging as every route measured); a bare Fastify route is shown for information only.
  const ceiling = await load(`${bare.url}/constant`, {});
  const base = await load(`${server.url}/api/bridge/status`, headers);
  const ratio = (rps: number) => Number((rps / base.rps).toFixed(3));
  const rows = [
    { route: 'bare Fastify constant (information)', ...ceiling, ratio: ratio(ceiling.rps) },
    { route: 'bridge/status (cheapest authenticated: the base)', ...base, ratio: 1 },
  ];
  for (const [name, route] of [
    ['accounts/info', '/api/brokers/accounts/info'],
    ['historical-deals (1 month)', `/api/brokers/historical-deals?account=${account}&start_date=${Math.floor(Date.now() / 1000) - 30 * 86400}`],
    ['stats/rebates (All)', '/api/stats/rebates?portfolio=All&group_by=account'],
  ] as const) {
    const r = await load(`${server.url}${route}`, headers);
    rows.push({ route: name, ...r, ratio: ratio(r.rps) });
  }
  console.table(rows.map((r) => ({ route: r.route, 'req/s': Math.round(r.rps), 'p50 ms': r.p50, 'p99 ms': r.p99, errors: r.errors, 'vs base': r.ratio })));

  // 3. Websocket fan-out: SOCKETS clients on one portfolio for FANOUT_S seconds. In this process: tick
  // → first and → last socket, and the spread between them per snapshot (this process shares the 2
  // cores with the server, which spreads its arrivals more than the server's writes). From the
  // server's /metrics, over the same window: the spread of one broadcast's socket writes, first to
  // last, and the event loop's delay.
  const rssBefore = rssMb(server.child.pid!);
  const receipts = new Map<number, number[]>();
  const sockets = await openFeeds(server.url, headers, SOCKETS, (at, ts) => {
    const list = receipts.get(ts) ?? [];
    list.push(at);
    receipts.set(ts, list);
  });
  receipts.clear();
  await fetch(`${server.url}/metrics`); // the server's figures start from here
  await new Promise((r) => setTimeout(r, FANOUT_S * 1000 + 1500));
  const serverMetrics = await (await fetch(`${server.url}/metrics`)).text();
  const rssAfter = rssMb(server.child.pid!);
  const complete = [...receipts].filter(([, list]) => list.length === SOCKETS);
  const lastArrival = complete.map(([ts, list]) => Math.max(...list) - ts);
  const firstArrival = complete.map(([ts, list]) => Math.min(...list) - ts);
  const spread = complete.map(([, list]) => Math.max(...list) - Math.min(...list));
  for (const ws of sockets) ws.close();
  const ms = (name: string, labels = '') => {
    const v = metric(serverMetrics, name, labels);
    return v === undefined ? 'n/a' : (v * 1000).toFixed(1);
  };
  console.table([
    { figure: 'sockets on one portfolio', value: SOCKETS },
    { figure: 'ticks measured (all sockets served)', value: `${complete.length} of ${receipts.size}` },
    { figure: 'client: tick → first socket p50 / p99', value: `${pct(firstArrival, 50)} / ${pct(firstArrival, 99)} ms` },
    { figure: 'client: tick → last socket p50 / p99', value: `${pct(lastArrival, 50)} / ${pct(lastArrival, 99)} ms` },
    { figure: 'client: first → last socket per snapshot p50 / p99', value: `${pct(spread, 50)} / ${pct(spread, 99)} ms` },
    {
      figure: 'server: first → last socket write p50 / p99 / max',
      value: `${ms('ws_fanout_spread_seconds', 'quantile="0.5"')} / ${ms('ws_fanout_spread_seconds', 'quantile="0.99"')} / ${ms('ws_fanout_spread_seconds', 'quantile="1"')} ms`,
    },
    {
      figure: 'server: broadcast start → last write p50 / p99',
      value: `${ms('ws_fanout_duration_seconds', 'quantile="0.5"')} / ${ms('ws_fanout_duration_seconds', 'quantile="0.99"')} ms`,
    },
    {
      figure: 'server: event-loop delay p50 / p99 / max (sampled every 10 ms: 10 = none)',
      value: `${ms('nodejs_eventloop_lag_p50_seconds')} / ${ms('nodejs_eventloop_lag_p99_seconds')} / ${ms('nodejs_eventloop_lag_max_seconds')} ms`,
    },
    { figure: 'server RSS before / with sockets', value: `${rssBefore.toFixed(0)} / ${rssAfter.toFixed(0)} MB` },
  ]);
} finally {
  server.child.kill('SIGTERM');
  bare.child.kill('SIGTERM');
  await new Promise((r) => setTimeout(r, 500));
  fs.rmSync(dataDir, { recursive: true, force: true });
}

// 3b. Memory of the embedded server: idle after a first start, after a restart, with SOCKETS feeds.
console.table(await benchMemory());

// 4. The client: first-load budget and Lighthouse, then the live positions table.
await benchClient();
const table = await benchLiveTable();
console.table(Object.entries(table).map(([figure, ms]) => ({ figure, ms })));
