import type { FastifyBaseLogger } from 'fastify';
import type { Redis } from 'ioredis';
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';
import type { LoginResponse } from '#shared/contract/auth.ts';
import type { AuthConfig } from '#server/config.ts';
import type { AuthStore, SessionUser } from '#server/auth/auth-store.ts';
import { decoyHash, verifyPassword } from '#server/auth/password.ts';
import { HttpError } from '#server/http/errors.ts';

const INVALID = 'Invalid username or password.';
export const LOGIN_MAX_DELAY_MS = 10_000;

/** The wait before checking a password on a name with this many recent attempts before this one. */
export function loginDelayMs(earlierAttempts: number, freeAttempts: number): number {
  const over = earlierAttempts - freeAttempts + 1;
  return over <= 0 ? 0 : Math.min(LOGIN_MAX_DELAY_MS, over * 1000);
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const UNCOUNTED = 'Signing in is unavailable on this server at the moment (it cannot count attempts). Try again in a few seconds.';

/**
 * Counts one attempt: past the limit 429 with the wait; a store that cannot count (Redis lost) is
 * this server's failure, 503, never a false 'too many'.
 */
async function count(limiter: RateLimiterMemory | RateLimiterRedis, key: string): Promise<RateLimiterRes> {
  try {
    return await limiter.consume(key);
  } catch (res) {
    if (!(res instanceof RateLimiterRes)) throw new HttpError(503, UNCOUNTED);
    throw new HttpError(429, `Too many sign-in attempts. Try again in ${Math.ceil(res.msBeforeNext / 1000)} s.`);
  }
}

export interface AuthDeps {
  store: AuthStore;
  auth: AuthConfig;
  /** Several instances: the counters live in Redis, so every instance counts every attempt. */
  redis?: { client: Redis; namespace: string };
}

/**
 * Signing in and out, changing one's password, websocket tickets (docs/security.md). Every attempt
 * is counted before its password is checked (one atomic consume), so parallel attempts cannot all
 * slip past a count read earlier.
 * - Per address: every attempt counts.
 * - Per user name and address: a wrong password counts; past the limit that pair gets 429 for the
 *   window. The owner of the name, from their own address, is not locked out (OWASP).
 * - Per user name, from any address: failures past the limit slow every further attempt on that
 *   name (a second more per failure, at most LOGIN_MAX_DELAY_MS) instead of refusing it.
 */
export class AuthService {
  private readonly store: AuthStore;
  private readonly auth: AuthConfig;
  private readonly perAddress: RateLimiterMemory | RateLimiterRedis;
  private readonly perPair: RateLimiterMemory | RateLimiterRedis;
  private readonly perUser: RateLimiterMemory | RateLimiterRedis;
  private readonly redis: Redis | undefined;

  constructor({ store, auth, redis }: AuthDeps) {
    this.store = store;
    this.redis = redis?.client;
    this.auth = auth;
    const windowSeconds = Math.ceil(auth.loginWindowMs / 1000);
    const limiter = (keyPrefix: string, points: number) =>
      redis
        ? new RateLimiterRedis({ storeClient: redis.client, keyPrefix: `${redis.namespace}:${keyPrefix}`, points, duration: windowSeconds })
        : new RateLimiterMemory({ keyPrefix, points, duration: windowSeconds });
    this.perAddress = limiter('login-address', auth.loginAttemptsPerAddress);
    this.perPair = limiter('login-pair', auth.loginFailuresPerUser);
    this.perUser = limiter('login-user', 1_000_000);
  }

  /** A new session for these credentials from this address, or 401 (429 past the limits; 503 when they cannot be counted). */
  async login(username: string, password: string, ip: string, log: FastifyBaseLogger): Promise<LoginResponse['data']> {
    const userKey = username.toLowerCase();
    const pairKey = `${userKey}\u0000${ip}`;
    // Redis out of reach: said at once, rather than after the client's retries.
    if (this.redis && this.redis.status !== 'ready') throw new HttpError(503, UNCOUNTED);
    await count(this.perAddress, ip);
    await count(this.perPair, pairKey);
    const attempts = await count(this.perUser, userKey);
    const delay = loginDelayMs(attempts.consumedPoints - 1, this.auth.loginFailuresPerUser);
    if (delay > 0) await sleep(delay);

    const user = await this.store.findUser(username);
    // An unknown user costs one hash check too, and gets the same answer as a wrong password.
    const ok = await verifyPassword(password, user?.password_hash ?? (await decoyHash()));
    if (!user || !ok || user.status !== 'active') throw new HttpError(401, INVALID);
    // A success forgets this name's failures (the attempt itself was counted above).
    // (A store that fails here keeps the counts until their window ends: the sign-in stands.)
    await Promise.all([this.perPair.delete(pairKey), this.perUser.delete(userKey)]).catch((err: unknown) => log.warn({ err }, 'could not forget the sign-in failures'));
    const apiKey = await this.store.createSession(user.id);
    log.info({ user: user.username }, 'signed in');
    return {
      api_key: apiKey,
      portfolio_auth: user.portfolio_auth,
      status: user.status,
      restrictions: user.permissions,
    };
  }

  /** Ends the caller's session. */
  async logout(caller: SessionUser): Promise<void> {
    await this.store.revoke(caller.apiKeyId);
  }

  /**
   * The caller's new password: every session of theirs ends and this device gets a fresh key. A
   * wrong current password is 403 and counts as a failure of this name and address.
   */
  async changePassword(caller: SessionUser, current: string, next: string, ip: string, log: FastifyBaseLogger): Promise<{ apiKey: string }> {
    const pairKey = `${caller.username.toLowerCase()}\u0000${ip}`;
    await count(this.perPair, pairKey);
    const changed = await this.store.changePassword(caller.username, current, next);
    if (changed.outcome === 'wrong') throw new HttpError(403, 'Forbidden: the current password is wrong.');
    await this.perPair.delete(pairKey).catch((err: unknown) => log.warn({ err }, 'could not forget the password failures'));
    if (changed.outcome === 'conflict') {
      throw new HttpError(409, 'Your password was changed by another request meanwhile: sign in again with the new password.');
    }
    const apiKey = await this.store.createSession(changed.userId);
    log.info({ user: caller.username }, 'password changed: every other session ended');
    return { apiKey };
  }

  /** A single-use websocket ticket of the caller's session. */
  wsTicket(caller: SessionUser): Promise<string> {
    return this.store.issueTicket(caller.apiKeyId);
  }
}
