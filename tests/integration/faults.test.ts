/**
 * Fault tests on the real server process (`node --import tsx src/server/main.ts`): SIGKILL during
 * live writes, SIGKILL during the first start, a crash as pid 1 of a PID namespace, and PostgreSQL
 * out of reach for a few seconds. Each runs on PGlite (a fresh DATA_DIR) and, when
 * TEST_DATABASE_URL is set, on PostgreSQL too (a fresh schema, dropped afterwards).
 *
 * A first start writes 12 months of history (here about 9 s on PGlite, 3 s on PostgreSQL, most of
 * the PGlite time being its initdb). Scenarios that need a database that has been through a first
 * start already (1 and 3) copy one PGlite data directory made once, cleanly, by a first start;
 * scenario 2 needs fresh ones, as its fault is in the first start itself.
 */
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import {
  call,
  childPids,
  crash,
  firstFeedMessage,
  killAllServers,
  loginAdmin,
  sleep,
  spawnServer,
  startServerProcess,
  stopServer,
  tail,
  waitForOutput,
  waitListening,
  type ServerProcess,
} from './helpers/process.ts';
import type { Market } from '#shared/domain/market.ts';
import type { Side } from '#shared/domain/side.ts';

type Backend = 'pglite' | 'postgres';

const PG_URL = process.env.TEST_DATABASE_URL;
const BACKENDS: Backend[] = PG_URL ? ['pglite', 'postgres'] : ['pglite'];

/** Environment of every server started here (on top of the store's variables). */
const BASE_ENV: Record<string, string> = {
  PORT: '0',
  HOST: '127.0.0.1',
  LOG_LEVEL: 'info',
  LOGIN_ATTEMPTS_PER_ADDRESS: '100000',
};

const DAY_MS = 86_400_000;
const PORTFOLIO_FEEDS = ['Consolidated Portfolio', 'SMA', 'AMC'] as const; // together: every account

const log = (...args: unknown[]) => console.info('[faults]', ...args);
const secondsSince = (t: number) => `${((performance.now() - t) / 1000).toFixed(1)} s`;

// ---- where the data lives ------------------------------------------------------------------------

interface Store {
  backend: Backend;
  env: Record<string, string>;
  /** Runs SQL on the store directly. PGlite: only while no server runs on it. */
  inspect<T>(fn: (query: <R>(sql: string, params?: unknown[]) => Promise<R[]>) => Promise<T>): Promise<T>;
  dispose(): Promise<void>;
}

const tempDirs: string[] = [];
function tempDir(prefix: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  tempDirs.push(dir);
  return dir;
}

function pgliteStore(dir: string): Store {
  return {
    backend: 'pglite',
    env: { DATA_DIR: dir },
    async inspect(fn) {
      const { PGlite } = await import('@electric-sql/pglite');
      const db = await PGlite.create(path.join(dir, 'pgdata'));
      try {
        return await fn(async <R>(sql: string, params: unknown[] = []) => (await db.query<R>(sql, params)).rows);
      } finally {
        await db.close();
      }
    },
    async dispose() {
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

async function withPg<T>(fn: (client: pg.Client) => Promise<T>, schema?: string): Promise<T> {
  const client = new pg.Client({ connectionString: PG_URL, ...(schema ? { options: `-c search_path=${schema}` } : {}) });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

function postgresStore(): Store {
  const schema = `f_${randomBytes(6).toString('hex')}`;
  return {
    backend: 'postgres',
    env: { DATABASE_URL: PG_URL!, DATABASE_SCHEMA: schema },
    inspect: (fn) => withPg((client) => fn(async <R>(sql: string, params: unknown[] = []) => (await client.query(sql, params)).rows as R[]), schema),
    dispose: () => withPg(async (client) => void (await client.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`))),
  };
}

/** A PGlite data directory that has been through one clean first start (made once, copied per test). */
let template: Promise<string> | undefined;
function pgliteTemplate(): Promise<string> {
  template ??= (async () => {
    const dir = tempDir('faults-template-');
    const started = performance.now();
    const { proc } = await startServerProcess({ ...BASE_ENV, DATA_DIR: dir });
    log(`PGlite first start (initdb, migrations, 12 months of history): listening after ${secondsSince(started)}`);
    const exit = await stopServer(proc);
    if (exit.code !== 0) throw new Error(`the template server did not stop cleanly: ${JSON.stringify(exit)}\n${tail(proc)}`);
    return dir;
  })();
  return template;
}

/** A store for one test: PGlite in a fresh directory (a copy of the template when `seeded`), or a fresh schema. */
async function freshStore(backend: Backend, seeded: boolean): Promise<Store> {
  if (backend === 'postgres') return postgresStore();
  const dir = tempDir('faults-');
  if (seeded) fs.cpSync(await pgliteTemplate(), dir, { recursive: true });
  return pgliteStore(dir);
}

afterEach(async () => {
  await killAllServers();
});

afterAll(async () => {
  await killAllServers();
  for (const dir of tempDirs) fs.rmSync(dir, { recursive: true, force: true });
});

// ---- API views -----------------------------------------------------------------------------------

interface AccountInfo {
  account_id: string;
  account_name: string;
  is_master: boolean;
  teiko_category: string;
}

interface LiveRow {
  account_name: string;
  u_symbol: string;
  type: Side;
  category: Market;
  currency: string;
  price_current: number;
  time: number;
  legs: number;
}

interface DealRow {
  symbol: string;
  type: string;
  datetime: number;
}

async function accountsInfo(url: string, key: string): Promise<AccountInfo[]> {
  const res = await call<{ data?: AccountInfo[] }>(url, 'GET', '/api/brokers/accounts/info', { key });
  expect(res.status, JSON.stringify(res.body).slice(0, 300)).toBe(200);
  return res.body.data ?? [];
}

/** Every account's open positions, one row per account, symbol and direction (the live feeds of all portfolios). */
async function livePositions(url: string, key: string): Promise<LiveRow[]> {
  const rows = new Map<string, LiveRow>();
  for (const portfolio of PORTFOLIO_FEEDS) {
    const feed = await firstFeedMessage(url, key, { aggregate_by: 'account', portfolio });
    if (feed.closed) throw new Error(`the ${portfolio} feed closed with ${feed.closed.code} ${feed.closed.reason}`);
    const msg = feed.first as { type?: string; positionsAggregate?: LiveRow[] };
    expect(msg.type).toBe('snapshot');
    for (const r of msg.positionsAggregate ?? []) rows.set(`${r.account_name}|${r.u_symbol}|${r.type}`, r);
  }
  return [...rows.values()];
}

async function historicalDeals(url: string, key: string, accountId: string, startDate?: number): Promise<DealRow[]> {
  const q = new URLSearchParams({ account: accountId });
  if (startDate !== undefined) q.set('start_date', String(startDate));
  const res = await call<{ dealsStats?: { deals: DealRow[] }[] }>(url, 'GET', `/api/brokers/historical-deals?${q}`, { key });
  expect(res.status, `historical deals of ${accountId}: ${JSON.stringify(res.body).slice(0, 300)}`).toBe(200);
  return res.body.dealsStats?.[0]?.deals ?? [];
}

/** GET /ready: its status. */
async function readyStatus(url: string, timeoutMs = 10_000): Promise<number> {
  const res = await call(url, 'GET', '/ready', { timeoutMs });
  return res.status;
}

/**
 * The product a first start must leave: the demo admin signs in, 32 accounts, every account's deals
 * spread over at least 12 months (masters' back at least 360 days), /ready, and a live feed that sends
 * a snapshot with open positions (not a 4503 close).
 */
async function assertComplete(url: string): Promise<void> {
  const key = await loginAdmin(url);
  const accounts = await accountsInfo(url, key);
  expect(accounts, 'accounts listed after the restart').toHaveLength(32);
  const now = Date.now();
  const queue = [...accounts];
  const short: string[] = [];
  await Promise.all(
    Array.from({ length: 4 }, async () => {
      for (let a = queue.shift(); a; a = queue.shift()) {
        const deals = await historicalDeals(url, key, a.account_id);
        const months = new Set(deals.map((d) => new Date(d.datetime * 1000).toISOString().slice(0, 7)));
        const oldest = Math.min(...deals.map((d) => d.datetime * 1000));
        if (months.size < 12 || (a.is_master && now - oldest < 360 * DAY_MS)) {
          short.push(`${a.account_name}: ${deals.length} deals over ${months.size} months, oldest ${new Date(oldest).toISOString()}`);
        }
      }
    }),
  );
  expect(short, 'accounts whose history is shorter than 12 months').toEqual([]);
  expect(await readyStatus(url), 'GET /ready').toBe(200);
  const feed = await firstFeedMessage(url, key, { aggregate_by: 'account' });
  expect(feed.closed, 'the live feed closed instead of sending a snapshot').toBeUndefined();
  const msg = feed.first as { type?: string; positionsAggregate?: unknown[] };
  expect(msg.type).toBe('snapshot');
  expect(msg.positionsAggregate?.length ?? 0, 'open positions in the first snapshot').toBeGreaterThan(0);
}

const shuffle = <T>(xs: T[]): T[] => {
  const a = [...xs];
  for (let i = a.length - 1; i > 0; i--) {
    const j = Math.floor(Math.random() * (i + 1));
    [a[i], a[j]] = [a[j]!, a[i]!];
  }
  return a;
};

const round6 = (x: number) => Math.round(x * 1e6) / 1e6;

// ---- 1 and 2: per backend ------------------------------------------------------------------------

interface Write {
  kind: 'close' | 'tpsl';
  path: string;
  key: string;
  body: Record<string, unknown>;
  symbol: string;
  side: Side;
  sentAt: number;
  status?: number;
  answer?: unknown;
  error?: string;
  /** Positions the answer says it closed or changed (parsed from its message). */
  touched?: number;
}

const touchedBy = (answer: unknown): number | undefined => {
  const message = (answer as { message?: unknown } | null)?.message;
  if (typeof message !== 'string') return undefined;
  const m = /(\d+) positions?\b/.exec(message);
  return m ? Number(m[1]) : undefined;
};

describe.each(BACKENDS)('faults (%s)', (backend) => {
  it(
    '1. SIGKILL during a stream of writes: every answered write survives the restart, once',
    async () => {
      const store = await freshStore(backend, true);
      try {
        const env = { ...BASE_ENV, ...store.env };
        let t = performance.now();
        const first = await startServerProcess(env);
        log(`[${backend}] scenario 1: listening after ${secondsSince(t)}`);
        const url = first.url;
        const serverStart = Date.now();
        const key = await loginAdmin(url);
        const accounts = await accountsInfo(url, key);
        expect(accounts).toHaveLength(32);
        const idByName = new Map(accounts.map((a) => [a.account_name, a.account_id]));

        const preAt = Math.floor(Date.now() / 1000) - 1;
        const pre = await livePositions(url, key);
        const combos = new Map<string, LiveRow>();
        for (const r of pre) combos.set(`${r.u_symbol}|${r.type}`, r);
        const all = shuffle([...combos.values()]);
        expect(all.length, 'symbol/direction pairs open before the writes').toBeGreaterThanOrEqual(4);
        // About 60 % of the pairs are closed (each once, never two closes of one pair at a time); the
        // rest only get stops, so positions stay open throughout (a restart with none reseeds them).
        const closeQueue = all.slice(0, Math.ceil(all.length * 0.6));
        const stopsOnly = all.slice(closeQueue.length);
        const closing = [...closeQueue];

        const writes: Write[] = [];
        let inFlight = 0;
        let stopped = false;
        let n = 0;
        const worker = async () => {
          for (let i = 0; i < 500 && !stopped; i++) {
            const closeNext = closing.length > 0 && Math.random() < 0.5;
            const row = closeNext ? closing.shift()! : stopsOnly[n % stopsOnly.length] ?? all[n % all.length]!;
            n++;
            const base = {
              category: row.category,
              symbol: row.u_symbol,
              direction: row.type === 'Buy' ? 'long' : 'short',
              currency: row.currency,
            };
            // Stops far from the market (never hit), unique per request so each write can be traced.
            const far = (f: number) => round6(row.price_current * f + n * 1e-5);
            const w: Write = closeNext
              ? { kind: 'close', path: '/api/positions/close-by-symbol', body: base, key: '', symbol: row.u_symbol, side: row.type, sentAt: 0 }
              : {
                  kind: 'tpsl',
                  path: '/api/positions/set-tp-sl-by-symbol',
                  body: { ...base, take_profit: far(row.type === 'Buy' ? 1.5 : 0.5), stop_loss: far(row.type === 'Buy' ? 0.5 : 1.5) },
                  key: '',
                  symbol: row.u_symbol,
                  side: row.type,
                  sentAt: 0,
                };
            w.key = `faults-${randomBytes(8).toString('hex')}`;
            w.sentAt = Date.now();
            writes.push(w);
            inFlight++;
            try {
              const res = await call(url, 'POST', w.path, { key, body: w.body, headers: { 'idempotency-key': w.key }, timeoutMs: 15_000 });
              w.status = res.status;
              w.answer = res.body;
              w.touched = touchedBy(res.body);
            } catch (err) {
              w.error = err instanceof Error ? `${err.name}: ${err.message}` : String(err);
            } finally {
              inFlight--;
            }
          }
        };
        const answered = (kind: Write['kind']) => writes.filter((w) => w.kind === kind && w.status === 200).length;
        const workers = Promise.all(Array.from({ length: 4 }, worker));

        // Kill at a random moment once a few writes of each kind have been answered, with writes in flight.
        const fireStart = performance.now();
        while (performance.now() - fireStart < 20_000 && (answered('close') < 2 || answered('tpsl') < 2)) await sleep(5);
        await sleep(Math.random() * 400);
        for (let i = 0; i < 200 && inFlight === 0; i++) await sleep(5);
        const inFlightAtKill = inFlight;
        await crash(first.proc);
        stopped = true;
        await workers;
        const killedAfter = secondsSince(fireStart);

        const before = writes.filter((w) => w.status !== undefined);
        const closed = before.filter((w) => w.kind === 'close' && w.status === 200 && w.touched !== 0);
        const stops = before.filter((w) => w.kind === 'tpsl' && w.status === 200 && w.touched !== 0);
        log(
          `[${backend}] scenario 1: SIGKILL ${killedAfter} into the writes; ${writes.length} sent, ${before.length} answered ` +
            `(${closed.length} closes, ${stops.length} stop changes with 200), ${inFlightAtKill} in flight at the kill`,
        );
        expect(inFlightAtKill, 'writes in flight at the kill').toBeGreaterThan(0);
        expect(closed.length, 'closes answered 200 before the kill').toBeGreaterThanOrEqual(1);
        // A stream of valid writes is answered 200, or 404 once a pair has nothing left to close.
        const odd = before.filter((w) => w.status !== 200 && w.status !== 404);
        expect(odd.map((w) => `${w.kind} ${w.symbol} ${w.side}: ${w.status} ${JSON.stringify(w.answer)}`)).toEqual([]);

        // ---- restart on the same data
        t = performance.now();
        const second = await startServerProcess(env);
        log(`[${backend}] scenario 1: restart listening after ${secondsSince(t)}`);
        const url2 = second.url;
        const key2 = await loginAdmin(url2);
        expect(await accountsInfo(url2, key2)).toHaveLength(32);
        expect(await readyStatus(url2), 'GET /ready after the restart').toBe(200);

        // Through the API: the positions each answered close covered (the accounts holding that pair
        // before the writes) are gone, or were opened again after the close was sent...
        const post = await livePositions(url2, key2);
        const survivors: string[] = [];
        const toCheck = new Map<string, Set<string>>(); // account_id -> "symbol|side"
        for (const c of closed) {
          for (const p of pre.filter((r) => r.u_symbol === c.symbol && r.type === c.side)) {
            const now = post.find((r) => r.account_name === p.account_name && r.u_symbol === c.symbol && r.type === c.side);
            if (now && now.time < Math.floor(c.sentAt / 1000)) {
              survivors.push(`${p.account_name} ${c.symbol} ${c.side}: opened ${now.time}, close sent ${c.sentAt / 1000}`);
            }
            const id = idByName.get(p.account_name)!;
            toCheck.set(id, (toCheck.get(id) ?? new Set()).add(`${c.symbol}|${c.side}`));
          }
        }
        expect(survivors, 'positions still open after a close answered 200').toEqual([]);
        // ...and each of those accounts lists a closed deal of that pair since the writes began.
        const missing: string[] = [];
        for (const [accountId, pairs] of toCheck) {
          const deals = await historicalDeals(url2, key2, accountId, preAt);
          for (const pair of pairs) {
            const [symbol, side] = pair.split('|');
            if (!deals.some((d) => d.symbol === symbol && d.type === side && d.datetime >= preAt)) missing.push(`${accountId} ${pair}`);
          }
        }
        expect(missing, 'accounts without the deal of a close answered 200').toEqual([]);

        // The same request with the same Idempotency-Key is answered from the store, not run again.
        const again = await call(url2, 'POST', closed[0]!.path, {
          key: key2,
          body: closed[0]!.body,
          headers: { 'idempotency-key': closed[0]!.key },
        });
        expect(again.status).toBe(200);
        expect(again.headers.get('idempotent-replay')).toBe('true');
        expect(again.body).toEqual(closed[0]!.answer);

        const stop = await stopServer(second.proc);
        expect(stop.code, tail(second.proc)).toBe(0);

        // ---- the database itself
        await store.inspect(async (query) => {
          const audit = await query<{ id: number; action: string; detail: Record<string, unknown> }>(
            "SELECT id::int AS id, action, detail FROM audit_log WHERE action IN ('positions.close', 'positions.set-tp-sl') ORDER BY id",
          );
          const closeAudit = audit.filter((a) => a.action === 'positions.close');
          // Every close answered 200 committed (its audit row is written in the close's transaction).
          for (const pair of new Set(closed.map((c) => `${c.symbol}|${c.side}`))) {
            const [symbol, side] = pair.split('|');
            const direction = side === 'Buy' ? 'long' : 'short';
            const rows = closeAudit.filter((a) => a.detail.symbol === symbol && a.detail.direction === direction);
            const answers = closed.filter((c) => c.symbol === symbol && c.side === side);
            expect(rows.length, `committed closes of ${pair}`).toBeGreaterThanOrEqual(answers.length);
          }
          // No position a committed close covered is still open.
          const closedIds = closeAudit.flatMap((a) => (a.detail.positions as number[] | undefined) ?? []);
          const open = await query<{ id: number }>('SELECT id::int AS id FROM positions WHERE id = ANY($1::bigint[])', [closedIds]);
          expect(open.map((r) => r.id), 'positions of committed closes still open').toEqual([]);
          // Every stop change answered 200 committed, and the open positions carry the last committed values.
          const stopAudit = audit.filter((a) => a.action === 'positions.set-tp-sl');
          const lost = stops.filter(
            (s) => !stopAudit.some((a) => a.detail.take_profit === s.body.take_profit && a.detail.stop_loss === s.body.stop_loss),
          );
          expect(lost.map((s) => `${s.symbol} ${s.side} tp ${String(s.body.take_profit)}`), 'stop changes answered 200 but not stored').toEqual([]);
          const latest = new Map<number, { tp: number; sl: number }>();
          for (const a of stopAudit) {
            for (const id of (a.detail.positions as number[] | undefined) ?? []) {
              latest.set(Number(id), { tp: Number(a.detail.take_profit), sl: Number(a.detail.stop_loss) });
            }
          }
          const withStops = await query<{ id: number; tp: string | number | null; sl: string | number | null }>(
            'SELECT id::int AS id, tp, sl FROM positions WHERE id = ANY($1::bigint[])',
            [[...latest.keys()]],
          );
          const wrong = withStops.filter((p) => {
            const want = latest.get(p.id)!;
            return Math.abs(Number(p.tp) - want.tp) > 1e-9 || Math.abs(Number(p.sl) - want.sl) > 1e-9;
          });
          expect(wrong.map((p) => `${p.id}: tp ${p.tp} sl ${p.sl}, want ${JSON.stringify(latest.get(p.id))}`)).toEqual([]);
          // Every answered write's Idempotency-Key is stored with its answer.
          const answeredKeys = before.filter((w) => w.status === 200).map((w) => w.key);
          const keys = await query<{ key: string; status: number | null }>(
            'SELECT key, status FROM idempotency_keys WHERE key = ANY($1::text[])',
            [answeredKeys],
          );
          const done = new Set(keys.filter((k) => Number(k.status) === 200).map((k) => k.key));
          expect(answeredKeys.filter((k) => !done.has(k)), 'answered keys not stored as done').toEqual([]);
          // No deal written twice: one position closes into one trade deal. Deals carry no position
          // id, so a position is known by its account, pair, size, open price and open time.
          const dupes = await query<Record<string, unknown>>(
            `SELECT account_id, symbol, type, quantity, open_price, opened_at, count(*)::int AS n FROM deals
             WHERE kind = 'trade' AND datetime >= $1
             GROUP BY account_id, symbol, type, quantity, open_price, opened_at HAVING count(*) > 1`,
            [new Date(serverStart - 60_000)],
          );
          expect(dupes, 'trade deals written twice').toEqual([]);
        });
      } finally {
        await killAllServers();
        await store.dispose();
      }
    },
    180_000,
  );

  const killPoints: { label: string; afterMs?: number; afterLog?: RegExp }[] = [
    { label: 'about 1 s after spawning', afterMs: 1_000 },
    ...(backend === 'pglite' ? [{ label: 'about 3 s after spawning', afterMs: 3_000 }] : []),
    // The demo line is logged just before the history transaction starts.
    { label: 'while the history is being written', afterLog: /demo mode: sign in/, afterMs: 150 + Math.floor(Math.random() * 400) },
  ];
  it.each(killPoints)(
    '2. SIGKILL during the first start ($label), then a clean start serves the whole product',
    async ({ label, afterMs, afterLog }) => {
      const store = await freshStore(backend, false);
      try {
        const env = { ...BASE_ENV, ...store.env };
        const proc = spawnServer(env);
        const spawned = performance.now();
        if (afterLog) await waitForOutput(proc, afterLog, 60_000);
        await sleep(afterMs ?? 0);
        expect(proc.hasExited(), `the server ended before the kill\n${tail(proc)}`).toBe(false);
        await crash(proc);
        const out = proc.stdout();
        const phase = /listening on/.test(out)
          ? 'already listening'
          : /generated the simulated history/.test(out)
            ? 'after the history, before listening'
            : /demo mode/.test(out)
              ? 'while writing the history'
              : 'before the history (start-up, database, migrations)';
        log(`[${backend}] scenario 2 (${label}): killed ${secondsSince(spawned)} after spawning, ${phase}`);

        const t = performance.now();
        const next = spawnServer(env);
        const url = await waitListening(next, 120_000);
        log(`[${backend}] scenario 2 (${label}): clean start listening after ${secondsSince(t)}`);
        await assertComplete(url);
        const stop = await stopServer(next);
        expect(stop.code, tail(next)).toBe(0);
      } finally {
        await killAllServers();
        await store.dispose();
      }
    },
    120_000,
  );
});

// ---- 3: pid 1 of a PID namespace (PGlite: the lock is DATA_DIR's) ------------------------------

const unshareProbe = spawnSync('unshare', ['-fp', '--mount-proc', 'true'], { encoding: 'utf8', timeout: 10_000 });
const unshareWhyNot =
  unshareProbe.error !== undefined
    ? `unshare could not run: ${unshareProbe.error.message}`
    : unshareProbe.status !== 0
      ? `unshare -fp --mount-proc true exited with ${unshareProbe.status}: ${unshareProbe.stderr.trim()}`
      : undefined;
if (unshareWhyNot) console.warn(`[faults] scenario 3 skipped: ${unshareWhyNot}`);

describe('faults (pglite, PID namespace)', () => {
  it.skipIf(unshareWhyNot !== undefined)(
    '3. a crash as pid 1 of a PID namespace, then a clean start in a new one',
    async () => {
      const store = await freshStore('pglite', true);
      try {
        const env = { ...BASE_ENV, ...store.env };
        const pidOf = (proc: ServerProcess) => proc.logLines().find((l) => typeof l.pid === 'number')?.pid;

        let t = performance.now();
        const first = await startServerProcess(env, { pidNamespace: true });
        log(`scenario 3: pid-1 server listening after ${secondsSince(t)}`);
        expect(pidOf(first.proc), 'the server runs as pid 1 in its namespace').toBe(1);
        const key = await loginAdmin(first.url);
        expect(await accountsInfo(first.url, key)).toHaveLength(32);
        // unshare forks; its child is the namespace's pid 1 (node), seen from here by its host pid.
        const [nodePid] = childPids(first.proc.pid);
        expect(nodePid, 'host pid of the namespaced node process').toBeDefined();
        await crash(first.proc, nodePid);

        t = performance.now();
        const second = spawnServer(env, { pidNamespace: true });
        let url: string;
        try {
          url = await waitListening(second, 60_000);
        } catch (err) {
          throw new Error(`the second start in a new PID namespace did not listen: ${(err as Error).message}`, { cause: err });
        }
        log(`scenario 3: second pid-1 server listening after ${secondsSince(t)}`);
        expect(pidOf(second)).toBe(1);
        const key2 = await loginAdmin(url);
        expect(await accountsInfo(url, key2)).toHaveLength(32);
        const feed = await firstFeedMessage(url, key2, { aggregate_by: 'account' });
        expect(feed.closed).toBeUndefined();
        const [node2] = childPids(second.pid);
        if (node2) process.kill(node2, 'SIGTERM');
        await second.exited;
      } finally {
        await killAllServers();
        await store.dispose();
      }
    },
    120_000,
  );
});

// ---- 4: PostgreSQL out of reach for a few seconds ------------------------------------------------

/** A TCP proxy to PostgreSQL that the test can cut: refuse (nothing listens) or reset (accept, then drop). */
class PgProxy {
  private server: net.Server | undefined;
  private readonly sockets = new Set<net.Socket>();
  private mode: 'forward' | 'reset' = 'forward';
  port = 0;

  constructor(
    private readonly host: string,
    private readonly upstreamPort: number,
  ) {}

  async listen(port = 0): Promise<void> {
    const server = net.createServer((client) => {
      if (this.mode !== 'forward') {
        client.destroy();
        return;
      }
      const upstream = net.connect(this.upstreamPort, this.host);
      for (const s of [client, upstream]) {
        this.sockets.add(s);
        s.on('close', () => this.sockets.delete(s));
        s.on('error', () => undefined);
      }
      client.on('close', () => upstream.destroy());
      upstream.on('close', () => client.destroy());
      client.pipe(upstream);
      upstream.pipe(client);
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => resolve());
    });
    this.server = server;
    this.port = (server.address() as net.AddressInfo).port;
  }

  private dropAll(): void {
    for (const s of this.sockets) s.destroy();
    this.sockets.clear();
  }

  /** 'refuse': the port closes (ECONNREFUSED); 'reset': connections are accepted and dropped at once. */
  async cut(how: 'refuse' | 'reset'): Promise<void> {
    if (how === 'reset') {
      this.mode = 'reset';
      this.dropAll();
      return;
    }
    const server = this.server;
    this.server = undefined;
    this.dropAll();
    await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  }

  async restore(): Promise<void> {
    this.mode = 'forward';
    if (!this.server) await this.listen(this.port);
  }

  async close(): Promise<void> {
    await this.cut('refuse');
  }
}

describe('faults (postgres unreachable)', () => {
  it.skipIf(!PG_URL)(
    '4. PostgreSQL out of reach for ~4 s: 503 with a message while it is, 200 again by itself after',
    async () => {
      const upstream = new URL(PG_URL!);
      const proxy = new PgProxy(upstream.hostname, Number(upstream.port || 5432));
      await proxy.listen();
      const proxied = new URL(PG_URL!);
      proxied.hostname = '127.0.0.1';
      proxied.port = String(proxy.port);
      const store = postgresStore();
      try {
        const env = { ...BASE_ENV, ...store.env, DATABASE_URL: proxied.toString() };
        const t = performance.now();
        const { proc, url } = await startServerProcess(env);
        log(`scenario 4: listening through the proxy after ${secondsSince(t)}`);
        const key = await loginAdmin(url);
        expect(await accountsInfo(url, key)).toHaveLength(32);
        expect(await readyStatus(url), 'GET /ready before the cut').toBe(200);

        // A write that touches an open position (stops far from the market), to see writes come back too.
        const stopsOn = async (): Promise<Record<string, unknown>> => {
          const row = (await livePositions(url, key))[0]!;
          return {
            category: row.category,
            symbol: row.u_symbol,
            direction: row.type === 'Buy' ? 'long' : 'short',
            currency: row.currency,
            take_profit: round6(row.price_current * (row.type === 'Buy' ? 1.5 : 0.5)),
            stop_loss: round6(row.price_current * (row.type === 'Buy' ? 0.5 : 1.5)),
          };
        };
        let writeBody = await stopsOn();
        const write = () => call(url, 'POST', '/api/positions/set-tp-sl-by-symbol', { key, body: writeBody, timeoutMs: 10_000 });
        expect((await write()).status).toBe(200);

        for (const how of ['refuse', 'reset'] as const) {
          await proxy.cut(how);
          const cutAt = performance.now();
          const wrong: string[] = [];
          let rounds = 0;
          const describeAnswer = (what: string, res: { status: number; body: unknown; ms: number }) =>
            `${what}: ${res.status} after ${Math.round(res.ms)} ms ${JSON.stringify(res.body).slice(0, 200)}`;
          const expect503 = (what: string, res: { status: number; body: unknown; ms: number }) => {
            const message = (res.body as { message?: unknown } | null)?.message;
            const ok = res.status === 503 && typeof message === 'string' && message.length > 0 && /database|unavailab/i.test(message);
            if (!ok) wrong.push(describeAnswer(what, res));
          };
          const guard = async <T>(what: string, p: Promise<T>): Promise<T | undefined> => {
            try {
              return await p;
            } catch (err) {
              wrong.push(`${what}: no answer within 10 s (${(err as Error).name}: ${(err as Error).message})`);
              return undefined;
            }
          };
          while (performance.now() - cutAt < 4_000 && rounds < 40) {
            rounds++;
            const [info, ready, health, w] = await Promise.all([
              guard('GET /api/brokers/accounts/info', call(url, 'GET', '/api/brokers/accounts/info', { key, timeoutMs: 10_000 })),
              guard('GET /ready', call(url, 'GET', '/ready', { timeoutMs: 10_000 })),
              guard('GET /health', call(url, 'GET', '/health', { timeoutMs: 10_000 })),
              guard('POST set-tp-sl-by-symbol', write()),
            ]);
            if (info) expect503(`[${how}] GET /api/brokers/accounts/info`, info);
            if (w) expect503(`[${how}] POST /api/positions/set-tp-sl-by-symbol`, w);
            if (ready && ready.status !== 503) wrong.push(describeAnswer(`[${how}] GET /ready`, ready));
            if (health && health.status !== 200) wrong.push(describeAnswer(`[${how}] GET /health`, health));
            await sleep(300);
          }
          log(`scenario 4 [${how}]: ${rounds} rounds of calls during a ${secondsSince(cutAt)} cut`);
          await proxy.restore();
          const restoredAt = performance.now();

          // Back by itself: reads, /ready and writes answer 200 again within ~10 s, no restart.
          const until = async (what: string, attempt: () => Promise<{ ok: boolean; seen: string }>) => {
            let seen = 'no answer';
            while (performance.now() - restoredAt < 10_000) {
              try {
                const r = await attempt();
                if (r.ok) return;
                seen = r.seen;
              } catch (err) {
                seen = (err as Error).message;
              }
              await sleep(250);
            }
            wrong.push(`[${how}] ${what} did not answer 200 within 10 s of the database coming back; last: ${seen}`);
          };
          await until('GET /api/brokers/accounts/info', async () => {
            const res = await call(url, 'GET', '/api/brokers/accounts/info', { key, timeoutMs: 5_000 });
            return { ok: res.status === 200, seen: describeAnswer('answer', res) };
          });
          await until('GET /ready', async () => {
            const res = await call(url, 'GET', '/ready', { timeoutMs: 5_000 });
            return { ok: res.status === 200, seen: describeAnswer('answer', res) };
          });
          await until('POST /api/positions/set-tp-sl-by-symbol', async () => {
            writeBody = await stopsOn();
            const res = await write();
            return { ok: res.status === 200, seen: describeAnswer('answer', res) };
          });
          log(`scenario 4 [${how}]: back after ${secondsSince(restoredAt)}`);
          expect(wrong, `answers while PostgreSQL was cut (${how}) or after it came back\n${tail(proc, 8)}`).toEqual([]);
        }
        // The outage produced no rejection that nothing handled (the server would log one).
        expect(proc.stdout()).not.toContain('unhandled rejection');
        const stop = await stopServer(proc);
        expect(stop.code, tail(proc)).toBe(0);
      } finally {
        await killAllServers();
        await proxy.close();
        await store.dispose();
      }
    },
    150_000,
  );
});
