import type { AuthConfig } from '#server/config.ts';
import type { Database, Queryable } from '#server/db/database.ts';
import { PERMISSIONS, type Permission } from '#shared/domain/permissions.ts';
import { audit } from '#server/audit.ts';
import { hashToken, newToken } from './tokens.ts';

export interface UserRecord {
  id: number;
  username: string;
  password_hash: string;
  status: string;
  permissions: string[];
  portfolio_auth: string[];
}

/** The signed-in caller of a request or a socket. */
export interface SessionUser {
  id: number;
  username: string;
  status: string;
  permissions: Permission[];
  portfolioAuth: string[];
  apiKeyId: number;
}

interface SessionRow extends UserRecord {
  api_key_id: number;
  created_at: Date;
  last_used_at: Date;
  expires_at: Date;
  revoked_at: Date | null;
}

const KNOWN = new Set<string>(PERMISSIONS);
// Writing last_used_at on every call would make each read a write; a minute is precise enough for an idle timeout.
const TOUCH_EVERY_MS = 60_000;

function toSessionUser(row: SessionRow): SessionUser {
  return {
    id: row.id,
    username: row.username,
    status: row.status,
    permissions: row.permissions.filter((p): p is Permission => KNOWN.has(p)),
    portfolioAuth: row.portfolio_auth,
    apiKeyId: row.api_key_id,
  };
}

export class AuthStore {
  constructor(
    private readonly db: Database,
    private readonly cfg: AuthConfig,
    private readonly now: () => number = Date.now,
  ) {}

  async findUser(username: string, tx: Queryable = this.db): Promise<UserRecord | undefined> {
    const rows = await tx.query<UserRecord>(
      'SELECT id, username, password_hash, status, permissions, portfolio_auth FROM users WHERE username = $1',
      [username],
    );
    return rows[0];
  }

  async upsertUser(
    user: Omit<UserRecord, 'id' | 'password_hash'> & { password_hash: string },
    tx: Queryable = this.db,
  ): Promise<void> {
    await tx.query(
      `INSERT INTO users (username, password_hash, status, permissions, portfolio_auth)
       VALUES ($1, $2, $3, $4, $5) ON CONFLICT (username) DO NOTHING`,
      [user.username, user.password_hash, user.status, user.permissions, user.portfolio_auth],
    );
  }

  /** Starts a session; the returned key is shown once and stored only as a hash. */
  async createSession(userId: number): Promise<string> {
    const token = newToken();
    const now = this.now();
    await this.db.query(
      `INSERT INTO api_keys (user_id, key_hash, created_at, last_used_at, expires_at) VALUES ($1, $2, $3, $3, $4)`,
      [userId, hashToken(token), new Date(now), new Date(now + Math.min(this.cfg.idleTtlMs, this.cfg.absoluteTtlMs))],
    );
    return token;
  }

  private async loadSession(where: 'k.key_hash' | 'k.id', value: string | number): Promise<SessionRow | undefined> {
    const rows = await this.db.query<SessionRow>(
      `SELECT u.id, u.username, u.password_hash, u.status, u.permissions, u.portfolio_auth,
              k.id AS api_key_id, k.created_at, k.last_used_at, k.expires_at, k.revoked_at
       FROM api_keys k JOIN users u ON u.id = k.user_id WHERE ${where} = $1`,
      [value],
    );
    return rows[0];
  }

  private isLive(row: SessionRow, now: number): boolean {
    return (
      !row.revoked_at && now < row.expires_at.getTime() && now < row.created_at.getTime() + this.cfg.absoluteTtlMs
    );
  }

  /** The user behind a key, or undefined when it is unknown, revoked, idle too long or too old. */
  async authenticate(token: string): Promise<SessionUser | undefined> {
    const row = await this.loadSession('k.key_hash', hashToken(token));
    const now = this.now();
    if (!row || !this.isLive(row, now)) return undefined;
    if (now - row.last_used_at.getTime() >= TOUCH_EVERY_MS) {
      const absoluteEnd = row.created_at.getTime() + this.cfg.absoluteTtlMs;
      await this.db.query('UPDATE api_keys SET last_used_at = $2, expires_at = $3 WHERE id = $1', [
        row.api_key_id,
        new Date(now),
        new Date(Math.min(now + this.cfg.idleTtlMs, absoluteEnd)),
      ]);
    }
    return toSessionUser(row);
  }

  /** Which of these sessions are still live (not revoked, not expired, their user active). */
  async liveSessions(apiKeyIds: readonly number[]): Promise<Set<number>> {
    const now = new Date(this.now());
    const rows = await this.db.query<{ id: number }>(
      `SELECT k.id FROM api_keys k JOIN users u ON u.id = k.user_id
       WHERE k.id = ANY($1) AND k.revoked_at IS NULL AND k.expires_at > $2
         AND k.created_at > $2::timestamptz - make_interval(secs => $3) AND u.status = 'active'`,
      [apiKeyIds, now, this.cfg.absoluteTtlMs / 1000],
    );
    return new Set(rows.map((r) => r.id));
  }

  /** Ends every session of a user (and their unspent tickets), in the caller's transaction if given. */
  async revokeAll(userId: number, tx: Queryable = this.db): Promise<number> {
    const rows = await tx.query<{ id: number }>(
      'UPDATE api_keys SET revoked_at = $2 WHERE user_id = $1 AND revoked_at IS NULL RETURNING id',
      [userId, new Date(this.now())],
    );
    await tx.query('DELETE FROM ws_tickets WHERE api_key_id IN (SELECT id FROM api_keys WHERE user_id = $1)', [userId]);
    return rows.length;
  }

  /** Disables (or enables again) a user; disabling ends every session of theirs. */
  async setUserStatus(username: string, status: 'active' | 'disabled'): Promise<boolean> {
    return this.db.transaction(async (tx) => {
      const rows = await tx.query<{ id: number }>('UPDATE users SET status = $2 WHERE username = $1 RETURNING id', [
        username,
        status,
      ]);
      const user = rows[0];
      if (!user) return false;
      const ended = status !== 'active' ? await this.revokeAll(user.id, tx) : 0;
      await audit(tx, user.id, status === 'active' ? 'users.enable' : 'users.disable', { username, sessions_ended: ended });
      return true;
    });
  }

  /** Sets a new password hash and ends every session of the user. */
  async setPasswordHash(userId: number, passwordHash: string): Promise<void> {
    await this.db.transaction(async (tx) => {
      await tx.query('UPDATE users SET password_hash = $2 WHERE id = $1', [userId, passwordHash]);
      const ended = await this.revokeAll(userId, tx);
      await audit(tx, userId, 'account.password', { sessions_ended: ended });
    });
  }

  async revoke(apiKeyId: number): Promise<void> {
    await this.db.query('UPDATE api_keys SET revoked_at = $2 WHERE id = $1 AND revoked_at IS NULL', [
      apiKeyId,
      new Date(this.now()),
    ]);
    await this.db.query('DELETE FROM ws_tickets WHERE api_key_id = $1', [apiKeyId]);
  }

  /** A single-use ticket for one websocket connect (DESIGN.md: the key itself never goes into a URL). */
  async issueTicket(apiKeyId: number): Promise<string> {
    const ticket = newToken();
    const now = this.now();
    await this.db.query('DELETE FROM ws_tickets WHERE expires_at < $1', [new Date(now)]);
    await this.db.query('INSERT INTO ws_tickets (ticket_hash, api_key_id, expires_at) VALUES ($1, $2, $3)', [
      hashToken(ticket),
      apiKeyId,
      new Date(now + this.cfg.wsTicketTtlMs),
    ]);
    return ticket;
  }

  /** Spends a ticket: the user it was issued to while their session is still valid, once. */
  async redeemTicket(ticket: string): Promise<SessionUser | undefined> {
    const spent = await this.db.query<{ api_key_id: number; expires_at: Date }>(
      'DELETE FROM ws_tickets WHERE ticket_hash = $1 RETURNING api_key_id, expires_at',
      [hashToken(ticket)],
    );
    const t = spent[0];
    const now = this.now();
    if (!t || t.expires_at.getTime() <= now) return undefined;
    const row = await this.loadSession('k.id', t.api_key_id);
    return row && this.isLive(row, now) ? toSessionUser(row) : undefined;
  }
}
