import { describe, expect, it } from 'vitest';
import { hashRef, idOf, RowRefs } from './refs.ts';

/* Refs: IB's ids where a row has one, else a stable hash that cannot collide with them. */

describe('refs of rows', () => {
  it("takes IB's transactionID, else its tradeID", () => {
    const refs = new RowRefs();
    expect(refs.of('Trade', { transactionID: '598954750', tradeID: '215797209' })).toBe(598954750);
    expect(refs.of('Trade', { transactionID: '', tradeID: '215797209' })).toBe(215797209);
  });

  it('reads no id from an empty, zero, negative, fractional or unsafe value', () => {
    for (const value of ['', '0', '-5', '1.5', 'N/A', '99999999999999999', undefined]) expect(idOf(value)).toBeNull();
  });

  it('hashes a row without an id into [2^52, 2^53), the same every time', () => {
    const row = { accountId: 'U1', currency: 'CHF', dateTime: '2013-01-03', amount: '-10', type: 'Other Fees' };
    const first = new RowRefs().of('CashTransaction', row);
    expect(new RowRefs().of('CashTransaction', row)).toBe(first);
    expect(first).toBeGreaterThanOrEqual(2 ** 52);
    expect(first).toBeLessThanOrEqual(Number.MAX_SAFE_INTEGER);
  });

  it('gives the same row listed twice in a statement two refs, each stable', () => {
    const row = { accountId: 'U1', currency: 'CHF', dateTime: '2013-01-03', amount: '-10', type: 'Other Fees' };
    const refs = new RowRefs();
    const [a, b] = [refs.of('CashTransaction', row), refs.of('CashTransaction', row)];
    expect(a).not.toBe(b);
    const again = new RowRefs();
    expect([again.of('CashTransaction', row), again.of('CashTransaction', row)]).toEqual([a, b]);
  });

  it('is FNV-1a: different text, different hash', () => {
    expect(hashRef('a')).not.toBe(hashRef('b'));
    expect(hashRef('')).toBe(2 ** 52 + Number(0xcbf29ce484222325n % 2n ** 52n));
  });
});
