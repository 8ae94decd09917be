import type { AuthStore } from '#server/auth/auth-store.ts';
import { hashPassword } from '#server/auth/password.ts';
import { countAccounts } from '#server/db/accounts-repo.ts';
import type { Queryable } from '#server/db/database.ts';
import { countUsersExcept } from '#server/db/users-repo.ts';
import { PORTFOLIOS } from '#shared/domain/portfolios.ts';

const DEMO_NAMES: readonly string[] = ['admin', 'manager', 'investor'];

/**
 * Is this database waiting for the demo? True when it holds no accounts and no user but the demo
 * users: an empty database, or one whose first start was cut off before its history was written.
 */
export async function awaitsDemo(db: Queryable): Promise<boolean> {
  return (await countAccounts(db)) === 0 && (await countUsersExcept(db, DEMO_NAMES)) === 0;
}

/** The demo logins, seeded in demo mode and listed in the README. */
export const DEMO_USERS = [
  { username: 'admin', password: 'admin-demo', permissions: ['write', 'read_rebate'], portfolio_auth: [...PORTFOLIOS] },
  {
    username: 'manager',
    password: 'manager-demo',
    permissions: ['read_rebate'],
    portfolio_auth: ['Global FX', 'Global Equity', 'SMA'],
  },
  { username: 'investor', password: 'investor-demo', permissions: [], portfolio_auth: ['Global FX'] },
] as const;

/** Adds the demo users that are missing (in the caller's transaction when given). */
export async function seedDemoUsers(store: AuthStore, tx?: Queryable): Promise<void> {
  for (const u of DEMO_USERS) {
    if (await store.findUser(u.username, tx)) continue;
    await store.upsertUser({
      username: u.username,
      password_hash: await hashPassword(u.password),
      status: 'active',
      permissions: [...u.permissions],
      portfolio_auth: [...u.portfolio_auth],
    }, tx);
  }
}
