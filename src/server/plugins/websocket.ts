import type { Socket } from 'node:net';
import fp from 'fastify-plugin';
import websocket from '@fastify/websocket';

export interface WebsocketOptions {
  /** The largest message a client may send, in bytes. */
  maxPayload: number;
  /** How long an upgrade may take to become a websocket before its socket is destroyed. */
  upgradeTimeoutMs: number;
}

/**
 * Websockets, with no pong sent by ws itself: pings are answered by the live routes under a
 * per-socket budget, not queued by ws without bound. Register it before the auth guard: the guard's
 * onRequest hook marks upgrade requests, so one the guard refuses (401) has its socket closed after
 * the answer instead of left open.
 */
export const websocketPlugin = fp<WebsocketOptions>(
  async (app, { maxPayload, upgradeTimeoutMs }) => {
    await app.register(websocket, { options: { maxPayload, autoPong: false } });
    // An upgrade that never becomes a websocket (a URL the router refuses, a route that answers over
    // HTTP) must not keep its socket: ws clears this timeout when a handshake completes, and closing
    // the server ends whatever is left.
    const upgrading = new Set<Socket>();
    app.server.on('upgrade', (_req: unknown, socket: Socket) => {
      upgrading.add(socket);
      socket.setTimeout(upgradeTimeoutMs, () => socket.destroy());
      socket.once('close', () => upgrading.delete(socket));
    });
    app.addHook('onClose', async () => {
      for (const socket of upgrading) socket.destroy();
    });
  },
  { name: 'websocket-setup' },
);
