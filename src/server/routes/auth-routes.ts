import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { RateLimiterMemory, RateLimiterRes } from 'rate-limiter-flexible';
import { LoginBody, LoginResponse, WsTicketResponse } from '#shared/contract/auth.ts';
import { ErrorResponse, MessageResponse } from '#shared/contract/common.ts';
import type { AuthConfig } from '#server/config.ts';
import type { AuthStore } from '#server/auth/auth-store.ts';
import { decoyHash, verifyPassword } from '#server/auth/password.ts';
import { callerOf } from '#server/auth/guard.ts';
import { HttpError } from '#server/http/errors.ts';

const INVALID = 'Invalid username or password.';

function tooMany(res: unknown): HttpError {
  const seconds = res instanceof RateLimiterRes ? Math.ceil(res.msBeforeNext / 1000) : 60;
  return new HttpError(429, `Too many sign-in attempts. Try again in ${seconds} s.`);
}

export const authRoutes: FastifyPluginAsyncZod<{ store: AuthStore; auth: AuthConfig }> = async (
  app,
  { store, auth },
) => {
  const windowSeconds = Math.ceil(auth.loginWindowMs / 1000);
  // Per address: every attempt counts. Per user name: failures count, a success clears them.
  const perAddress = new RateLimiterMemory({ points: auth.loginAttemptsPerAddress, duration: windowSeconds });
  const perUser = new RateLimiterMemory({ points: auth.loginFailuresPerUser, duration: windowSeconds });

  app.post(
    '/api/login',
    {
      config: { public: true },
      schema: {
        body: LoginBody,
        response: { 200: LoginResponse, 400: ErrorResponse, 401: ErrorResponse, 429: ErrorResponse },
      },
    },
    async (request) => {
      const { username, password } = request.body;
      const userKey = username.toLowerCase();
      try {
        await perAddress.consume(request.ip);
      } catch (res) {
        throw tooMany(res);
      }
      const failures = await perUser.get(userKey);
      if (failures && failures.consumedPoints >= auth.loginFailuresPerUser) throw tooMany(failures);

      const user = await store.findUser(username);
      // An unknown user costs one hash check too, and gets the same answer as a wrong password.
      const ok = await verifyPassword(password, user?.password_hash ?? (await decoyHash()));
      if (!user || !ok || user.status !== 'active') {
        await perUser.consume(userKey).catch(() => undefined);
        throw new HttpError(401, INVALID);
      }
      await perUser.delete(userKey);
      const apiKey = await store.createSession(user.id);
      request.log.info({ user: user.username }, 'signed in');
      return {
        data: {
          api_key: apiKey,
          portfolio_auth: user.portfolio_auth,
          status: user.status,
          restrictions: user.permissions,
        },
      };
    },
  );

  app.post(
    '/api/logout',
    { schema: { response: { 200: MessageResponse, 401: ErrorResponse } } },
    async (request) => {
      await store.revoke(callerOf(request).apiKeyId);
      return { message: 'Signed out.' };
    },
  );

  app.post(
    '/api/ws-ticket',
    { schema: { response: { 200: WsTicketResponse, 401: ErrorResponse } } },
    async (request) => ({ data: { ticket: await store.issueTicket(callerOf(request).apiKeyId) } }),
  );
};
