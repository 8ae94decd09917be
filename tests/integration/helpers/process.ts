import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import WebSocket from 'ws';

/** The repository root: servers are started from here, as `npm start` would. */
export const REPO_ROOT = fileURLToPath(new URL('../../../', import.meta.url));

const LISTENING = /Copy-trading monitor listening on (http:\/\/[^\s"]+)/;

/** Variables of the caller's environment that would point a child server elsewhere than the test says. */
const SERVER_VARS = [
  'PORT',
  'HOST',
  'DATA_DIR',
  'DATABASE_URL',
  'DATABASE_SCHEMA',
  'REDIS_URL',
  'DEMO',
  'MARKET_SEED',
  'LOG_LEVEL',
  'STATIC_DIR',
  'LOGIN_ATTEMPTS_PER_ADDRESS',
  'ALLOWED_ORIGINS',
];

export interface ServerProcess {
  /** The process spawned (node, or unshare when run in a PID namespace). */
  child: ChildProcess;
  /** Pid of the spawned process (also its process group: it is spawned detached). */
  pid: number;
  /** Everything the server wrote so far. */
  stdout(): string;
  stderr(): string;
  /** Resolves once the process has exited. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  hasExited(): boolean;
  /** Pino lines parsed so far (non-JSON lines skipped). */
  logLines(): Record<string, unknown>[];
}

const live = new Set<ServerProcess>();

/** SIGKILL to a whole process group; quiet when it is gone already. */
function killGroup(pid: number): void {
  try {
    process.kill(-pid, 'SIGKILL');
  } catch {
    /* gone */
  }
  try {
    process.kill(pid, 'SIGKILL');
  } catch {
    /* gone */
  }
}

// A test runner that dies (or is interrupted) must not leave servers behind.
process.once('exit', () => {
  for (const p of live) killGroup(p.pid);
});

export interface SpawnOptions {
  /** Run as pid 1 of a new PID namespace (`unshare -fp --mount-proc`). */
  pidNamespace?: boolean;
}

/**
 * Spawns the real server (`node --import tsx src/server/main.ts`) with the given variables on top
 * of a clean environment (none of the caller's server variables leak in). Returns at once.
 */
export function spawnServer(env: Record<string, string>, options: SpawnOptions = {}): ServerProcess {
  const base: Record<string, string | undefined> = { ...process.env };
  for (const name of SERVER_VARS) delete base[name];
  const nodeArgs = ['--import', 'tsx', 'src/server/main.ts'];
  const [command, args] = options.pidNamespace
    ? ['unshare', ['-fp', '--mount-proc', process.execPath, ...nodeArgs]]
    : [process.execPath, nodeArgs];
  const child = spawn(command, args, {
    cwd: REPO_ROOT,
    env: { ...base, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  if (child.pid === undefined) throw new Error(`could not spawn ${command}`);
  let out = '';
  let err = '';
  let done = false;
  child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString('utf8')));
  child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString('utf8')));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => {
    child.once('exit', (code, signal) => {
      done = true;
      resolve({ code, signal });
    });
  });
  const proc: ServerProcess = {
    child,
    pid: child.pid,
    stdout: () => out,
    stderr: () => err,
    exited,
    hasExited: () => done,
    logLines: () =>
      out.split('\n').flatMap((line) => {
        if (!line.startsWith('{')) return [];
        try {
          return [JSON.parse(line) as Record<string, unknown>];
        } catch {
          return [];
        }
      }),
  };
  live.add(proc);
  void exited.then(() => live.delete(proc));
  return proc;
}

/** The last lines of a server's output, for failure messages. */
export function tail(proc: ServerProcess, lines = 15): string {
  const pick = (s: string) => s.trim().split('\n').slice(-lines).map((l) => l.slice(0, 400)).join('\n');
  return `--- stdout ---\n${pick(proc.stdout())}\n--- stderr ---\n${pick(proc.stderr())}`;
}

/** Resolves when `test` matches the output; rejects if the process exits first or time runs out. */
export function waitForOutput(proc: ServerProcess, test: RegExp, timeoutMs: number): Promise<RegExpExecArray> {
  return new Promise((resolve, reject) => {
    const check = (): boolean => {
      const m = test.exec(proc.stdout());
      if (m) {
        finish();
        resolve(m);
        return true;
      }
      return false;
    };
    const onData = () => void check();
    const onExit = () =>
      setImmediate(() => {
        if (check()) return;
        finish();
        reject(new Error(`the server exited before printing ${String(test)}\n${tail(proc)}`));
      });
    const timer = setTimeout(() => {
      finish();
      reject(new Error(`no ${String(test)} within ${timeoutMs} ms\n${tail(proc)}`));
    }, timeoutMs);
    const finish = () => {
      clearTimeout(timer);
      proc.child.stdout!.off('data', onData);
      proc.child.off('exit', onExit);
    };
    if (check()) return;
    proc.child.stdout!.on('data', onData);
    proc.child.once('exit', onExit);
  });
}

/** The URL the server listens on, once it says so. */
export async function waitListening(proc: ServerProcess, timeoutMs = 120_000): Promise<string> {
  const m = await waitForOutput(proc, LISTENING, timeoutMs);
  return m[1]!;
}

/** spawnServer and waitListening: the base URL. */
export async function startServerProcess(
  env: Record<string, string>,
  options: SpawnOptions & { timeoutMs?: number } = {},
): Promise<{ proc: ServerProcess; url: string }> {
  const proc = spawnServer(env, options);
  try {
    return { proc, url: await waitListening(proc, options.timeoutMs) };
  } catch (err) {
    await killServer(proc);
    throw err;
  }
}

/** SIGKILL to one pid (the crash under test), then waits for the spawned process to end. */
export async function crash(proc: ServerProcess, pid = proc.pid, timeoutMs = 10_000): Promise<void> {
  try {
    process.kill(pid, 'SIGKILL');
  } catch {
    /* gone already */
  }
  await withTimeout(proc.exited, timeoutMs, `process ${proc.pid} still running ${timeoutMs} ms after SIGKILL to ${pid}`);
}

/** A clean stop (SIGTERM, as an orchestrator would), SIGKILL to its group after `graceMs`. */
export async function stopServer(proc: ServerProcess, graceMs = 15_000): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
  if (!proc.hasExited()) {
    try {
      process.kill(proc.pid, 'SIGTERM');
    } catch {
      /* gone */
    }
  }
  const timer = setTimeout(() => killGroup(proc.pid), graceMs);
  try {
    return await proc.exited;
  } finally {
    clearTimeout(timer);
  }
}

/** SIGKILL to the process and everything in its group (cleanup), and waits for it. */
export async function killServer(proc: ServerProcess): Promise<void> {
  killGroup(proc.pid);
  await withTimeout(proc.exited, 10_000, `process ${proc.pid} survived SIGKILL`).catch(() => undefined);
}

/** Kills every server still running (afterEach / afterAll). */
export async function killAllServers(): Promise<void> {
  await Promise.all([...live].map((p) => killServer(p)));
}

/** Direct children of a pid (`pgrep -P`, or /proc when pgrep is missing). */
export function childPids(pid: number): number[] {
  try {
    return execFileSync('pgrep', ['-P', String(pid)], { encoding: 'utf8' })
      .split('\n')
      .filter(Boolean)
      .map(Number);
  } catch {
    try {
      return fs
        .readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8')
        .split(/\s+/)
        .filter(Boolean)
        .map(Number);
    } catch {
      return [];
    }
  }
}

export function withTimeout<T>(promise: Promise<T>, ms: number, message: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([
    promise,
    new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(message)), ms);
    }),
  ]).finally(() => clearTimeout(timer));
}

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

// ---- HTTP and websocket against a server process -------------------------------------------------

export interface Answer<T = Record<string, unknown>> {
  status: number;
  body: T;
  headers: Headers;
  ms: number;
}

/** One HTTP call; never waits longer than `timeoutMs` (an AbortSignal), and says how long it took. */
export async function call<T = Record<string, unknown>>(
  base: string,
  method: string,
  path: string,
  options: { body?: unknown; key?: string; headers?: Record<string, string>; timeoutMs?: number } = {},
): Promise<Answer<T>> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.key) headers['x-api-key'] = options.key;
  let body: string | undefined;
  if (options.body !== undefined) {
    body = JSON.stringify(options.body);
    headers['content-type'] = 'application/json';
  }
  const started = performance.now();
  const res = await fetch(base + path, { method, headers, body, signal: AbortSignal.timeout(options.timeoutMs ?? 20_000) });
  const text = await res.text();
  let parsed: unknown = text;
  try {
    parsed = JSON.parse(text);
  } catch {
    /* not JSON */
  }
  return { status: res.status, body: parsed as T, headers: res.headers, ms: performance.now() - started };
}

export const ADMIN = { username: 'admin', password: 'admin-demo' } as const;

/** Signs in as the demo admin: its session key. */
export async function loginAdmin(base: string): Promise<string> {
  const res = await call<{ data?: { api_key?: string } }>(base, 'POST', '/api/login', { body: ADMIN });
  const key = res.body.data?.api_key;
  if (res.status !== 200 || !key) throw new Error(`admin sign-in failed: ${res.status} ${JSON.stringify(res.body)}`);
  return key;
}

export interface FeedResult {
  /** The first message, when one came. */
  first?: unknown;
  /** The close, when the server closed the socket before sending anything. */
  closed?: { code: number; reason: string };
}

/**
 * Opens a live feed (a fresh ticket from POST /api/ws-ticket) and waits for its first message or
 * its close; the socket is closed before returning.
 */
export async function firstFeedMessage(
  base: string,
  key: string,
  query: Record<string, string>,
  timeoutMs = 10_000,
  path = '/ws/brokers/live-positions-aggregate-by',
): Promise<FeedResult> {
  const t = await call<{ data?: { ticket?: string } }>(base, 'POST', '/api/ws-ticket', { key });
  const ticket = t.body.data?.ticket;
  if (t.status !== 200 || !ticket) throw new Error(`ws-ticket: ${t.status} ${JSON.stringify(t.body)}`);
  const url = new URL(base.replace(/^http/, 'ws') + path);
  for (const [k, v] of Object.entries(query)) url.searchParams.set(k, v);
  url.searchParams.set('token', ticket);
  const socket = new WebSocket(url);
  try {
    return await new Promise<FeedResult>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no message nor close on ${path} within ${timeoutMs} ms`)), timeoutMs);
      socket.once('message', (data: Buffer) => {
        clearTimeout(timer);
        try {
          resolve({ first: JSON.parse(data.toString('utf8')) as unknown });
        } catch (err) {
          reject(err instanceof Error ? err : new Error(String(err)));
        }
      });
      socket.once('close', (code, reason) => {
        clearTimeout(timer);
        resolve({ closed: { code, reason: reason.toString('utf8') } });
      });
      socket.once('error', (err) => {
        clearTimeout(timer);
        reject(err);
      });
    });
  } finally {
    socket.terminate();
  }
}
