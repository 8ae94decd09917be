import type { Queryable } from './database.ts';
import type { UserRecord } from './users-repo.ts';

/** A session (an api_keys row) with its user. */
export interface SessionRow extends UserRecord {
  api_key_id: number;
  created_at: Date;
  last_used_at: Date;
  expires_at: Date;
  revoked_at: Date | null;
}

export async function insertSession(
  q: Queryable,
  userId: number,
  keyHash: string,
  createdAt: Date,
  expiresAt: Date,
): Promise<void> {
  await q.query(
    'INSERT INTO api_keys (user_id, key_hash, created_at, last_used_at, expires_at) VALUES ($1, $2, $3, $3, $4)',
    [userId, keyHash, createdAt, expiresAt],
  );
}

const SESSION_SELECT = `SELECT u.id, u.username, u.password_hash, u.status, u.permissions, u.portfolio_auth,
              k.id AS api_key_id, k.created_at, k.last_used_at, k.expires_at, k.revoked_at
       FROM api_keys k JOIN users u ON u.id = k.user_id`;

/** The session of a key (by its hash), live or not. */
export async function sessionByKeyHash(q: Queryable, keyHash: string): Promise<SessionRow | undefined> {
  const rows = await q.query<SessionRow>(`${SESSION_SELECT} WHERE k.key_hash = $1`, [keyHash]);
  return rows[0];
}

/** A session by its id, live or not. */
export async function sessionById(q: Queryable, apiKeyId: number): Promise<SessionRow | undefined> {
  const rows = await q.query<SessionRow>(`${SESSION_SELECT} WHERE k.id = $1`, [apiKeyId]);
  return rows[0];
}

/** Sessions by their ids, live or not (the session cache's confirmation of what it holds). */
export async function sessionsByIds(q: Queryable, apiKeyIds: readonly number[]): Promise<SessionRow[]> {
  return q.query<SessionRow>(`${SESSION_SELECT} WHERE k.id = ANY($1)`, [apiKeyIds]);
}

export async function touchSession(q: Queryable, apiKeyId: number, lastUsedAt: Date, expiresAt: Date): Promise<void> {
  await q.query('UPDATE api_keys SET last_used_at = $2, expires_at = $3 WHERE id = $1', [apiKeyId, lastUsedAt, expiresAt]);
}

/** Which of these sessions are live at `now`: not revoked, not expired, younger than `absoluteTtlMs`, their user active. */
export async function liveSessionIds(
  q: Queryable,
  apiKeyIds: readonly number[],
  now: Date,
  absoluteTtlMs: number,
): Promise<number[]> {
  const rows = await q.query<{ id: number }>(
    `SELECT k.id FROM api_keys k JOIN users u ON u.id = k.user_id
       WHERE k.id = ANY($1) AND k.revoked_at IS NULL AND k.expires_at > $2
         AND k.created_at > $2::timestamptz - make_interval(secs => $3) AND u.status = 'active'`,
    [apiKeyIds, now, absoluteTtlMs / 1000],
  );
  return rows.map((r) => r.id);
}

/** Revokes every live session of a user; the ids revoked. */
export async function revokeSessionsOfUser(q: Queryable, userId: number, at: Date): Promise<number[]> {
  const rows = await q.query<{ id: number }>(
    'UPDATE api_keys SET revoked_at = $2 WHERE user_id = $1 AND revoked_at IS NULL RETURNING id',
    [userId, at],
  );
  return rows.map((r) => r.id);
}

export async function revokeSession(q: Queryable, apiKeyId: number, at: Date): Promise<void> {
  await q.query('UPDATE api_keys SET revoked_at = $2 WHERE id = $1 AND revoked_at IS NULL', [apiKeyId, at]);
}

export async function deleteTicketsOfUser(q: Queryable, userId: number): Promise<void> {
  await q.query('DELETE FROM ws_tickets WHERE api_key_id IN (SELECT id FROM api_keys WHERE user_id = $1)', [userId]);
}

export async function deleteTicketsOfSession(q: Queryable, apiKeyId: number): Promise<void> {
  await q.query('DELETE FROM ws_tickets WHERE api_key_id = $1', [apiKeyId]);
}

export async function deleteExpiredTickets(q: Queryable, now: Date): Promise<void> {
  await q.query('DELETE FROM ws_tickets WHERE expires_at < $1', [now]);
}

export async function insertTicket(q: Queryable, ticketHash: string, apiKeyId: number, expiresAt: Date): Promise<void> {
  await q.query('INSERT INTO ws_tickets (ticket_hash, api_key_id, expires_at) VALUES ($1, $2, $3)', [
    ticketHash,
    apiKeyId,
    expiresAt,
  ]);
}

/** Deletes a ticket and returns what it was, so that it is spent once however many ask at a time. */
export async function spendTicket(
  q: Queryable,
  ticketHash: string,
): Promise<{ api_key_id: number; expires_at: Date } | undefined> {
  const rows = await q.query<{ api_key_id: number; expires_at: Date }>(
    'DELETE FROM ws_tickets WHERE ticket_hash = $1 RETURNING api_key_id, expires_at',
    [ticketHash],
  );
  return rows[0];
}
