import type { AuthStore } from '#server/auth/auth-store.ts';
import { hashPassword } from '#server/auth/password.ts';
import { PORTFOLIOS } from '#shared/domain/portfolios.ts';

/** The demo logins of DESIGN.md, seeded in demo mode and listed in the README. */
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

export async function seedDemoUsers(store: AuthStore): Promise<void> {
  for (const u of DEMO_USERS) {
    if (await store.findUser(u.username)) continue;
    await store.upsertUser({
      username: u.username,
      password_hash: await hashPassword(u.password),
      status: 'active',
      permissions: [...u.permissions],
      portfolio_auth: [...u.portfolio_auth],
    });
  }
}
