// npm run bench: history generation, HTTP throughput against the same server's static file, websocket fan-out to 10,000 sockets,
// then the client: first-load budget and Lighthouse (client.ts), the live table in Chromium (live-table.ts).
// Every load targets 127.0.0.1 only, is bounded in time and count, and stops by itself.
import { execFileSync } from 'node:child_process';
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
import { benchMemory, signIn } from './memory.ts';
import { benchFanout } from './fanout.ts';

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

// `npm run bench -- server memory` (any of books, server, memory, client, statements, push): only those sections.
const SECTIONS = ['books', 'server', 'memory', 'client', 'statements', 'push'];
const chosen = process.argv.slice(2).filter((a) => SECTIONS.includes(a));
const runs = (section: string) => chosen.length === 0 || chosen.includes(section);

const DURATION_S = Number(process.env.BENCH_SECONDS ?? 5);
const FANOUT_S = Number(process.env.BENCH_FANOUT_SECONDS ?? 20);
/** Issue 29's targets: an authenticated read against the static file; first → last socket p99 by sockets (ms). */
const HTTP_TARGET = 0.8;
const FANOUT_TARGETS: Record<number, number> = { 1000: 15, 10_000: 100 };

function dirSize(dir: string): number {
  let total = 0;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, entry.name);
    total += entry.isDirectory() ? dirSize(p) : fs.statSync(p).size;
  }
  return total;
}

const start = (args: string[], env: Record<string, string>) => startProcess(args, env);

async function load(url: string, headers: Record<string, string>) {
  const r = await autocannon({ url, connections: 50, duration: DURATION_S, headers });
  return { rps: r.requests.average, p50: r.latency.p50, p99: r.latency.p99, errors: r.errors + r.non2xx };
}

// 1. History generation
if (runs('books')) {
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
}

// 1d. Push that one user cannot clog (issue 39): an alert's delay to a fast phone beside another user's slow devices.
if (runs('push')) {
  const { benchPush } = await import('./push.ts');
  console.table(Object.entries(await benchPush()).map(([figure, value]) => ({ figure, value })));
}

// 2. HTTP under load, from this process, against the server in another, serving the built client.
// The ratios' base is the same server's static file (the web manifest from dist/): an authenticated
// read answered from the answer cache should cost about what a file does (issue 29: ≥ 0.8).
if (runs('server')) {
  const distDir = path.resolve('dist');
  if (!fs.existsSync(path.join(distDir, 'manifest.webmanifest'))) execFileSync('npx', ['vite', 'build'], { stdio: 'ignore' });
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-server-'));
  const server = await start(['src/server/main.ts'], { PORT: '0', HOST: '127.0.0.1', DATA_DIR: dataDir, DEMO: '1', LOG_LEVEL: 'info', STATIC_DIR: distDir });
  const bare = await start(['tests/bench/bare-server.ts'], { PORT: '0' });
  const verdict = (ok: boolean) => (ok ? 'meets' : 'OVER TARGET');
  try {
    const headers = await signIn(server.url);
    const accounts = (await (await fetch(`${server.url}/api/brokers/accounts/info`, { headers })).json()) as { data: { account_id: string }[] };
    const account = accounts.data[0]!.account_id;

    const ceiling = await load(`${bare.url}/constant`, {});
    const base = await load(`${server.url}/manifest.webmanifest`, {});
    const ratio = (rps: number) => Number((rps / base.rps).toFixed(2));
    const rows = [
      { route: 'bare Fastify constant (information)', ...ceiling, ratio: ratio(ceiling.rps), target: '' },
      { route: 'static manifest.webmanifest (the base)', ...base, ratio: 1, target: '' },
    ];
    for (const [name, route] of [
      ['bridge/status', '/api/bridge/status'],
      ['accounts/info', '/api/brokers/accounts/info'],
      ['historical-deals (1 month)', `/api/brokers/historical-deals?account=${account}&start_date=${Math.floor(Date.now() / 1000) - 30 * 86400}`],
      ['stats/rebates (All)', '/api/stats/rebates?portfolio=All&group_by=account'],
    ] as const) {
      const r = await load(`${server.url}${route}`, headers);
      rows.push({ route: `${name} (signed in)`, ...r, ratio: ratio(r.rps), target: `≥ ${HTTP_TARGET}: ${verdict(r.rps / base.rps >= HTTP_TARGET)}` });
    }
    console.table(rows.map((r) => ({ route: r.route, 'req/s': Math.round(r.rps), 'p50 ms': r.p50, 'p99 ms': r.p99, errors: r.errors, 'vs static': r.ratio, target: r.target })));

    // 3. Websocket fan-out, deltas (as the app's screens take them): one socket (the baseline), then
    // 1,000 and 10,000 on one portfolio; 1,000 full snapshots for the bytes they cost.
    const pid = server.child.pid!;
    const runs = [
      await benchFanout({ url: server.url, pid }, headers, 1, FANOUT_S, 'delta'),
      await benchFanout({ url: server.url, pid }, headers, 1000, FANOUT_S, 'snapshot'),
      await benchFanout({ url: server.url, pid }, headers, 1000, FANOUT_S, 'delta'),
      await benchFanout({ url: server.url, pid }, headers, 10_000, FANOUT_S, 'delta'),
    ];
    const one = runs[0]!;
    console.table(
      runs.map((r) => {
        const target = r.updates === 'delta' ? FANOUT_TARGETS[r.sockets] : undefined;
        return {
          sockets: r.sockets,
          updates: r.updates,
          broadcasts: r.broadcasts,
          'first → last socket p50 / p99 / max ms': `${r.spread.p50} / ${r.spread.p99} / ${r.spread.max}`,
          target: target === undefined ? '' : `p99 ≤ ${target}: ${verdict(r.spread.p99 <= target)}`,
          'tick → last socket p50 / p99 ms': `${r.lastArrival.p50} / ${r.lastArrival.p99}`,
          'vs one socket (p50)': Number((r.lastArrival.p50 / Math.max(1, one.lastArrival.p50)).toFixed(1)),
          'server writes p50 / p99 ms': `${r.serverSpread.p50} / ${r.serverSpread.p99}`,
          'bytes a message': r.bytesPerMessage,
          'server RSS MB': r.rss,
        };
      }),
    );
  } finally {
    server.child.kill('SIGTERM');
    bare.child.kill('SIGTERM');
    await new Promise((r) => setTimeout(r, 500));
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

// 3b. Memory of the embedded server: idle after a first start, after a restart, with SOCKETS feeds.
if (runs('memory')) {
  console.table(await benchMemory());
}

// 4. The client: first-load budget and Lighthouse, then the live positions table.
if (runs('client')) {
  await benchClient();
  const table = await benchLiveTable();
  console.table(Object.entries(table).map(([figure, ms]) => ({ figure, ms })));
}

// 5. Statements within a budget (issue 39): 20 concurrent statements of a 20,000-deal account (tests/bench/statements.ts).
if (runs('statements')) {
  const { benchStatements } = await import('./statements.ts');
  console.table(await benchStatements());
}
