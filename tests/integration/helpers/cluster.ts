import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';

/** Several real server processes on one PostgreSQL schema and one Redis, as `npm start` runs them. */
export const CLUSTER_DB = process.env.TEST_DATABASE_URL;
export const CLUSTER_REDIS = process.env.TEST_REDIS_URL;

export interface Instance {
  child: ChildProcess;
  port: number;
  url: string;
  /** What it printed (pino JSON lines). */
  log: () => string;
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
  });
}

/** Starts `src/server/main.ts` on `port`; resolves once it listens. */
export function startInstance(env: Record<string, string>, port: number, timeoutMs = 120_000): Promise<Instance> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/server/main.ts'], {
      env: { ...process.env, HOST: '127.0.0.1', PORT: String(port), STATIC_DIR: '/nonexistent', LOG_LEVEL: 'info', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    const collect = (chunk: Buffer) => {
      out += chunk.toString();
      if (out.length > 2_000_000) out = out.slice(-1_000_000);
    };
    child.stdout.on('data', collect);
    child.stderr.on('data', collect);
    const timer = setTimeout(() => reject(new Error(`the instance on ${port} did not start:\n${out.slice(-3000)}`)), timeoutMs);
    const url = `http://127.0.0.1:${port}`;
    const poll = setInterval(() => {
      if (out.includes(`listening on ${url}`)) {
        clearInterval(poll);
        clearTimeout(timer);
        resolve({ child, port, url, log: () => out });
      }
    }, 50);
    child.once('exit', (code) => {
      clearInterval(poll);
      clearTimeout(timer);
      reject(new Error(`the instance on ${port} exited (${code}):\n${out.slice(-3000)}`));
    });
  });
}

export async function stopInstance(instance: Instance, signal: NodeJS.Signals = 'SIGTERM'): Promise<void> {
  if (instance.child.exitCode !== null || instance.child.signalCode !== null) return;
  const exited = new Promise((resolve) => instance.child.once('exit', resolve));
  instance.child.kill(signal);
  await exited;
}

/** A fresh schema on the test database, and its removal. */
export async function freshSchema(prefix: string): Promise<{ schema: string; drop: () => Promise<void> }> {
  const schema = `${prefix}_${process.pid}_${Date.now().toString(36)}`;
  return {
    schema,
    drop: async () => {
      const client = new pg.Client({ connectionString: CLUSTER_DB });
      await client.connect();
      try {
        await client.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
      } finally {
        await client.end();
      }
    },
  };
}

export async function sql<T>(schema: string, text: string, params: unknown[] = []): Promise<T[]> {
  const client = new pg.Client({ connectionString: CLUSTER_DB, options: `-c search_path=${schema}` });
  await client.connect();
  try {
    return (await client.query(text, params)).rows as T[];
  } finally {
    await client.end();
  }
}

export interface Balancer {
  child: ChildProcess;
  url: string;
  stop: () => Promise<void>;
}

/**
 * The checked-in HAProxy configuration (deploy/haproxy.cfg) in front of these ports: its listener
 * and server lines rewritten for the test, everything else (health checks, timeouts) as shipped.
 */
export async function startBalancer(ports: number[], options: { backup?: boolean } = {}): Promise<Balancer> {
  const shipped = fs.readFileSync(path.resolve('deploy/haproxy.cfg'), 'utf8');
  const port = await freePort();
  const servers = ports
    .map((p, i) => `    server app${i + 1} 127.0.0.1:${p} check${options.backup && i > 0 ? ' backup' : ''}`)
    .join('\n');
  const cfg = shipped
    .replace(/^\s*bind .*$/m, `    bind 127.0.0.1:${port}`)
    .replace(/(^\s*server app\d+ .*\n?)+/m, `${servers}\n`);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'haproxy-'));
  const file = path.join(dir, 'haproxy.cfg');
  fs.writeFileSync(file, cfg);
  const child = spawn('haproxy', ['-f', file, '-db'], { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout.on('data', (c: Buffer) => (out += c.toString()));
  child.stderr.on('data', (c: Buffer) => (out += c.toString()));
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 15_000;
  for (;;) {
    const ok = await fetch(`${url}/ready`).then((r) => r.status === 200, () => false);
    if (ok) break;
    if (child.exitCode !== null || Date.now() > deadline) throw new Error(`haproxy did not start:\n${out}`);
    await new Promise((r) => setTimeout(r, 200));
  }
  return {
    child,
    url,
    stop: async () => {
      if (child.exitCode === null) {
        const exited = new Promise((r) => child.once('exit', r));
        child.kill('SIGTERM');
        await exited;
      }
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

export const hasHaproxy = (): boolean => {
  try {
    return fs.existsSync('/usr/sbin/haproxy') || fs.existsSync('/usr/bin/haproxy');
  } catch {
    return false;
  }
};
