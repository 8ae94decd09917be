/**
 * What the EA suites share: the driver built once per suite (g++ against tests/ea/mql5.h or mql4.h), EA
 * runs as child processes over their own simulated terminal file, trades made in a running terminal (the
 * driver's `.ctl` file), waiting for what the server or the terminal shows, and the server's side: the
 * operator's registrations, the user who reads, and closing the suite.
 */
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { createHash, randomUUID } from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { insertAccount, insertBroker } from '#server/db/accounts-repo.ts';
import { grantAccount, insertAgent } from '#server/db/agents-repo.ts';
import { insertCommands } from '#server/db/commands-repo.ts';
import { setSymbol } from '#server/db/symbol-map-repo.ts';
import { hashPassword } from '#server/auth/password.ts';
import { hashToken, newToken } from '#server/auth/tokens.ts';
import type { Permission } from '#shared/domain/permissions.ts';
import { http, startServer, type TestServer } from '../integration/helpers/server.ts';

export const nowS = () => Math.floor(Date.now() / 1000);
/** The simulated brokers' clock: UTC + 2 h. */
export const OFFSET_MIN = 120;
/** The broker's clock `ago` seconds before now. */
export const brokerAgo = (ago: number) => nowS() - ago + OFFSET_MIN * 60;

export interface EaRun {
  child: ChildProcess;
  /** What the EA printed (its Experts log), line by line. */
  lines: string[];
  exited: Promise<number | null>;
  /** The terminal file it was started with (its `.ctl` beside it takes trades made by hand). */
  file: string;
  /** The terminal as the driver last wrote it. */
  out: string;
}

export async function waitFor<T>(what: string, probe: () => Promise<T | undefined | false> | T | undefined | false, ms = 30_000): Promise<T> {
  const until = Date.now() + ms;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** The compiler's flags: a warning is an error (an unsigned datetime compared with 0 is one). */
export const CXXFLAGS = ['-std=c++17', '-Wall', '-Wextra', '-Werror', '-Wno-unused-parameter', '-O0'];

/** Where built drivers are kept, by the hash of what they are built from: a suite reuses what another built. */
const DRIVERS = path.join(os.tmpdir(), 'copymonitor-ea-drivers');

/**
 * Compiles tests/ea/driver.cpp (and with it ea/CopyMonitor.mq5), or driver4.cpp (ea/CopyMonitor.mq4): the
 * driver's path. Built once for every suite (kept by the hash of the compiler, its flags and every file
 * that goes in; `dir` is the suite's, unused since). EA_MQ5=<file> or EA_MQ4=<file> builds another copy of
 * the EA instead: a mutant with one fix taken out, to see the test that should catch it fail (docs/ea.md,
 * 'What was verified').
 */
export async function buildDriver(dir: string, source: 'driver' | 'driver4' = 'driver'): Promise<string> {
  const other = process.env[source === 'driver' ? 'EA_MQ5' : 'EA_MQ4'];
  const ea = path.resolve(other ?? `ea/CopyMonitor.${source === 'driver' ? 'mq5' : 'mq4'}`);
  const args = [...CXXFLAGS, ...(other ? [`-DCM_EA="${ea}"`] : []), `tests/ea/${source}.cpp`];
  const hash = createHash('sha256');
  hash.update((await promisify(execFile)('g++', ['--version'])).stdout);
  hash.update(args.join('\n'));
  for (const file of ['tests/ea/mql5.h', 'tests/ea/mql4.h', 'tests/ea/driver-common.h', `tests/ea/${source}.cpp`, ea]) hash.update(fs.readFileSync(file));
  const driver = path.join(DRIVERS, `${source}-${hash.digest('hex').slice(0, 24)}`);
  try {
    const now = new Date();
    fs.utimesSync(driver, now, now); // used now: kept (below, what no suite used for a week goes)
    return driver;
  } catch {
    // not built yet
  }
  fs.mkdirSync(DRIVERS, { recursive: true });
  for (const name of fs.readdirSync(DRIVERS)) {
    // Drivers no suite has used for a week (their sources have changed since, most likely) go.
    const file = path.join(DRIVERS, name);
    const built = fs.statSync(file, { throwIfNoEntry: false });
    if (built && Date.now() - built.mtimeMs > 7 * 86_400_000) fs.rmSync(file, { force: true });
  }
  // Built beside it, then renamed: a suite never runs one half written (two suites may build it at once).
  const building = `${driver}.${process.pid}.${randomUUID()}`;
  try {
    await promisify(execFile)('g++', [...args.slice(0, -1), '-o', building, args.at(-1)!], { timeout: 170_000 });
    fs.renameSync(building, driver);
  } finally {
    fs.rmSync(building, { force: true });
  }
  return driver;
}

export interface EaOptions {
  /** The URL is in the terminal's WebRequest allow-list (default true). */
  allow?: boolean;
  /** The driver stops by itself after this many seconds. */
  maxSeconds?: number;
}

/**
 * One EA on its own simulated terminal: `lines` in the driver's format (tests/ea/driver.cpp), after the
 * inputs: a push every second and a settle delay of 1 s after the terminal connects (a line
 * `input.settle 3` among `lines` sets it back to the EA's default).
 */
export function startEa(driver: string, dir: string, name: string, inputs: { url: string; key: string }, lines: string[], options: EaOptions = {}): EaRun {
  const file = path.join(dir, `${name}.txt`);
  const out = path.join(dir, `${name}.out.txt`);
  const head = [`input.url ${inputs.url}`, `input.key ${inputs.key}`, 'input.push 1', 'input.settle 1', ...(options.allow === false ? [] : [`allow ${inputs.url}`])];
  fs.writeFileSync(file, [...head, ...lines].join('\n') + '\n');
  const child = spawn(driver, [file, out, String(options.maxSeconds ?? 90)], { stdio: ['ignore', 'pipe', 'pipe'] });
  const run: EaRun = { child, lines: [], file, out, exited: new Promise((r) => child.on('exit', (code) => r(code))) };
  let buffer = '';
  const take = (chunk: Buffer) => {
    buffer += chunk.toString();
    const parts = buffer.split('\n');
    buffer = parts.pop()!;
    run.lines.push(...parts);
  };
  child.stdout.on('data', take);
  child.stderr.on('data', take);
  return run;
}

export async function stopEa(run: EaRun): Promise<number | null> {
  if (run.child.exitCode === null) run.child.kill('SIGTERM');
  return run.exited;
}

/** Trades made in the running terminal (open/close/drop lines), or its inputs dialog (reinit): applied before the EA's next timer. */
export async function inTerminal(run: EaRun, lines: string[]): Promise<void> {
  const ctl = `${run.file}.ctl`;
  await waitFor('the previous trades to be taken', () => !fs.existsSync(ctl), 10_000);
  fs.writeFileSync(`${ctl}.tmp`, lines.join('\n') + '\n');
  fs.renameSync(`${ctl}.tmp`, ctl);
  await waitFor('the trades to be taken', () => !fs.existsSync(ctl), 10_000);
}

export interface TerminalPosition {
  identifier: number;
  symbol: string;
  type: 'buy' | 'sell';
  volume: number;
  price_open: number;
  sl: number;
  tp: number;
  comment: string;
}

/** The positions of the simulated terminal as the driver last wrote it. */
export function terminalPositions(run: EaRun): TerminalPosition[] {
  if (!fs.existsSync(run.out)) return [];
  return fs.readFileSync(run.out, 'utf8').split('\n').filter((l) => l.startsWith('position ')).map((l) => {
    const f = l.split(' ');
    return {
      identifier: Number(f[2]), symbol: f[3]!, type: f[4] as 'buy' | 'sell', volume: Number(f[5]), price_open: Number(f[6]),
      sl: Number(f[8]), tp: Number(f[9]), comment: f.slice(14).join(' ').trim(),
    };
  });
}

/** An agent-fed master account (npm run admin -- account add): what differs between the suites, the rest alike. */
export function insertMasterAccount(
  db: TestServer['app']['db'],
  account: { account_id: string; account: string; account_name: string; broker_id: number; server: string; server_name: string },
): Promise<number> {
  return insertAccount(db, {
    ...account, teiko_category: 'SMA', currency: 'EUR', is_master: true, master_id: null, copy_ratio: 1, leverage: 100, ping: 0, last_update: 0, source: 'agent',
  });
}

/**
 * The operator's side of a suite (npm run admin -- broker add, symbol map, account add, agent create):
 * the server, one broker whose EURUSD.m is EURUSD, and agent-fed accounts in EUR, each with its own key.
 */
export async function operatorServer(brokerName = 'Pepperstone') {
  const server = await startServer('pglite', { demo: false });
  const db = server.app.db;
  const brokerId = await insertBroker(db, { broker_name: brokerName, img_path: '', spread_pips: 0, latency_ms: 0, commission_per_lot: 0, rebate_per_lot: 0 });
  await setSymbol(db, brokerId, 'EURUSD.m', 'EURUSD');
  const one = async <T extends object>(sql: string, params: unknown[] = []) => (await db.query<T>(sql, params))[0]!;
  return {
    server,
    one,
    /** An account of this broker (its server name `server`), registered in EUR: its id. */
    account: (login: string, serverName: string) =>
      insertMasterAccount(db, { account_id: `${brokerName.toLowerCase()}-${login}`, account: login, account_name: `Real ${login}`, broker_id: brokerId, server: serverName, server_name: serverName }),
    /** A new agent `name` with `trade` rights on the account: its key and id. */
    agent: async (name: string, accountId: number) => {
      const key = newToken();
      const id = await insertAgent(db, name, hashToken(key));
      await grantAccount(db, id, accountId, 'trade');
      return { key, id };
    },
    /** The account's broker events (deals as stored), by ticket. */
    deals: (accountId: number) =>
      db.query<{ ticket: number; position_id: number | null; entry: string | null; volume: number | null }>(
        `SELECT ref::int AS ticket, position::int AS position_id, event->>'effect' AS entry, (event->>'quantity')::float AS volume
           FROM broker_events WHERE account_id = $1 ORDER BY ref`,
        [accountId],
      ),
    /** The account's open positions as stored, by identifier. */
    positions: (accountId: number) =>
      db.query<{ identifier: number; quantity: number; sl: number | null; tp: number | null; unconfirmed_since: Date | null }>(
        'SELECT identifier::int AS identifier, quantity::float AS quantity, sl::float AS sl, tp::float AS tp, unconfirmed_since FROM positions WHERE account_id = $1 ORDER BY identifier',
        [accountId],
      ),
    /** A command queued for the agent as the server queues it (src/server/broker/agent/agent-broker.ts): its id. */
    command: async (agentId: number, accountId: number, kind: 'open' | 'modify' | 'close', payload: Record<string, unknown>) => {
      const id = randomUUID();
      const now = Date.now();
      await insertCommands(db, [{ id, agentId, accountId, kind, payload: { ...payload, expires_at: now + 30_000 }, createdAt: new Date(now), expiresAt: new Date(now + 30_000) }]);
      // (a command the server already has, such as a second open of one master position, is not queued)
      return id;
    },
    /** A command once answered: its state, message and the identifier an open named. */
    answered: (id: string) =>
      waitFor(`the answer to ${id}`, async () => {
        const row = await one<{ state: string; message: string | null; identifier: number | null }>(
          'SELECT state, message, result_identifier::int AS identifier FROM commands WHERE id = $1',
          [id],
        );
        if (!row) throw new Error(`no command ${id}: the server keeps one open per master position`);
        return row.state !== 'sent' && row.state !== 'pending' ? row : undefined;
      }),
  };
}
export type OperatorServer = Awaited<ReturnType<typeof operatorServer>>;

/** The user `ops` (npm run admin -- user create), logged in: its API key. */
export async function loginOps(server: TestServer, permissions: Permission[], portfolioAuth: string[] = ['Consolidated Portfolio', 'SMA']): Promise<string> {
  await server.app.authStore.upsertUser({
    username: 'ops', password_hash: await hashPassword('ops-password-1'), status: 'active', permissions, portfolio_auth: portfolioAuth,
  });
  return (await http<{ data: { api_key: string } }>(server, 'POST', '/api/login', { body: { username: 'ops', password: 'ops-password-1' } })).body.data.api_key;
}

/**
 * A suite's end: with EA_LOG=1 (EA_LOG=1 npm run test:ea) what each EA wrote to the Experts log, no driver
 * left running, `also` (what else the suite runs), the server closed, the directory removed.
 */
export async function closeSuite(runs: EaRun[], server: TestServer | undefined, dir: string, also?: () => Promise<unknown>): Promise<void> {
  if (process.env.EA_LOG) for (const run of runs) process.stdout.write(`--- ${run.out}\n${run.lines.join('\n')}\n`);
  for (const run of runs) if (run.child.exitCode === null) run.child.kill('SIGKILL');
  await also?.();
  await server?.close();
  fs.rmSync(dir, { recursive: true, force: true });
}

/** A request the EA made, as it reached the server (through a Proxy). */
export interface SeenRequest {
  method: string;
  path: string;
  body: string;
}

/**
 * A TCP proxy in front of the server: `up`, `lose-answers` (the request reaches the server, its answer is
 * dropped), or stopped. It counts the connections the EA makes and keeps each request it passed on (the
 * EA makes one request a connection).
 */
export class Proxy {
  mode: 'up' | 'lose-answers' = 'up';
  connections = 0;
  port = 0;
  readonly requests: SeenRequest[] = [];
  private listener: net.Server | undefined;
  private readonly sockets = new Set<net.Socket>();

  constructor(private readonly target: number) {}

  get url(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  /** The JSON bodies of the batches the EA sent, in order. */
  batches(): Record<string, unknown>[] {
    return this.requests.filter((r) => r.method === 'POST' && r.path === '/api/ingest/v1/batches').map((r) => JSON.parse(r.body) as Record<string, unknown>);
  }

  async start(): Promise<void> {
    this.listener = net.createServer((client) => {
      this.connections++;
      const upstream = net.connect(this.target, '127.0.0.1');
      for (const s of [client, upstream]) {
        this.sockets.add(s);
        s.on('close', () => this.sockets.delete(s));
        s.on('error', () => undefined);
      }
      const chunks: Buffer[] = [];
      client.on('data', (chunk: Buffer) => chunks.push(chunk));
      client.on('close', () => {
        const raw = Buffer.concat(chunks);
        const end = raw.indexOf('\r\n\r\n');
        if (end < 0) return;
        const [method = '', target = ''] = raw.subarray(0, end).toString('latin1').split(' ');
        this.requests.push({ method, path: target, body: raw.subarray(end + 4).toString('utf8') });
      });
      client.pipe(upstream);
      if (this.mode === 'up') upstream.pipe(client);
      else upstream.on('data', () => undefined).on('end', () => client.destroy());
      client.on('close', () => upstream.destroy());
    });
    await new Promise<void>((resolve) => this.listener!.listen(this.port, '127.0.0.1', resolve));
    this.port = (this.listener.address() as net.AddressInfo).port;
  }

  async stop(): Promise<void> {
    const closed = new Promise<void>((resolve) => this.listener!.close(() => resolve()));
    for (const s of this.sockets) s.destroy();
    await closed;
  }
}
