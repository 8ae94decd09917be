import { insertAccount, type NewAccount } from './accounts-repo.ts';
import { insertAudit } from './audit-repo.ts';
import type { Queryable } from './database.ts';
import { IS_MASTER, ROLE_JOIN } from './copy-relations-repo.ts';

/**
 * What the operator's admin CLI (src/server/admin) registers and reads that the other repositories
 * do not cover: users by name, brokers by name, accounts registered for terminal agents
 * (registered by an operator), agents by name whether revoked or not, and audit rows written by no signed-in user.
 */

export interface NewRegisteredUser {
  username: string;
  password_hash: string;
  permissions: string[];
  portfolio_auth: string[];
}

/** Adds an active user; undefined (nothing written) when that name is taken, in any case. */
export async function insertNewUser(q: Queryable, u: NewRegisteredUser): Promise<number | undefined> {
  const rows = await q.query<{ id: number }>(
    `INSERT INTO users (username, password_hash, status, permissions, portfolio_auth)
     VALUES ($1, $2, 'active', $3, $4) ON CONFLICT DO NOTHING RETURNING id`,
    [u.username, u.password_hash, u.permissions, u.portfolio_auth],
  );
  return rows[0]?.id;
}

export interface UserListRow {
  username: string;
  status: string;
  permissions: string[];
  portfolio_auth: string[];
  created_at: Date;
}

export async function listUsers(q: Queryable): Promise<UserListRow[]> {
  return q.query<UserListRow>('SELECT username, status, permissions, portfolio_auth, created_at FROM users ORDER BY username');
}

/** A broker by name, whatever its case (names are unique regardless of case). */
export async function brokerByName(q: Queryable, name: string): Promise<{ id: number; broker_name: string } | undefined> {
  const rows = await q.query<{ id: number; broker_name: string }>('SELECT id, broker_name FROM brokers WHERE lower(broker_name) = lower($1)', [name]);
  return rows[0];
}

/** An account by its login on a trading server. */
export interface RegisteredAccountRef {
  id: number;
  account_id: string;
  account: string;
  server: string;
  account_name: string;
  is_master: boolean;
  source: string;
  /** Its portfolio category (the fee terms' default follows it). */
  teiko_category: string;
}

export async function accountByLogin(q: Queryable, login: string, server: string): Promise<RegisteredAccountRef | undefined> {
  const rows = await q.query<RegisteredAccountRef>(
    `SELECT a.id, a.account_id, a.account, a.server, a.account_name, ${IS_MASTER} AS is_master, a.source, a.teiko_category
       FROM accounts a ${ROLE_JOIN}
      WHERE a.account = $1 AND a.server = $2`,
    [login, server],
  );
  return rows[0];
}

export async function accountNameTaken(q: Queryable, accountName: string): Promise<boolean> {
  return (await q.query('SELECT 1 FROM accounts WHERE account_name = $1', [accountName])).length > 0;
}

export async function accountIdTaken(q: Queryable, accountId: string): Promise<boolean> {
  return (await q.query('SELECT 1 FROM accounts WHERE account_id = $1', [accountId])).length > 0;
}

/** An account an operator registers, for the adapter that feeds it (`source`: a terminal agent, a broker's statements). */
export type NewRegisteredAccount = Omit<NewAccount, 'ping' | 'last_update'>;

/** Registers an account an adapter will feed. Its freshness counts from now: red after 2 minutes without a report, alerted on after 10. */
export async function insertRegisteredAccount(q: Queryable, a: NewRegisteredAccount): Promise<number> {
  return insertAccount(q, { ...a, ping: 0, last_update: Math.floor(Date.now() / 1000) });
}

export interface AccountListRow {
  account_id: string;
  account: string;
  server: string;
  account_name: string;
  broker_name: string;
  teiko_category: string;
  currency: string;
  is_master: boolean;
  /** login@server of its master; null for a master */
  master: string | null;
  /** Its relation's sizing ('ratio', 'equity', 'fixed') and number; null for a master. */
  sizing: 'ratio' | 'equity' | 'fixed' | null;
  sizing_value: number | null;
  leverage: number;
  source: string;
}

export async function listAccountRegistry(q: Queryable): Promise<AccountListRow[]> {
  return q.query<AccountListRow>(
    `SELECT a.account_id, a.account, a.server, a.account_name, b.broker_name, a.teiko_category, a.currency, ${IS_MASTER} AS is_master,
            CASE WHEN m.id IS NULL THEN NULL ELSE m.account || '@' || m.server END AS master,
            cr.sizing, cr.sizing_value, a.leverage, a.source
     FROM accounts a JOIN brokers b ON b.id = a.broker_id
     ${ROLE_JOIN}
     LEFT JOIN accounts m ON m.id = cr.master_id
     ORDER BY b.broker_name, a.account_name`,
  );
}

/** An agent by name in any case, revoked or not (a name stays taken after its key is revoked). */
export async function agentByName(q: Queryable, name: string): Promise<{ id: number; name: string; revoked_at: Date | null } | undefined> {
  const rows = await q.query<{ id: number; name: string; revoked_at: Date | null }>('SELECT id, name, revoked_at FROM agents WHERE lower(name) = lower($1)', [name]);
  return rows[0];
}

/** An audit row for a change made from the admin CLI (no signed-in user made it). */
export async function auditOperator(q: Queryable, action: string, detail: object): Promise<void> {
  await insertAudit(q, null, action, { ...detail, via: 'admin cli' });
}
