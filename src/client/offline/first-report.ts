import type { Account } from '#shared/contract/accounts.ts';

/**
 * An account that never reported (a terminal registered, no report yet: `last_update` 0 in the
 * accounts answer) has no figures: it says so instead of 0,00, and is never a screen's default
 * account (docs/client.md, "Offline and stale data").
 */
export const WAITING_FIRST_REPORT = 'Waiting for the first report';

export function hasReported(account: Partial<Pick<Account, 'last_update'>>): boolean {
  return account.last_update === undefined || account.last_update > 0;
}

/** The default among `accounts` (in their order): the first that has reported, else the first. */
export function firstReported<T extends Partial<Pick<Account, 'last_update'>>>(accounts: readonly T[]): T | undefined {
  return accounts.find(hasReported) ?? accounts[0];
}
