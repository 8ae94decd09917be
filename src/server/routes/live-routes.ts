import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { WebSocket } from 'ws';
import '@fastify/websocket';
import { LiveAggregateByQuery, LiveAggregateQuery } from '#shared/contract/positions.ts';
import { DEFAULT_PORTFOLIO, normalisePortfolio, type Portfolio } from '#shared/domain/portfolios.ts';
import type { AuthStore, SessionUser } from '#server/auth/auth-store.ts';
import { authorisedPortfolios, inScope } from '#server/auth/scope.ts';
import type { LiveHub, Subscription } from '#server/live/live-hub.ts';
import type { SimulatedMarket } from '#server/market/simulated-market.ts';

declare module 'fastify' {
  interface FastifyRequest {
    liveAuth?: { user: SessionUser } | { code: number; reason: string };
  }
}

/** Websocket close codes: 4401 no or bad ticket, 4403 not authorised, 4404 unknown account or broker, 4400 bad message. */
export const WS_CLOSE = { unauthorized: 4401, forbidden: 4403, notFound: 4404, badMessage: 4400, unavailable: 4503 } as const;

interface Options {
  store: AuthStore;
  hub: LiveHub;
  market: SimulatedMarket | null;
}

function choosePortfolio(user: SessionUser, requested: string | undefined): Portfolio | { code: number; reason: string } {
  const allowed = authorisedPortfolios(user);
  if (requested === undefined) {
    const p = allowed.includes(DEFAULT_PORTFOLIO) ? DEFAULT_PORTFOLIO : allowed[0];
    return p ?? { code: WS_CLOSE.forbidden, reason: 'Forbidden: no authorised portfolio' };
  }
  const p = normalisePortfolio(requested);
  if (!p || !allowed.includes(p)) return { code: WS_CLOSE.forbidden, reason: `Forbidden: portfolio '${requested}'` };
  return p;
}

export const liveRoutes: FastifyPluginAsyncZod<Options> = async (app, { store, hub, market }) => {
  // The ticket is checked before the upgrade; the socket then closes with a code and a reason a browser can read.
  const authenticate = async (request: { query: { token?: string | undefined }; liveAuth?: unknown }) => {
    const token = request.query.token;
    const user = token ? await store.redeemTicket(token) : undefined;
    request.liveAuth = user
      ? { user }
      : { code: WS_CLOSE.unauthorized, reason: token ? 'Unauthorized: invalid or expired ticket' : 'No authentication token found' };
  };

  const serve = (socket: WebSocket, request: { liveAuth?: { user: SessionUser } | { code: number; reason: string } }, build: (user: SessionUser) => Subscription | { code: number; reason: string }) => {
    // Handlers first, before anything else can happen on the socket.
    socket.on('message', (data, isBinary) => {
      let ok = false;
      if (!isBinary) {
        try {
          const text = Buffer.isBuffer(data) ? data.toString('utf8') : Buffer.concat(data as Buffer[]).toString('utf8');
          const parsed = JSON.parse(text) as { type?: unknown };
          ok = parsed.type === 'ping';
        } catch {
          ok = false;
        }
      }
      if (ok) socket.send(JSON.stringify({ type: 'pong' }));
      else socket.close(WS_CLOSE.badMessage, 'Bad message: only {"type":"ping"} is accepted');
    });
    socket.on('error', () => socket.terminate());
    const auth = request.liveAuth;
    if (!auth || 'code' in auth) {
      socket.close(auth?.code ?? WS_CLOSE.unauthorized, auth?.reason ?? 'Unauthorized');
      return;
    }
    if (!market) {
      socket.close(WS_CLOSE.unavailable, 'The data bridge is not connected to any broker');
      return;
    }
    const sub = build(auth.user);
    if ('code' in sub) {
      socket.close(sub.code, sub.reason);
      return;
    }
    hub.add(socket, sub, market.snapshot());
  };

  app.get(
    '/ws/brokers/live-positions-aggregate',
    { websocket: true, schema: { querystring: LiveAggregateQuery }, preValidation: authenticate },
    (socket, request) =>
      serve(socket, request, (user) => {
        const portfolio = choosePortfolio(user, request.query.portfolio);
        return typeof portfolio === 'string' ? { portfolio, groupBy: 'symbol' } : portfolio;
      }),
  );

  app.get(
    '/ws/brokers/live-positions-aggregate-by',
    { websocket: true, schema: { querystring: LiveAggregateByQuery }, preValidation: authenticate },
    (socket, request) =>
      serve(socket, request, (user) => {
        const q = request.query;
        const portfolio = choosePortfolio(user, q.portfolio);
        if (typeof portfolio !== 'string') return portfolio;
        const snap = market!.snapshot();
        if (q.aggregate_by === 'account') {
          if (q.account === undefined) return { portfolio, groupBy: 'account' };
          const acct = [...snap.accounts.values()].find((a) => a.account_id === q.account || a.account === q.account);
          if (!acct) return { code: WS_CLOSE.notFound, reason: `Account not found: ${q.account}` };
          if (!inScope(acct.teiko_category, [portfolio])) return { code: WS_CLOSE.forbidden, reason: `Forbidden: account ${q.account}` };
          return { portfolio, groupBy: 'account', accountId: acct.id };
        }
        if (q.broker_name === undefined) return { portfolio, groupBy: 'broker' };
        const known = [...snap.accounts.values()].some((a) => a.broker.broker_name === q.broker_name);
        if (!known) return { code: WS_CLOSE.notFound, reason: `Broker not found: ${q.broker_name}` };
        // One broker's live trades are listed per account (its Acc and Ser columns).
        return { portfolio, groupBy: 'account', brokerName: q.broker_name };
      }),
  );
};
