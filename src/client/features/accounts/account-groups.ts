import { firstReported } from '#client/offline/first-report.ts';
import type { Account } from '#shared/contract/accounts.ts';
import { compareValues } from '#shared/domain/sorting.ts';

/** Accounts in sidebar order: grouped by broker name, brokers and accounts alphabetical (docs/product.md#screens). */
export function accountsByBroker<T extends Pick<Account, 'broker_name' | 'account_name' | 'account_id'>>(accounts: readonly T[]): T[] {
  return accounts.toSorted(
    (a, b) =>
      compareValues(a.broker_name, b.broker_name) ||
      compareValues(a.account_name, b.account_name) ||
      compareValues(a.account_id, b.account_id),
  );
}

/**
 * The account on screen: the chosen one while it is still listed, otherwise the first account of
 * the first broker group (docs/product.md#screens: selected automatically on arrival and after a portfolio change).
 */
export function effectiveAccountId(
  ordered: readonly (Pick<Account, 'account_id'> & Partial<Pick<Account, 'last_update'>>)[],
  chosen: string | null,
): string | null {
  if (chosen !== null && ordered.some((a) => a.account_id === chosen)) return chosen;
  // An account that never reported is never the default.
  return firstReported(ordered)?.account_id ?? null;
}
