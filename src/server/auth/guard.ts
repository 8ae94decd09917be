import type { FastifyReply, FastifyRequest, preHandlerAsyncHookHandler } from 'fastify';
import fp from 'fastify-plugin';
import { API_KEY_HEADER } from '#shared/contract/common.ts';
import type { Permission } from '#shared/domain/permissions.ts';
import { forbidden, unauthorized } from '#server/http/errors.ts';
import type { AuthStore, SessionUser } from './auth-store.ts';

declare module 'fastify' {
  interface FastifyRequest {
    /** Set by the guard on every /api route that is not public. */
    sessionUser: SessionUser | null;
  }
  interface FastifyContextConfig {
    /** Reachable without a session (sign-in). */
    public?: boolean;
  }
}

const PERMISSION_LABEL: Record<Permission, string> = {
  write: 'write',
  read_rebate: 'read_rebate',
};

/** The signed-in caller; throws 401 on a route that forgot the guard. */
export function callerOf(request: FastifyRequest): SessionUser {
  if (!request.sessionUser) throw unauthorized();
  return request.sessionUser;
}

export function assertPermission(user: SessionUser, permission: Permission): void {
  if (!user.permissions.includes(permission)) {
    throw forbidden(`Forbidden: this action needs the ${PERMISSION_LABEL[permission]} permission.`);
  }
}

export function assertPortfolio(user: SessionUser, portfolio: string): void {
  if (!user.portfolioAuth.includes(portfolio)) {
    throw forbidden(`Forbidden: you are not authorised for the portfolio '${portfolio}'.`);
  }
}

/** preHandler for routes that need a permission (SPEC §6). */
export function requirePermission(permission: Permission): preHandlerAsyncHookHandler {
  return async (request: FastifyRequest, _reply: FastifyReply) => {
    assertPermission(callerOf(request), permission);
  };
}

/** One guard for everything under /api: a valid x-api-key or 401. */
export const authGuard = fp<{ store: AuthStore }>(
  async (app, { store }) => {
    app.decorateRequest('sessionUser', null);
    app.addHook('onRequest', async (request) => {
      if (!request.url.startsWith('/api/') || request.routeOptions.config?.public) return;
      const key = request.headers[API_KEY_HEADER];
      if (typeof key !== 'string' || key.length === 0 || key.length > 200) {
        throw unauthorized('Authentication required: send your session key in the x-api-key header.');
      }
      const user = await store.authenticate(key);
      if (!user) throw unauthorized('Your session is invalid or has expired. Please sign in again.');
      request.sessionUser = user;
    });
  },
  { name: 'auth-guard' },
);
