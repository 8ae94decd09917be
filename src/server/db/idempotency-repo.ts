import type { Queryable } from './database.ts';

export interface IdempotencyKeyRow {
  fingerprint: string;
  state: 'pending' | 'done';
  status: number | null;
  response: unknown;
  claimed_at: Date;
}

/** Claims a key for a request (pending); false when the key is already there. One statement, so one claimant wins. */
export async function claimKey(q: Queryable, userId: number, key: string, route: string, fingerprint: string): Promise<boolean> {
  const rows = await q.query(
    `INSERT INTO idempotency_keys (user_id, key, route, fingerprint, state, claimed_at) VALUES ($1, $2, $3, $4, 'pending', now())
     ON CONFLICT (user_id, key) DO NOTHING RETURNING key`,
    [userId, key, route, fingerprint],
  );
  return rows.length === 1;
}

export async function readKey(q: Queryable, userId: number, key: string): Promise<IdempotencyKeyRow | undefined> {
  const rows = await q.query<IdempotencyKeyRow>(
    'SELECT fingerprint, state, status, response, claimed_at FROM idempotency_keys WHERE user_id = $1 AND key = $2',
    [userId, key],
  );
  return rows[0];
}

/** Stores a request's answer under its key. */
export async function finishKey(q: Queryable, userId: number, key: string, status: number, response: unknown): Promise<void> {
  await q.query("UPDATE idempotency_keys SET state = 'done', status = $3, response = $4 WHERE user_id = $1 AND key = $2", [
    userId,
    key,
    status,
    JSON.stringify(response),
  ]);
}

export async function releaseKey(q: Queryable, userId: number, key: string): Promise<void> {
  await q.query('DELETE FROM idempotency_keys WHERE user_id = $1 AND key = $2', [userId, key]);
}

/** Releases a key still pending since `claimedAt` (a claim taken over since is kept). */
export async function releaseStaleClaim(q: Queryable, userId: number, key: string, claimedAt: Date): Promise<void> {
  await q.query("DELETE FROM idempotency_keys WHERE user_id = $1 AND key = $2 AND state = 'pending' AND claimed_at = $3", [
    userId,
    key,
    claimedAt,
  ]);
}
