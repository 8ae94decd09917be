// Where the embedded server's memory goes (issue 19): the server in a child process, idle after a
// first start (the database and the 12-month history made), idle after a restart on the same data,
// then with MEMORY_SOCKETS live feeds open. Run alone with `node --import tsx tests/bench/memory.ts`, or as
// part of `npm run bench`. Targets 127.0.0.1 only, bounded in time, stops what it starts.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { openFeeds } from './fanout.ts';
import { startProcess } from './spawn.ts';

const IDLE_S = Number(process.env.BENCH_IDLE_SECONDS ?? 30);
/** The issue's target: 10,000 sockets (taking deltas, as the app's screens do) within 600 MB. */
export const MEMORY_SOCKETS = Number(process.env.BENCH_SOCKETS ?? 10_000);
export const MEMORY_TARGET_MB = 600;
const MB = 1024 * 1024;
const WASM_PAGE = 64 * 1024;
/** PGlite's WASM module starts with 2,048 pages (128 MB) of memory. */
const WASM_MIN = 2048 * WASM_PAGE;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** One sample of a Prometheus text exposition (the first line of that name and labels). */
export function metric(text: string, name: string, labels = ''): number | undefined {
  const line = text.split('\n').find((l) => l.startsWith(`${name}${labels ? `{${labels}}` : ''} `));
  return line === undefined ? undefined : Number(line.slice(line.lastIndexOf(' ') + 1));
}

export async function signIn(url: string): Promise<Record<string, string>> {
  const res = await fetch(`${url}/api/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: 'admin', password: 'admin-demo' }),
  });
  return { 'x-api-key': ((await res.json()) as { data: { api_key: string } }).data.api_key };
}

export interface MemoryBreakdown {
  /** Resident set (VmRSS). */
  rss: number;
  /** The V8 heap the process holds (nodejs_heap_size_total_bytes). */
  jsHeap: number;
  /** PGlite's WASM linear memories (one, or two when the database was created in this process): their size and how much of it is resident. */
  wasmCount: number;
  wasmSize: number;
  wasmResident: number;
  /** Mapped files: the node binary and its libraries. */
  files: number;
  /** The rest: native allocations (V8's compiled WASM code, malloc arenas of its threads, buffers). */
  other: number;
}

/**
 * Reads /proc/<pid>/smaps: a WASM memory is an anonymous read-write mapping of at least 128 MB whose
 * size is a whole number of 64 kB pages (V8 commits a WASM memory as one mapping).
 */
export async function breakdown(pid: number, url: string): Promise<MemoryBreakdown> {
  const text = await (await fetch(`${url}/metrics`)).text();
  const smaps = fs.readFileSync(`/proc/${pid}/smaps`, 'utf8').split('\n');
  let files = 0;
  let wasmCount = 0;
  let wasmSize = 0;
  let wasmResident = 0;
  let current: { size: number; anonRw: boolean; file: boolean } | undefined;
  for (const line of smaps) {
    const head = /^([0-9a-f]+)-([0-9a-f]+) (\S+) \S+ \S+ \S+\s*(.*)$/.exec(line);
    if (head) {
      const size = parseInt(head[2]!, 16) - parseInt(head[1]!, 16);
      const name = head[4]!;
      current = { size, anonRw: head[3] === 'rw-p' && name === '', file: name.startsWith('/') };
      continue;
    }
    const rss = /^Rss:\s+(\d+) kB/.exec(line);
    if (!rss || !current) continue;
    const bytes = Number(rss[1]) * 1024;
    if (current.file) files += bytes;
    if (current.anonRw && current.size >= WASM_MIN && current.size % WASM_PAGE === 0) {
      wasmCount++;
      wasmSize += current.size;
      wasmResident += bytes;
    }
  }
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  const rss = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) * 1024;
  const jsHeap = metric(text, 'nodejs_heap_size_total_bytes') ?? 0;
  return { rss, jsHeap, wasmCount, wasmSize, wasmResident, files, other: rss - jsHeap - wasmResident - files };
}

const row = (label: string, b: MemoryBreakdown) => ({
  state: label,
  'RSS MB': Math.round(b.rss / MB),
  'JS heap': Math.round(b.jsHeap / MB),
  'WASM heap resident (of size)': `${Math.round(b.wasmResident / MB)} (${Math.round(b.wasmSize / MB)}${b.wasmCount > 1 ? `, ${b.wasmCount} heaps` : ''})`,
  'node binary, libs': Math.round(b.files / MB),
  'other native': Math.round(b.other / MB),
});

async function stop(child: { kill: (s: NodeJS.Signals) => boolean; once: (e: 'exit', f: () => void) => unknown; exitCode: number | null }): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await Promise.race([exited, sleep(15_000)]);
}

/** The idle server after a first start and after a restart, then with MEMORY_SOCKETS feeds; one row each. */
export async function benchMemory(): Promise<ReturnType<typeof row>[]> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-memory-'));
  const env = { PORT: '0', HOST: '127.0.0.1', DATA_DIR: dataDir, DEMO: '1', LOG_LEVEL: 'info', STATIC_DIR: '/nonexistent' };
  const rows: ReturnType<typeof row>[] = [];
  try {
    const first = await startProcess(['src/server/main.ts'], env);
    try {
      await sleep(IDLE_S * 1000);
      rows.push(row(`first start, idle ${IDLE_S} s`, await breakdown(first.child.pid!, first.url)));
    } finally {
      await stop(first.child);
    }
    const again = await startProcess(['src/server/main.ts'], env);
    try {
      await sleep(IDLE_S * 1000);
      rows.push(row(`restart, idle ${IDLE_S} s`, await breakdown(again.child.pid!, again.url)));
      const sockets = await openFeeds(again.url, await signIn(again.url), MEMORY_SOCKETS, () => {}, 'delta');
      await sleep(IDLE_S * 1000);
      rows.push(row(`restart, ${MEMORY_SOCKETS} sockets for ${IDLE_S} s (target ${MEMORY_TARGET_MB} MB)`, await breakdown(again.child.pid!, again.url)));
      for (const ws of sockets) ws.close();
    } finally {
      await stop(again.child);
    }
  } finally {
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
  return rows;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) console.table(await benchMemory());
