/**
 * What the EA suites share: the driver built once per suite (g++ against tests/ea/mql5.h or mql4.h), EA
 * runs as child processes over their own simulated terminal file, trades made in a running terminal (the
 * driver's `.ctl` file), waiting for what the server or the terminal shows, and the server's side: the
 * operator's registrations, the user who reads, and closing the suite.
 */
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { insertAccount } from '#server/db/accounts-repo.ts';
import { hashPassword } from '#server/auth/password.ts';
import type { Permission } from '#shared/domain/permissions.ts';
import { http, type TestServer } from '../integration/helpers/server.ts';

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

/** Compiles tests/ea/driver.cpp (and with it ea/CopyMonitor.mq5), or driver4.cpp (ea/CopyMonitor.mq4), into `dir`. */
export async function buildDriver(dir: string, source: 'driver' | 'driver4' = 'driver'): Promise<string> {
  const driver = path.join(dir, source);
  await promisify(execFile)('g++', ['-std=c++17', '-Wall', '-Wextra', '-Wno-unused-parameter', '-O0', '-o', driver, `tests/ea/${source}.cpp`], { timeout: 170_000 });
  return driver;
}

/** One EA on its own simulated terminal: `lines` in the driver's format (tests/ea/driver.cpp), after the inputs. */
export function startEa(driver: string, dir: string, name: string, inputs: { url: string; key: string }, lines: string[], maxSeconds = 90): EaRun {
  const file = path.join(dir, `${name}.txt`);
  const out = path.join(dir, `${name}.out.txt`);
  const head = [`input.url ${inputs.url}`, `input.key ${inputs.key}`, 'input.push 1', `allow ${inputs.url}`];
  fs.writeFileSync(file, [...head, ...lines].join('\n') + '\n');
  const child = spawn(driver, [file, out, String(maxSeconds)], { stdio: ['ignore', 'pipe', 'pipe'] });
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

/** Trades made in the running terminal (open/close/drop lines): applied before the EA's next timer. */
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
