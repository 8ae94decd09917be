// Websocket fan-out (issue 29): N sockets on one portfolio, each with its own ticket, for a window of
// broadcasts. Per broadcast: from the first socket's arrival to the last's (this process reads the
// frames: it shares the 2 cores with the server), the server's own first → last write, and the
// server's resident memory with the sockets open. Targets 127.0.0.1 only, bounded, stops by itself.
import fs from 'node:fs';
import type { Socket } from 'node:net';
import WebSocket from 'ws';
import { metric } from './memory.ts';

export interface FanoutFigures {
  sockets: number;
  updates: 'delta' | 'snapshot';
  broadcasts: number;
  /** Client: first → last socket per broadcast, ms. */
  spread: { p50: number; p99: number; max: number };
  /** Client: the market's tick → the last socket, ms (the feed's computation and the writes). */
  lastArrival: { p50: number; p99: number };
  /** Server: first → last socket write per broadcast, ms (its /metrics). */
  serverSpread: { p50: number; p99: number };
  /** Bytes per socket per broadcast (the mean frame payload). */
  bytesPerMessage: number;
  /** Server RSS with the sockets open, and before they opened, MB. */
  rss: number;
  rssBefore: number;
}

export const pct = (values: number[], p: number): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
};

export const rssMb = (pid: number): number => {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024;
};

/** Runs `count` tasks at most `width` at a time. */
async function inBatches<T>(count: number, width: number, task: (i: number) => Promise<T>): Promise<T[]> {
  const out: T[] = [];
  for (let i = 0; i < count; i += width) {
    out.push(...(await Promise.all(Array.from({ length: Math.min(width, count - i) }, (_, j) => task(i + j)))));
  }
  return out;
}

/**
 * Opens `count` feeds on the Consolidated Portfolio; `onMessage` gets each frame's arrival time,
 * the broadcast's timestamp (read from the frame's first bytes: the client parses nothing else) and
 * its size.
 */
export async function openFeeds(
  url: string,
  headers: Record<string, string>,
  count: number,
  onMessage: (at: number, timestamp: number, bytes: number) => void,
  updates: 'delta' | 'snapshot' = 'snapshot',
): Promise<WebSocket[]> {
  const wsUrl = `${url.replace('http', 'ws')}/ws/brokers/live-positions-aggregate?portfolio=Consolidated%20Portfolio&updates=${updates}`;
  return inBatches(count, 100, async () => {
    const res = await fetch(`${url}/api/ws-ticket`, { method: 'POST', headers });
    const ticket = ((await res.json()) as { data: { ticket: string } }).data.ticket;
    return new Promise<WebSocket>((resolve, reject) => {
      const ws = new WebSocket(`${wsUrl}&token=${ticket}`, { perMessageDeflate: false, skipUTF8Validation: true });
      ws.once('open', () => {
        // Once open, this client reads the TCP stream itself: a frame's arrival time and its
        // timestamp from its first bytes, without ws's parsing, so that 10,000 sockets in this one
        // process spread the arrivals as little as they can (a server frame is unmasked: a 2- or
        // 4-byte header, then the JSON text; one message a second never shares a read here).
        const tcp = (ws as unknown as { _socket: Socket })._socket;
        tcp.removeAllListeners('data');
        tcp.on('data', (chunk: Buffer) => {
          const at = performance.timeOrigin + performance.now();
          const ts = /"timestamp":(\d+)/.exec(chunk.toString('latin1', 0, 64))?.[1];
          if (ts !== undefined) onMessage(at, Number(ts), chunk.length);
        });
        resolve(ws);
      });
      ws.once('error', reject);
    });
  });
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** `count` sockets for `seconds`: the figures of the broadcasts every socket received. */
export async function benchFanout(
  server: { url: string; pid: number },
  headers: Record<string, string>,
  count: number,
  seconds: number,
  updates: 'delta' | 'snapshot' = 'delta',
): Promise<FanoutFigures> {
  const rssBefore = rssMb(server.pid);
  const receipts = new Map<number, { first: number; last: number; n: number; bytes: number }>();
  const sockets = await openFeeds(server.url, headers, count, (at, ts, bytes) => {
    const r = receipts.get(ts);
    if (!r) receipts.set(ts, { first: at, last: at, n: 1, bytes });
    else {
      if (at < r.first) r.first = at;
      if (at > r.last) r.last = at;
      r.n++;
      r.bytes += bytes;
    }
  }, updates);
  // Settle: the sockets' first snapshots (whole rows) go by, then a fresh window on the server's figures.
  await sleep(2500);
  receipts.clear();
  await fetch(`${server.url}/metrics`);
  await sleep(seconds * 1000 + 1200);
  const metrics = await (await fetch(`${server.url}/metrics`)).text();
  const rss = rssMb(server.pid);
  for (const ws of sockets) ws.terminate();
  await sleep(1000);
  const complete = [...receipts].filter(([, r]) => r.n === count);
  const ms = (labels: string) => Number(((metric(metrics, 'ws_fanout_spread_seconds', labels) ?? NaN) * 1000).toFixed(1));
  const spreads = complete.map(([, r]) => r.last - r.first);
  const lasts = complete.map(([ts, r]) => r.last - ts);
  const round = (v: number) => Number(v.toFixed(1));
  return {
    sockets: count,
    updates,
    broadcasts: complete.length,
    spread: { p50: round(pct(spreads, 50)), p99: round(pct(spreads, 99)), max: round(Math.max(0, ...spreads)) },
    lastArrival: { p50: round(pct(lasts, 50)), p99: round(pct(lasts, 99)) },
    serverSpread: { p50: ms('quantile="0.5"'), p99: ms('quantile="0.99"') },
    bytesPerMessage: complete.length ? Math.round(complete.reduce((s, [, r]) => s + r.bytes / r.n, 0) / complete.length) : 0,
    rss: Math.round(rss),
    rssBefore: Math.round(rssBefore),
  };
}
