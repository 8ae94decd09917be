import type { AuthConfig } from '#server/config.ts';
import type { Database, Queryable } from '#server/db/database.ts';
import { audit } from '#server/db/audit-repo.ts';
import {
  deleteExpiredTickets,
  deleteTicketsOfSession,
  deleteTicketsOfUser,
  insertSession,
  insertTicket,
  liveSessionIds,
  revokeSession,
  revokeSessionsOfUser,
  sessionById,
  sessionByKeyHash,
  spendTicket,
  touchSession,
  type SessionRow,
} from '#server/db/sessions-repo.ts';
import { findUserByName, insertUser, lockPasswordHash, updatePasswordHash, updateUserStatus, type UserRecord } from '#server/db/users-repo.ts';
import { PERMISSIONS, type Permission } from '#shared/domain/permissions.ts';
import { hashPassword, verifyPassword } from './password.ts';
import { hashToken, newToken } from './tokens.ts';

export type { UserRecord };

/** The signed-in caller of a request or a socket. */
export interface SessionUser {
  id: number;
  username: string;
  status: string;
  permissions: Permission[];
  portfolioAuth: string[];
  apiKeyId: number;
}

/** What came of a user's change of their own password. */
export type PasswordChange = { outcome: 'changed'; userId: number } | { outcome: 'wrong' } | { outcome: 'conflict' };

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
    return findUserByName(tx, username);
  }

  async upsertUser(
    user: Omit<UserRecord, 'id' | 'password_hash'> & { password_hash: string },
    tx: Queryable = this.db,
  ): Promise<void> {
    await insertUser(tx, user);
  }

  /** Starts a session; the returned key is shown once and stored only as a hash. */
  async createSession(userId: number): Promise<string> {
    const token = newToken();
    const now = this.now();
    await insertSession(
      this.db,
      userId,
      hashToken(token),
      new Date(now),
      new Date(now + Math.min(this.cfg.idleTtlMs, this.cfg.absoluteTtlMs)),
    );
    return token;
  }

  private isLive(row: SessionRow, now: number): boolean {
    return (
      !row.revoked_at && now < row.expires_at.getTime() && now < row.created_at.getTime() + this.cfg.absoluteTtlMs
    );
  }

  /** The user behind a key, or undefined when it is unknown, revoked, idle too long or too old. */
  async authenticate(token: string): Promise<SessionUser | undefined> {
    const row = await sessionByKeyHash(this.db, hashToken(token));
    const now = this.now();
    if (!row || !this.isLive(row, now)) return undefined;
    if (now - row.last_used_at.getTime() >= TOUCH_EVERY_MS) {
      const absoluteEnd = row.created_at.getTime() + this.cfg.absoluteTtlMs;
      await touchSession(this.db, row.api_key_id, new Date(now), new Date(Math.min(now + this.cfg.idleTtlMs, absoluteEnd)));
    }
    return toSessionUser(row);
  }

  /** Which of these sessions are still live (not revoked, not expired, their user active). */
  async liveSessions(apiKeyIds: readonly number[]): Promise<Set<number>> {
    return new Set(await liveSessionIds(this.db, apiKeyIds, new Date(this.now()), this.cfg.absoluteTtlMs));
  }

  /** Ends every session of a user (and their unspent tickets), in the caller's transaction if given. */
  async revokeAll(userId: number, tx: Queryable = this.db): Promise<number> {
    const revoked = await revokeSessionsOfUser(tx, userId, new Date(this.now()));
    await deleteTicketsOfUser(tx, userId);
    return revoked.length;
  }

  /** Disables (or enables again) a user; disabling ends every session of theirs. */
  async setUserStatus(username: string, status: 'active' | 'disabled'): Promise<boolean> {
    return this.db.transaction(async (tx) => {
      const userId = await updateUserStatus(tx, username, status);
      if (userId === undefined) return false;
      const ended = status !== 'active' ? await this.revokeAll(userId, tx) : 0;
      await audit(tx, userId, status === 'active' ? 'users.enable' : 'users.disable', { username, sessions_ended: ended });
      return true;
    });
  }

  /** Sets a new password hash and ends every session of the user. */
  async setPasswordHash(userId: number, passwordHash: string): Promise<void> {
    await this.db.transaction(async (tx) => {
      await updatePasswordHash(tx, userId, passwordHash);
      await this.endSessionsForNewPassword(tx, userId);
    });
  }

  /**
   * A user's own change of password: `wrong` when `current` is not their password, `conflict` when
   * another change took effect since it was checked (concurrent changes: exactly one wins, under the
   * user's row lock), else the password is changed and every session of the user ends.
   */
  async changePassword(username: string, current: string, next: string): Promise<PasswordChange> {
    const user = await this.findUser(username);
    if (!user || !(await verifyPassword(current, user.password_hash))) return { outcome: 'wrong' };
    // The hashes are worked out before the row is locked: the lock is held for a comparison only.
    const nextHash = await hashPassword(next);
    return this.db.transaction(async (tx) => {
      if ((await lockPasswordHash(tx, user.id)) !== user.password_hash) return { outcome: 'conflict' as const };
      await updatePasswordHash(tx, user.id, nextHash);
      await this.endSessionsForNewPassword(tx, user.id);
      return { outcome: 'changed' as const, userId: user.id };
    });
  }

  private async endSessionsForNewPassword(tx: Queryable, userId: number): Promise<void> {
    const ended = await this.revokeAll(userId, tx);
    await audit(tx, userId, 'account.password', { sessions_ended: ended });
  }

  async revoke(apiKeyId: number): Promise<void> {
    await revokeSession(this.db, apiKeyId, new Date(this.now()));
    await deleteTicketsOfSession(this.db, apiKeyId);
  }

  /** A single-use ticket for one websocket connect (docs/architecture.md: the key itself never goes into a URL). */
  async issueTicket(apiKeyId: number): Promise<string> {
    const ticket = newToken();
    const now = this.now();
    await deleteExpiredTickets(this.db, new Date(now));
    await insertTicket(this.db, hashToken(ticket), apiKeyId, new Date(now + this.cfg.wsTicketTtlMs));
    return ticket;
  }

  /** Spends a ticket: the user it was issued to while their session is still valid, once. */
  async redeemTicket(ticket: string): Promise<SessionUser | undefined> {
    const t = await spendTicket(this.db, hashToken(ticket));
    const now = this.now();
    if (!t || t.expires_at.getTime() <= now) return undefined;
    const row = await sessionById(this.db, t.api_key_id);
    return row && this.isLive(row, now) ? toSessionUser(row) : undefined;
  }
}
