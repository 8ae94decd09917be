import type { SessionUser } from '#server/auth/auth-store.ts';
import { assertPortfolio } from '#server/auth/guard.ts';
import { authorisedPortfolios, inScope } from '#server/auth/scope.ts';
import type { Queryable } from '#server/db/database.ts';
import { notFound } from '#server/http/errors.ts';
import { portfolioOfCategory } from '#shared/domain/portfolios.ts';

export interface AccountRef {
  id: number;
  account_id: string;
  account: string;
  account_name: string;
  broker_name: string;
  teiko_category: string;
  currency: string;
  server: string;
}

/** An account by account_id or login, if the caller's portfolios cover it: 404 unknown, 403 outside. */
export async function findAccount(db: Queryable, user: SessionUser, ref: string): Promise<AccountRef> {
  const rows = await db.query<AccountRef>(
    `SELECT a.id, a.account_id, a.account, a.account_name, b.broker_name, a.teiko_category, a.currency, a.server
     FROM accounts a JOIN brokers b ON b.id = a.broker_id WHERE a.account_id = $1 OR a.account = $1 LIMIT 1`,
    [ref],
  );
  const account = rows[0];
  if (!account) throw notFound(`Account not found: ${ref}`);
  if (!inScope(account.teiko_category, authorisedPortfolios(user))) {
    assertPortfolio(user, portfolioOfCategory(account.teiko_category) ?? account.teiko_category);
  }
  return account;
}
