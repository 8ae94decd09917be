import type { SessionUser } from '#server/auth/auth-store.ts';
import { authorisedPortfolios, inScope } from '#server/auth/scope.ts';
import type { Queryable } from '#server/db/database.ts';
import { notFound } from '#server/http/errors.ts';

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

/**
 * An account by account_id or login, if the caller's portfolios cover it. An account outside them
 * gets exactly the answer of an unknown one (404), so a caller cannot learn which accounts exist.
 */
export async function findAccount(db: Queryable, user: SessionUser, ref: string): Promise<AccountRef> {
  const rows = await db.query<AccountRef>(
    `SELECT a.id, a.account_id, a.account, a.account_name, b.broker_name, a.teiko_category, a.currency, a.server
     FROM accounts a JOIN brokers b ON b.id = a.broker_id WHERE a.account_id = $1 OR a.account = $1 LIMIT 1`,
    [ref],
  );
  const account = rows[0];
  if (!account || !inScope(account.teiko_category, authorisedPortfolios(user))) throw notFound(`Account not found: ${ref}`);
  return account;
}
