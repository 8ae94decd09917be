import { describe, expect, it } from 'vitest';
import { accountsByBroker, effectiveAccountId } from './account-groups.ts';

const acc = (broker_name: string, account_name: string, account_id: string) => ({ broker_name, account_name, account_id });

describe('accounts sidebar order', () => {
  const list = [acc('IBKR', 'Beta', '3'), acc('Avatrade', 'Zed', '2'), acc('IBKR', 'Alpha', '1'), acc('Avatrade', 'Ann', '4')];

  it('groups by broker name and sorts accounts inside a group', () => {
    expect(accountsByBroker(list).map((a) => a.account_id)).toEqual(['4', '2', '1', '3']);
  });

  it('selects the first account of the first broker group unless the chosen one is listed', () => {
    const ordered = accountsByBroker(list);
    expect(effectiveAccountId(ordered, null)).toBe('4');
    expect(effectiveAccountId(ordered, '3')).toBe('3');
    expect(effectiveAccountId(ordered, 'gone')).toBe('4');
    expect(effectiveAccountId([], 'x')).toBeNull();
  });

  it('never defaults to an account that has not reported yet (last_update 0)', () => {
    const ordered = [{ account_id: 'new', last_update: 0 }, { account_id: 'old', last_update: 1_700_000_000 }];
    expect(effectiveAccountId(ordered, null)).toBe('old');
    expect(effectiveAccountId(ordered, 'new')).toBe('new');
    expect(effectiveAccountId([{ account_id: 'new', last_update: 0 }], null)).toBe('new');
  });
});
