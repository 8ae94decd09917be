import { describe, expect, it } from 'vitest';
import { matchAccountRef } from './account-ref.ts';

const a = (account_id: string, account: string) => ({ account_id, account });

describe('matchAccountRef', () => {
  it('takes the account whose account_id it is before any whose login it is', () => {
    const byLogin = a('A2', '1001');
    const byId = a('1001', '5000');
    expect(matchAccountRef([byLogin, byId], '1001')).toEqual({ found: byId });
  });

  it('takes a login only when exactly one account has it', () => {
    const one = a('A1', '7');
    expect(matchAccountRef([one, a('A2', '8')], '7')).toEqual({ found: one });
    expect(matchAccountRef([a('A1', '7'), a('A2', '7')], '7')).toEqual({ ambiguous: 2 });
    expect(matchAccountRef([a('A1', '7')], 'nope')).toEqual({ missing: true });
  });
});
