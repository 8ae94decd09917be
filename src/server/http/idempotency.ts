import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Database, Queryable } from '#server/db/database.ts';
import { badRequest, HttpError } from './errors.ts';

/**
 * Runs a write once per Idempotency-Key: a retry after a network error gets the first answer back
 * instead of acting twice. Without the header the write simply runs.
 */
export async function idempotent<T extends object>(
  db: Database,
  request: FastifyRequest,
  reply: FastifyReply,
  userId: number,
  run: () => Promise<T>,
): Promise<T> {
  const key = request.headers['idempotency-key'];
  if (key === undefined) return run();
  if (typeof key !== 'string' || key.length === 0 || key.length > 200) {
    throw badRequest('Idempotency-Key must be 1 to 200 characters.');
  }
  const route = `${request.method} ${request.routeOptions.url ?? request.url}`;
  const seen = await db.query<{ route: string; status: number; response: T }>(
    'SELECT route, status, response FROM idempotency_keys WHERE user_id = $1 AND key = $2',
    [userId, key],
  );
  const first = seen[0];
  if (first) {
    if (first.route !== route) throw new HttpError(422, 'This Idempotency-Key was already used for another request.');
    reply.header('idempotent-replay', 'true');
    return first.response;
  }
  const result = await run();
  await db.query(
    `INSERT INTO idempotency_keys (user_id, key, route, status, response) VALUES ($1, $2, $3, 200, $4)
     ON CONFLICT (user_id, key) DO NOTHING`,
    [userId, key, route, JSON.stringify(result)],
  );
  return result;
}

export type AuditFn = (tx: Queryable) => Promise<void>;
