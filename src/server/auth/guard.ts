import type { FastifyReply, FastifyRequest, preValidationAsyncHookHandler } from 'fastify';
import fp from 'fastify-plugin';
import { API_KEY_HEADER } from '#shared/contract/common.ts';
import { AGENT_KEY_HEADER } from '#shared/contract/ingest.ts';
import type { Permission } from '#shared/domain/permissions.ts';
import { Forbidden, Unauthenticated } from '#server/errors.ts';
import type { AuthStore, SessionUser } from './auth-store.ts';

declare module 'fastify' {
  interface FastifyRequest {
    /** Set by the guard on every /api route that is not public. */
    sessionUser: SessionUser | null;
    /** Set by the guard on the agents' routes (the ingest API). */
    /** The terminal agent behind a request to an agents' route (its key checked). */
    agentCaller: { id: number; name: string } | null;
  }
  interface FastifyContextConfig {
    /** Reachable without a session (sign-in). */
    public?: boolean;
    /** Called by terminal agents with their key, not by users with a session. */
    agent?: boolean;
  }
}

const PERMISSION_LABEL: Record<Permission, string> = {
  write: 'write',
  read_rebate: 'read_rebate',
};

/** The signed-in caller; throws 401 on a route that forgot the guard. */
export function callerOf(request: FastifyRequest): SessionUser {
  if (!request.sessionUser) throw new Unauthenticated();
  return request.sessionUser;
}

export function assertPermission(user: SessionUser, permission: Permission): void {
  if (!user.permissions.includes(permission)) {
    throw new Forbidden(`Forbidden: this action needs the ${PERMISSION_LABEL[permission]} permission.`);
  }
}

export function assertPortfolio(user: SessionUser, portfolio: string): void {
  if (!user.portfolioAuth.includes(portfolio)) {
    throw new Forbidden(`Forbidden: you are not authorised for the portfolio '${portfolio}'.`);
  }
}

/**
 * The hook of routes that need a permission (docs/security.md): it runs before the body is
 * validated, so a caller without the permission gets 403 whatever they send and learns nothing of
 * the body's schema.
 */
export function requirePermission(permission: Permission): preValidationAsyncHookHandler {
  return async (request: FastifyRequest, _reply: FastifyReply) => {
    assertPermission(callerOf(request), permission);
  };
}

/**
 * Does this request need a session? Decided on the route the router chose (its pattern), never on
 * the raw URL: `/%61pi/…`, `//api/…` or `/api/…/` reach a route only as the router decodes them,
 * and the route they reach is what is protected. Every /api route needs a key unless it is
 * declared `config: { public: true }`; an unmatched URL reaches no data (404).
 */
export function needsSession(request: FastifyRequest): boolean {
  const pattern = request.routeOptions.url;
  if (pattern === undefined) return false;
  const config = request.routeOptions.config;
  return /^\/api(\/|$)/.test(pattern) && config?.public !== true && config?.agent !== true;
}

/** The agent behind a request to an agents' route; throws 401 on a route that forgot the guard. */
export function agentOf(request: FastifyRequest): { id: number; name: string } {
  if (!request.agentCaller) throw new Unauthenticated();
  return request.agentCaller;
}

/** One guard for every /api route: a valid x-api-key or 401. */
export const authGuard = fp<{ store: AuthStore; agents: (key: string) => Promise<{ id: number; name: string } | undefined> }>(
  async (app, { store, agents }) => {
    app.decorateRequest('sessionUser', null);
    app.decorateRequest('agentCaller', null);
    app.addHook('onRequest', async (request) => {
      if (request.routeOptions.config?.agent === true && request.routeOptions.url !== undefined) {
        const key = request.headers[AGENT_KEY_HEADER];
        if (typeof key !== 'string' || key.length === 0 || key.length > 200) {
          throw new Unauthenticated('Authentication required: send the agent key in the x-agent-key header.');
        }
        const agent = await agents(key);
        if (!agent) throw new Unauthenticated('This agent key is unknown or was revoked.');
        request.agentCaller = agent;
        return;
      }
      if (!needsSession(request)) return;
      const key = request.headers[API_KEY_HEADER];
      if (typeof key !== 'string' || key.length === 0 || key.length > 200) {
        throw new Unauthenticated('Authentication required: send your session key in the x-api-key header.');
      }
      const user = await store.authenticate(key);
      if (!user) throw new Unauthenticated('Your session is invalid or has expired. Please sign in again.');
      request.sessionUser = user;
    });
    // Account data must never sit in a shared cache (a proxy, a CDN): every API answer says so.
    app.addHook('onSend', async (request, reply) => {
      const pattern = request.routeOptions.url;
      const api = pattern === undefined ? /^\/api(\/|$|\?)/i.test(request.url) : /^\/api(\/|$)/.test(pattern);
      if (api && !reply.hasHeader('cache-control')) reply.header('cache-control', 'no-store');
    });
  },
  { name: 'auth-guard' },
);
