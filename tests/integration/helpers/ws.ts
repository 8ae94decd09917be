import WebSocket from 'ws';
import type { TestServer } from './server.ts';
import { http } from './server.ts';

export interface LiveClient {
  socket: WebSocket;
  messages: unknown[];
  /** Resolves with the next message after the ones already received. */
  next(timeoutMs?: number): Promise<unknown>;
  /**
   * Resolves with the first message from index `from` on (those already received included) that
   * passes `test`: what an action made after `from` messages shows, however its answer and the
   * socket's frames were ordered on the way.
   */
  until(test: (message: unknown) => boolean, from: number, timeoutMs?: number): Promise<unknown>;
  closed: Promise<{ code: number; reason: string }>;
}

export async function ticket(server: TestServer, key: string): Promise<string> {
  const res = await http<{ data: { ticket: string } }>(server, 'POST', '/api/ws-ticket', { key });
  if (res.status !== 200) throw new Error(`ticket: ${res.status}`);
  return res.body.data.ticket;
}

/** A real websocket client on a live feed. */
export function connect(server: TestServer, path: string, query: Record<string, string>): Promise<LiveClient> {
  const url = new URL(server.url.replace(/^http/, 'ws') + path);
  for (const [k, v] of Object.entries(query)) url.searchParams.set(k, v);
  const socket = new WebSocket(url);
  const messages: unknown[] = [];
  const waiters: ((m: unknown) => void)[] = [];
  socket.on('message', (data: Buffer) => {
    const m: unknown = JSON.parse(data.toString('utf8'));
    messages.push(m);
    waiters.shift()?.(m);
  });
  const closed = new Promise<{ code: number; reason: string }>((resolve) =>
    socket.on('close', (code, reason) => resolve({ code, reason: reason.toString('utf8') })),
  );
  const client: LiveClient = {
    socket,
    messages,
    closed,
    until(test, from, timeoutMs = 10_000) {
      const seen = messages.slice(from).find(test);
      if (seen !== undefined) return Promise.resolve(seen);
      return new Promise((resolve, reject) => {
        const onMessage = () => {
          const m = messages.at(-1);
          if (!test(m)) return;
          clearTimeout(timer);
          socket.off('message', onMessage);
          resolve(m);
        };
        const timer = setTimeout(() => {
          socket.off('message', onMessage);
          reject(new Error('no such message in time'));
        }, timeoutMs);
        socket.on('message', onMessage);
      });
    },
    next(timeoutMs = 5000) {
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error('no message in time')), timeoutMs);
        waiters.push((m) => {
          clearTimeout(timer);
          resolve(m);
        });
      });
    },
  };
  return new Promise((resolve, reject) => {
    socket.once('open', () => resolve(client));
    socket.once('error', reject);
  });
}
