import type { SessionUser } from '#server/auth/auth-store.ts';
import { callerScope, inScope } from '#server/auth/scope.ts';
import { findAccountRef, type AccountRef } from '#server/db/accounts-repo.ts';
import type { Queryable } from '#server/db/database.ts';
import { notFound } from '#server/http/errors.ts';

export type { AccountRef };

/**
 * An account by account_id or login, if the caller's portfolios cover it. An account outside them
 * gets exactly the answer of an unknown one (404), so a caller cannot learn which accounts exist.
 */
export async function findAccount(db: Queryable, user: SessionUser, ref: string): Promise<AccountRef> {
  const account = await findAccountRef(db, ref);
  if (!account || !inScope(account.teiko_category, callerScope(user))) throw notFound(`Account not found: ${ref}`);
  return account;
}
