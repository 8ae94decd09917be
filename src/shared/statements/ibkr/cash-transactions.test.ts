import { describe, expect, it } from 'vitest';
import { fixture } from '../../../../tests/fixtures/ibkr/files.ts';
import { parseFlex } from './flex.ts';

/* The CashTransactions section over self-made files (tests/fixtures/ibkr); figures worked out by hand. */

const statementOf = (name: string) => parseFlex(fixture(name), name).statements[0];

describe('dividends, withholding tax and their reversals (income.xml)', () => {
  const statement = statementOf('income.xml');
  const rows = (statement?.events ?? []).map((e) => (e.kind === 'income' ? [e.ref, e.income, e.amount, e.symbol] : [e.ref, e.kind]));

  it('keeps IB’s sign: a reversed dividend stays a negative dividend, a refunded tax a positive tax', () => {
    expect(rows).toEqual([
      [10001, 'dividend', 100, 'DIV'],
      [10002, 'withholding_tax', -15, 'DIV'],
      [10003, 'dividend', -100, 'DIV'],
      [10004, 'withholding_tax', 15, 'DIV'],
      [10005, 'dividend', 110, 'DIV'],
      [10006, 'dividend', 20, 'DIV'],
    ]);
  });

  it('books the DETAIL rows and not the SUMMARY row repeating them: 100 − 15 − 100 + 15 + 110 + 20 = 130 USD', () => {
    expect(statement?.cash).toEqual([{ currency: 'USD', start: 0, end: 130, stated: false, realized: 0, commissions: 0 }]);
  });
});

describe('deposits, withdrawals, an internal transfer and fees (cash-flows.xml)', () => {
  const statement = statementOf('cash-flows.xml');
  const byRef = new Map((statement?.events ?? []).map((e) => [e.ref, e]));

  it('tells a deposit, a withdrawal and a transfer from another IB account apart', () => {
    expect(byRef.get(11001)).toMatchObject({ kind: 'cash', flow: 'deposit', amount: 1000 });
    expect(byRef.get(11002)).toMatchObject({ kind: 'cash', flow: 'withdrawal', amount: -200 });
    expect(byRef.get(11003)).toMatchObject({ kind: 'cash', flow: 'transfer', amount: 300 });
  });

  it('books interest and commission adjustments as such', () => {
    expect(byRef.get(11004)).toMatchObject({ kind: 'income', income: 'interest', amount: 1.5 });
    expect(byRef.get(11005)).toMatchObject({ kind: 'income', income: 'commission', amount: -0.5 });
  });

  it('keeps both of two fees that cancel each other on one day, each with a ref of its own', () => {
    const fees = (statement?.events ?? []).filter((e) => e.kind === 'income' && e.income === 'fee');
    expect(fees.map((e) => (e.kind === 'income' ? e.amount : 0))).toEqual([-5, 5]);
    expect(fees[0]?.ref).not.toBe(fees[1]?.ref);
    // 1000 − 200 + 300 + 1.5 − 5 + 5 − 0.5 = 1101 EUR.
    expect(statement?.cash[0]?.end).toBe(1101);
  });
});
