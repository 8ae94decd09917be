import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { WebSocket } from 'ws';
import '@fastify/websocket';
import { decodeClientMessage, encodeServerMessage, LIVE_CLOSE, liveFeeds } from '#shared/contract/live.ts';
import type { AuthStore, SessionUser } from '#server/auth/auth-store.ts';
import { forbidden } from '#server/http/errors.ts';
import { portfolioParam } from '#server/http/portfolio-param.ts';
import type { LiveService, Refusal } from '#server/services/live-service.ts';

declare module 'fastify' {
  interface FastifyRequest {
    liveAuth?: { user: SessionUser } | { code: number; reason: string };
  }
}

/** The websocket close codes: the shared ones (src/shared/contract/live.ts), which the client reads too. */
export const WS_CLOSE = LIVE_CLOSE;

/**
 * What one socket may send: a ping now and then. A burst of PING_BURST messages (or protocol pings)
 * is allowed, refilled at PING_PER_SECOND; a client past it is closed. A client that sends but does
 * not read is cut off once its unread answers pass MAX_UNREAD_BYTES, so no socket can make the
 * server queue answers without bound.
 */
export const PING_BURST = 20;
export const PING_PER_SECOND = 2;
export const MAX_UNREAD_BYTES = 64 * 1024;
const CLOSE_GRACE_MS = 1000;
const MAX_IGNORED_AFTER_CLOSE = 1000;

interface Options {
  store: AuthStore;
  live: LiveService;
  /** Origins allowed to open a socket besides the server's own (a browser always sends Origin). */
  allowedOrigins: readonly string[];
}

/** A token bucket per socket. */
function messageBudget(now: () => number = Date.now): () => boolean {
  let tokens = PING_BURST;
  let at = now();
  return () => {
    const t = now();
    tokens = Math.min(PING_BURST, tokens + ((t - at) / 1000) * PING_PER_SECOND);
    at = t;
    if (tokens < 1) return false;
    tokens -= 1;
    return true;
  };
}

/** A text frame's text ('' when it cannot be read: not a message then). */
function frameText(data: Buffer | ArrayBuffer | Buffer[]): string {
  try {
    return Buffer.isBuffer(data) ? data.toString('utf8') : Buffer.concat(data as Buffer[]).toString('utf8');
  } catch {
    return '';
  }
}

/** The server's own origin as a browser on this host would send it. */
function ownOrigins(host: string | undefined): string[] {
  return host ? [`http://${host}`, `https://${host}`] : [];
}

export const liveRoutes: FastifyPluginAsyncZod<Options> = async (app, { store, live, allowedOrigins }) => {
  // Runs after the query string is validated (a malformed request never spends its ticket) and before
  // the upgrade. A foreign Origin is refused with a plain 403; a missing or bad ticket is told over the
  // socket, with a close code and a reason a browser can read.
  const authenticate = async (request: FastifyRequest) => {
    const origin = request.headers.origin;
    if (origin !== undefined && !ownOrigins(request.headers.host).includes(origin) && !allowedOrigins.includes(origin)) {
      throw forbidden(`Forbidden: websocket connections from the origin ${origin.slice(0, 100)} are not accepted.`);
    }
    // The query string passed its schema: token is one string or absent.
    const { token } = request.query as { token?: string };
    const user = token ? await store.redeemTicket(token) : undefined;
    request.liveAuth = user
      ? { user }
      : { code: WS_CLOSE.unauthorized, reason: token ? 'Unauthorized: invalid or expired ticket' : 'No authentication token found' };
  };

  const serve = (socket: WebSocket, request: { liveAuth?: { user: SessionUser } | Refusal }, open: (user: SessionUser) => Refusal | undefined) => {
    const withinBudget = messageBudget();
    // A client past its budget is told so (4429) and cut off if it does not close within a second or
    // keeps sending; one that does not read its answers is cut off at once. Nothing is queued for it.
    // Once closing, the close frame is on its way and the grace timer ends the socket: what the
    // client still sends is ignored, so its reason (4429, 4400) reaches it instead of a reset.
    const closeThenCut = (code: number, reason: string) => {
      if (socket.readyState !== socket.OPEN) return;
      socket.close(code, reason);
      setTimeout(() => socket.terminate(), CLOSE_GRACE_MS).unref();
    };
    const overBudget = () => closeThenCut(WS_CLOSE.tooMany, 'Too many messages');
    let ignored = 0;
    const cutOff = () => {
      if (socket.readyState !== socket.OPEN) {
        // A client that goes on flooding after being told to stop is cut off at once.
        if (++ignored > MAX_IGNORED_AFTER_CLOSE) socket.terminate();
        return true;
      }
      if (socket.bufferedAmount <= MAX_UNREAD_BYTES) return false;
      socket.terminate();
      return true;
    };
    // Protocol pings are answered by hand (autoPong is off), under the same budget.
    socket.on('ping', (payload) => {
      if (cutOff()) return;
      if (!withinBudget()) overBudget();
      else socket.pong(payload);
    });
    // Handlers first, before anything else can happen on the socket.
    socket.on('message', (data, isBinary) => {
      if (cutOff()) return;
      if (!withinBudget()) {
        overBudget();
        return;
      }
      const message = isBinary ? null : decodeClientMessage(frameText(data));
      if (message?.type === 'ping') socket.send(encodeServerMessage({ type: 'pong' }));
      else if (message?.type === 'resync') live.resync(socket);
      else closeThenCut(WS_CLOSE.badMessage, 'Bad message: only {"type":"ping"} or {"type":"resync"} is accepted');
    });
    socket.on('error', () => socket.terminate());
    const auth = request.liveAuth;
    if (!auth || 'code' in auth) {
      socket.close(auth?.code ?? WS_CLOSE.unauthorized, auth?.reason ?? 'Unauthorized');
      return;
    }
    const refused = open(auth.user);
    if (refused) socket.close(refused.code, refused.reason);
  };

  app.get(
    liveFeeds.aggregate.path,
    { websocket: true, schema: { querystring: liveFeeds.aggregate.query }, preHandler: authenticate },
    (socket, request) =>
      serve(socket, request, (user) => live.openAggregate(socket, user, portfolioParam(request.query.portfolio), request.query.updates === 'delta')),
  );

  app.get(
    liveFeeds.aggregateBy.path,
    { websocket: true, schema: { querystring: liveFeeds.aggregateBy.query }, preHandler: authenticate },
    (socket, request) =>
      serve(socket, request, (user) =>
        live.openAggregateBy(socket, user, { ...request.query, portfolio: portfolioParam(request.query.portfolio) }, request.query.updates === 'delta'),
      ),
  );
};
