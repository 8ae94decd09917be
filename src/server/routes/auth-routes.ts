import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { endpoints } from '#shared/contract/endpoints.ts';
import type { Redis } from 'ioredis';
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';
import { ErrorResponse } from '#shared/contract/common.ts';
import type { AuthConfig } from '#server/config.ts';
import type { AuthStore } from '#server/auth/auth-store.ts';
import { decoyHash, verifyPassword } from '#server/auth/password.ts';
import { callerOf } from '#server/auth/guard.ts';
import { HttpError } from '#server/http/errors.ts';

const INVALID = 'Invalid username or password.';
export const LOGIN_MAX_DELAY_MS = 10_000;

/** The wait before checking a password on a name with this many recent attempts before this one. */
export function loginDelayMs(earlierAttempts: number, freeAttempts: number): number {
  const over = earlierAttempts - freeAttempts + 1;
  return over <= 0 ? 0 : Math.min(LOGIN_MAX_DELAY_MS, over * 1000);
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function tooMany(res: unknown): HttpError {
  const seconds = res instanceof RateLimiterRes ? Math.ceil(res.msBeforeNext / 1000) : 60;
  return new HttpError(429, `Too many sign-in attempts. Try again in ${seconds} s.`);
}

interface Options {
  store: AuthStore;
  auth: AuthConfig;
  /** Several instances: the counters live in Redis, so every instance counts every attempt. */
  redis?: { client: Redis; namespace: string };
}

export const authRoutes: FastifyPluginAsyncZod<Options> = async (app, { store, auth, redis }) => {
  const windowSeconds = Math.ceil(auth.loginWindowMs / 1000);
  // Every attempt is counted before its password is checked (one atomic consume), so parallel
  // attempts cannot all slip past a count read earlier.
  // - Per address: every attempt counts.
  // - Per user name and address: a wrong password counts; past the limit that pair gets 429 for the
  //   window. The owner of the name, from their own address, is not locked out (OWASP).
  // - Per user name, from any address: failures past the limit slow every further attempt on that
  //   name (a second more per failure, at most LOGIN_MAX_DELAY_MS) instead of refusing it.
  const limiter = (keyPrefix: string, points: number) =>
    redis
      ? new RateLimiterRedis({ storeClient: redis.client, keyPrefix: `${redis.namespace}:${keyPrefix}`, points, duration: windowSeconds })
      : new RateLimiterMemory({ keyPrefix, points, duration: windowSeconds });
  const perAddress = limiter('login-address', auth.loginAttemptsPerAddress);
  const perPair = limiter('login-pair', auth.loginFailuresPerUser);
  const perUser = limiter('login-user', 1_000_000);

  app.post(
    endpoints.login.path,
    {
      config: { public: true },
      schema: {
        body: endpoints.login.body,
        response: { 200: endpoints.login.response, 400: ErrorResponse, 401: ErrorResponse, 429: ErrorResponse },
      },
    },
    async (request) => {
      const { username, password } = request.body;
      const userKey = username.toLowerCase();
      const pairKey = `${userKey}\u0000${request.ip}`;
      try {
        await perAddress.consume(request.ip);
        await perPair.consume(pairKey);
      } catch (res) {
        throw tooMany(res);
      }
      const attempts = await perUser.consume(userKey);
      const delay = loginDelayMs(attempts.consumedPoints - 1, auth.loginFailuresPerUser);
      if (delay > 0) await sleep(delay);

      const user = await store.findUser(username);
      // An unknown user costs one hash check too, and gets the same answer as a wrong password.
      const ok = await verifyPassword(password, user?.password_hash ?? (await decoyHash()));
      if (!user || !ok || user.status !== 'active') throw new HttpError(401, INVALID);
      // A success forgets this name's failures (the attempt itself was counted above).
      await Promise.all([perPair.delete(pairKey), perUser.delete(userKey)]);
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
    endpoints.logout.path,
    { schema: { response: { 200: endpoints.logout.response, 401: ErrorResponse } } },
    async (request) => {
      await store.revoke(callerOf(request).apiKeyId);
      return { message: 'Signed out.' };
    },
  );

  app.post(
    endpoints.changePassword.path,
    {
      schema: {
        body: endpoints.changePassword.body,
        response: { 200: endpoints.changePassword.response, 400: ErrorResponse, 401: ErrorResponse, 403: ErrorResponse, 409: ErrorResponse, 429: ErrorResponse },
      },
    },
    async (request) => {
      const caller = callerOf(request);
      const { current_password, new_password } = request.body;
      const pairKey = `${caller.username.toLowerCase()}\u0000${request.ip}`;
      try {
        await perPair.consume(pairKey);
      } catch (res) {
        throw tooMany(res);
      }
      const changed = await store.changePassword(caller.username, current_password, new_password);
      if (changed.outcome === 'wrong') throw new HttpError(403, 'Forbidden: the current password is wrong.');
      await perPair.delete(pairKey);
      if (changed.outcome === 'conflict') {
        throw new HttpError(409, 'Your password was changed by another request meanwhile: sign in again with the new password.');
      }
      const apiKey = await store.createSession(changed.userId);
      request.log.info({ user: caller.username }, 'password changed: every other session ended');
      return { message: 'Password changed. You are signed out everywhere else.', data: { api_key: apiKey } };
    },
  );

  app.post(
    endpoints.wsTicket.path,
    { schema: { response: { 200: endpoints.wsTicket.response, 401: ErrorResponse } } },
    async (request) => ({ data: { ticket: await store.issueTicket(callerOf(request).apiKeyId) } }),
  );
};
