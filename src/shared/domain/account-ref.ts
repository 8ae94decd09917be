/**
 * What an `account` parameter names (docs/architecture.md, "Scope and account parameters"): an
 * account_id, or else a login. An account whose account_id it is wins; otherwise the one account
 * with that login; several accounts with that login are ambiguous (the caller must give the
 * account_id), none is not found. Candidates are the accounts the caller may see, so the answer
 * never tells of an account outside them.
 */
export type AccountMatch<T> = { found: T } | { missing: true } | { ambiguous: number };

export function matchAccountRef<T extends { account_id: string; account: string }>(candidates: Iterable<T>, ref: string): AccountMatch<T> {
  const byLogin: T[] = [];
  for (const a of candidates) {
    if (a.account_id === ref) return { found: a };
    if (a.account === ref) byLogin.push(a);
  }
  if (byLogin.length === 1) return { found: byLogin[0]! };
  return byLogin.length === 0 ? { missing: true } : { ambiguous: byLogin.length };
}

/** The message for a login several accounts share. */
export const ambiguousAccountMessage = (ref: string, count: number): string =>
  `Account '${ref}' is ambiguous: ${count} accounts have this login. Give the account's account_id.`;
