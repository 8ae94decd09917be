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
  sessionsByIds,
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

/**
 * How long a session read from the database may answer requests without being read again, and how
 * often the sessions in use are read again, all in one query (the sweep). A session revoked, a user
 * disabled or their password or permissions changed by any process (another instance, the admin
 * CLI) stops working within CONFIRM_MS on every instance: an entry not confirmed by a sweep that
 * began less than CONFIRM_MS ago is read again before it answers. The instance that makes the change
 * forgets the sessions at once.
 */
export const SESSION_CONFIRM_MS = 800;
const SWEEP_EVERY_MS = 250;
/** A cached session not used for this long is dropped (the next request reads it again). */
const CACHE_IDLE_MS = 60_000;

interface CachedSession {
  keyHash: string;
  row: SessionRow;
  /** When the read that gave `row` began (the monotonic clock). */
  confirmedAt: number;
  usedAt: number;
}

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
  /** Sessions in use by key hash, so that a request costs no query (see SESSION_CONFIRM_MS). */
  private readonly cache = new Map<string, CachedSession>();
  private sweeping = false;
  private lastSweep = 0;
  /** Database reads of a session by its key (for tests and /metrics). */
  sessionReads = 0;

  constructor(
    private readonly db: Database,
    private readonly cfg: AuthConfig,
    private readonly now: () => number = Date.now,
    /** The clock of the cache's confirmations, never set back. */
    private readonly monotonic: () => number = () => performance.now(),
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
    const keyHash = hashToken(token);
    const at = this.monotonic();
    let entry = this.cache.get(keyHash);
    if (entry && at - entry.confirmedAt >= SESSION_CONFIRM_MS) entry = undefined;
    if (!entry) {
      this.sessionReads++;
      const row = await sessionByKeyHash(this.db, keyHash);
      if (!row) {
        this.cache.delete(keyHash);
        return undefined;
      }
      entry = { keyHash, row, confirmedAt: at, usedAt: at };
      this.cache.set(keyHash, entry);
    }
    entry.usedAt = at;
    const now = this.now();
    const row = entry.row;
    if (!this.isLive(row, now)) {
      this.cache.delete(keyHash);
      return undefined;
    }
    if (now - row.last_used_at.getTime() >= TOUCH_EVERY_MS) {
      const absoluteEnd = row.created_at.getTime() + this.cfg.absoluteTtlMs;
      const expires = new Date(Math.min(now + this.cfg.idleTtlMs, absoluteEnd));
      await touchSession(this.db, row.api_key_id, new Date(now), expires);
      entry.row = { ...row, last_used_at: new Date(now), expires_at: expires };
    }
    if (at - this.lastSweep >= SWEEP_EVERY_MS) void this.sweep();
    return toSessionUser(row);
  }

  /**
   * Reads again, in one query, every cached session in use: a changed row replaces the cached one,
   * a session gone or no longer live is dropped, one not used for a minute is forgotten.
   */
  private async sweep(): Promise<void> {
    if (this.sweeping) return;
    this.sweeping = true;
    const began = this.monotonic();
    this.lastSweep = began;
    try {
      for (const [hash, e] of this.cache) if (began - e.usedAt >= CACHE_IDLE_MS) this.cache.delete(hash);
      const entries = [...this.cache.values()];
      if (entries.length === 0) return;
      const rows = new Map((await sessionsByIds(this.db, entries.map((e) => e.row.api_key_id))).map((r) => [r.api_key_id, r]));
      const now = this.now();
      for (const e of entries) {
        const row = rows.get(e.row.api_key_id);
        if (this.cache.get(e.keyHash) !== e) continue; // replaced or dropped meanwhile
        if (!row || !this.isLive(row, now)) this.cache.delete(e.keyHash);
        else if (e.confirmedAt < began) {
          e.row = row;
          e.confirmedAt = began;
        }
      }
    } catch {
      // A failed sweep confirms nothing: the entries age out and the next requests read again.
    } finally {
      this.sweeping = false;
    }
  }

  /** Forgets cached sessions (of one user, or one session), so that this instance refuses them at once. */
  private forget(match: (row: SessionRow) => boolean): void {
    for (const [hash, e] of this.cache) if (match(e.row)) this.cache.delete(hash);
  }

  /** Which of these sessions are still live (not revoked, not expired, their user active). */
  async liveSessions(apiKeyIds: readonly number[]): Promise<Set<number>> {
    return new Set(await liveSessionIds(this.db, apiKeyIds, new Date(this.now()), this.cfg.absoluteTtlMs));
  }

  /** Ends every session of a user (and their unspent tickets), in the caller's transaction if given. */
  async revokeAll(userId: number, tx: Queryable = this.db): Promise<number> {
    const revoked = await revokeSessionsOfUser(tx, userId, new Date(this.now()));
    await deleteTicketsOfUser(tx, userId);
    this.forget((row) => row.id === userId);
    return revoked.length;
  }

  /** Disables (or enables again) a user; disabling ends every session of theirs. */
  async setUserStatus(username: string, status: 'active' | 'disabled'): Promise<boolean> {
    const userId = await this.db.transaction(async (tx) => {
      const id = await updateUserStatus(tx, username, status);
      if (id === undefined) return undefined;
      const ended = status !== 'active' ? await this.revokeAll(id, tx) : 0;
      await audit(tx, id, status === 'active' ? 'users.enable' : 'users.disable', { username, sessions_ended: ended });
      return id;
    });
    // Again once committed: a request between the revocation and the commit read the row as it was.
    if (userId !== undefined) this.forget((row) => row.id === userId);
    return userId !== undefined;
  }

  /** Sets a new password hash and ends every session of the user. */
  async setPasswordHash(userId: number, passwordHash: string): Promise<void> {
    await this.db.transaction(async (tx) => {
      await updatePasswordHash(tx, userId, passwordHash);
      await this.endSessionsForNewPassword(tx, userId);
    });
    this.forget((row) => row.id === userId);
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
    const change = await this.db.transaction(async (tx) => {
      if ((await lockPasswordHash(tx, user.id)) !== user.password_hash) return { outcome: 'conflict' as const };
      await updatePasswordHash(tx, user.id, nextHash);
      await this.endSessionsForNewPassword(tx, user.id);
      return { outcome: 'changed' as const, userId: user.id };
    });
    if (change.outcome === 'changed') this.forget((row) => row.id === user.id);
    return change;
  }

  private async endSessionsForNewPassword(tx: Queryable, userId: number): Promise<void> {
    const ended = await this.revokeAll(userId, tx);
    await audit(tx, userId, 'account.password', { sessions_ended: ended });
  }

  async revoke(apiKeyId: number): Promise<void> {
    await revokeSession(this.db, apiKeyId, new Date(this.now()));
    this.forget((row) => row.api_key_id === apiKeyId);
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
