import { createHash } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Database, Queryable } from '#server/db/database.ts';
import { claimKey, finishKey, readKey, releaseKey, releaseStaleClaim } from '#server/db/idempotency-repo.ts';
import { badRequest, HttpError, httpAnswerOf } from './errors.ts';

/** How long a claimed key waits for its first request before another may take it over (a crash). */
export const IDEMPOTENCY_CLAIM_TTL_MS = 60_000;
/** How long a duplicate waits for the first request's answer before it is told to retry. */
const WAIT_FOR_FIRST_MS = 30_000;
const POLL_MS = 25;

interface Stored {
  status: number;
  response: unknown;
}

/** Canonical JSON (keys sorted), so one body sent with its fields in another order is the same request. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/** The request a key stands for: its route and its body. */
export function requestFingerprint(route: string, body: unknown): string {
  return createHash('sha256').update(route).update('\n').update(canonical(body ?? null)).digest('hex');
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Runs a write once per Idempotency-Key (Stripe's rule): a retry, or any number of concurrent
 * duplicates, gets the first request's answer (its status and body) instead of acting again; the same
 * key with another route or body is refused with 422. Without the header the write simply runs.
 *
 * The key is claimed in the database before the write runs (one INSERT, so two instances or two
 * connections cannot both claim it); duplicates wait for the first answer. Answers of 4xx are stored
 * and replayed too; a failure of the server (5xx) releases the key so a retry can run. A claim whose
 * request died with its process is taken over after IDEMPOTENCY_CLAIM_TTL_MS.
 */
export async function idempotent<T extends object>(
  db: Database,
  request: FastifyRequest,
  reply: FastifyReply,
  userId: number,
  run: () => Promise<T>,
): Promise<T> {
  const header = request.headers['idempotency-key'];
  if (header === undefined) return run();
  if (typeof header !== 'string' || header.length === 0 || header.length > 200 || /\p{Cc}/u.test(header)) {
    throw badRequest('Idempotency-Key must be 1 to 200 characters, without control characters.');
  }
  const key = header;
  const route = `${request.method} ${request.routeOptions.url ?? request.url}`;
  const fingerprint = requestFingerprint(route, request.body);

  const replay = (stored: Stored): T => {
    reply.header('idempotent-replay', 'true');
    if (stored.status >= 400) {
      const message = (stored.response as { message?: unknown } | null)?.message;
      throw new HttpError(stored.status, typeof message === 'string' ? message : 'Request failed.');
    }
    return stored.response as T;
  };

  const deadline = Date.now() + WAIT_FOR_FIRST_MS;
  for (;;) {
    const claimed = await claimKey(db, userId, key, route, fingerprint);
    if (claimed) break;
    const row = await readKey(db, userId, key);
    if (!row) continue; // released a moment ago: claim it again
    if (row.fingerprint !== fingerprint) {
      throw new HttpError(
        422,
        'This Idempotency-Key was already used for a different request (another route or body). Use a new key for a new request.',
      );
    }
    if (row.state === 'done' && row.status !== null) return replay({ status: row.status, response: row.response });
    if (Date.now() - row.claimed_at.getTime() > IDEMPOTENCY_CLAIM_TTL_MS) {
      // Its first request died with its process: release it and claim it afresh.
      await releaseStaleClaim(db, userId, key, row.claimed_at);
      continue;
    }
    if (Date.now() > deadline) {
      throw new HttpError(409, 'A request with this Idempotency-Key is still in progress. Retry it in a moment.');
    }
    await sleep(POLL_MS);
  }

  const release = () => releaseKey(db, userId, key).catch(() => undefined);
  let result: T;
  try {
    result = await run();
  } catch (err) {
    const refusal = httpAnswerOf(err);
    if (refusal && refusal.statusCode < 500) {
      // A refusal is replayed too; if it cannot be stored, the key is released rather than left pending.
      await finishKey(db, userId, key, refusal.statusCode, { message: refusal.message }).catch(release);
    } else {
      await release();
    }
    throw err;
  }
  try {
    await finishKey(db, userId, key, 200, result);
  } catch (err) {
    // The write is done; its answer could not be stored: release the key (a retry finds nothing to do) and report.
    await release();
    throw err;
  }
  return result;
}

/** `idempotent` bound to a database: what the write routes take, so they never hold the database themselves. */
export type Idempotent = <T extends object>(request: FastifyRequest, reply: FastifyReply, userId: number, run: () => Promise<T>) => Promise<T>;

export function idempotency(db: Database): Idempotent {
  return (request, reply, userId, run) => idempotent(db, request, reply, userId, run);
}

export type AuditFn = (tx: Queryable) => Promise<void>;
