import { ambiguousAccountMessage } from '#shared/domain/account-ref.ts';
import type { SessionUser } from '#server/auth/auth-store.ts';
import { callerScope } from '#server/auth/scope.ts';
import { findAccountRef, type AccountRef } from '#server/db/accounts-repo.ts';
import type { Queryable } from '#server/db/database.ts';
import { badRequest, notFound } from '#server/http/errors.ts';

/**
 * The account an `account` parameter names among the caller's portfolios: by account_id first, else
 * the one account with that login; a login several of them share is a 400 asking for the
 * account_id. An account outside them gets exactly the answer of an unknown one (404), so a caller
 * cannot learn which accounts exist.
 */
export async function findAccount(db: Queryable, user: SessionUser, ref: string): Promise<AccountRef> {
  const match = await findAccountRef(db, ref, callerScope(user));
  if ('found' in match) return match.found;
  if ('ambiguous' in match) throw badRequest(ambiguousAccountMessage(ref, match.ambiguous));
  throw notFound(`Account not found: ${ref}`);
}
