import type { Queryable } from './database.ts';

export interface UserRecord {
  id: number;
  username: string;
  password_hash: string;
  status: string;
  permissions: string[];
  portfolio_auth: string[];
}

export type NewUser = Omit<UserRecord, 'id'>;

/** A user by name, whatever its case ('ADMIN' is the user 'admin': names are unique regardless of case). */
export async function findUserByName(q: Queryable, username: string): Promise<UserRecord | undefined> {
  const rows = await q.query<UserRecord>(
    'SELECT id, username, password_hash, status, permissions, portfolio_auth FROM users WHERE lower(username) = lower($1)',
    [username],
  );
  return rows[0];
}

/** Adds a user; a user of that name (in any case) already there is kept as it is. */
export async function insertUser(q: Queryable, user: NewUser): Promise<void> {
  await q.query(
    `INSERT INTO users (username, password_hash, status, permissions, portfolio_auth)
     VALUES ($1, $2, $3, $4, $5) ON CONFLICT DO NOTHING`,
    [user.username, user.password_hash, user.status, user.permissions, user.portfolio_auth],
  );
}

/** Sets a user's status; their id, or undefined when there is no such user. */
export async function updateUserStatus(q: Queryable, username: string, status: string): Promise<number | undefined> {
  const rows = await q.query<{ id: number }>('UPDATE users SET status = $2 WHERE lower(username) = lower($1) RETURNING id', [
    username,
    status,
  ]);
  return rows[0]?.id;
}

/** A user's password hash, the row locked until the transaction ends (one password change at a time). */
export async function lockPasswordHash(q: Queryable, userId: number): Promise<string | undefined> {
  const rows = await q.query<{ password_hash: string }>('SELECT password_hash FROM users WHERE id = $1 FOR UPDATE', [userId]);
  return rows[0]?.password_hash;
}

export async function updatePasswordHash(q: Queryable, userId: number, passwordHash: string): Promise<void> {
  await q.query('UPDATE users SET password_hash = $2 WHERE id = $1', [userId, passwordHash]);
}

/** How many users have none of these names. */
export async function countUsersExcept(q: Queryable, usernames: readonly string[]): Promise<number> {
  const rows = await q.query<{ n: number }>('SELECT count(*)::int AS n FROM users WHERE NOT (username = ANY($1))', [
    usernames,
  ]);
  return rows[0]?.n ?? 0;
}
