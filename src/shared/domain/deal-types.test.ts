import { describe, expect, it } from 'vitest';
import { balanceEffect, dealRole, dealTypeLabel } from './deal-types.ts';

const deal = (type: number, money: Partial<{ profit: number; commission: number; fee: number; swap: number }> = {}) => ({
  type, profit: 0, commission: 0, fee: 0, swap: 0, ...money,
});

describe('what each MT5 deal type is to the books', () => {
  it('buy and sell are trades; balance and bonus cash flows; agent commissions rebates', () => {
    expect([0, 1].map(dealRole)).toEqual(['trade', 'trade']);
    expect([2, 6].map(dealRole)).toEqual(['flow', 'flow']);
    expect([10, 11].map(dealRole)).toEqual(['rebate', 'rebate']);
  });

  it('charge, correction, the commissions, interest, dividends and tax are results of the account', () => {
    expect([4, 5, 7, 8, 9, 12, 15, 16, 17].map(dealRole)).toEqual(Array(9).fill('result'));
  });

  it('credit, canceled buy and sell, and types MT5 does not define move nothing', () => {
    expect([3, 13, 14, 18, 19, 20].map(dealRole)).toEqual(Array(6).fill('none'));
  });
});

describe('what a deal does to the balance', () => {
  it("is the deal's profit, commission, fee and swap, to the cent", () => {
    // A closing trade: +150.00 − 1.75 − 0.30 − 0.45 = 147.50.
    expect(balanceEffect(deal(1, { profit: 150, commission: -1.75, fee: -0.3, swap: -0.45 }))).toBe(147.5);
    // A commission deal whose money a terminal reports in its commission column: −7.00.
    expect(balanceEffect(deal(7, { commission: -7 }))).toBe(-7);
    // 0.10 + 0.20 is 0.30 to the cent.
    expect(balanceEffect(deal(12, { profit: 0.1, swap: 0.2 }))).toBe(0.3);
  });

  it('is nothing for a credit (kept apart from the balance) and a canceled order', () => {
    expect([balanceEffect(deal(3, { profit: 500 })), balanceEffect(deal(13, { profit: 1 })), balanceEffect(deal(14))]).toEqual([0, 0, 0]);
  });
});

describe("the deal list's name of a balance row", () => {
  it('comes from the MT5 type where the kind does not say it', () => {
    expect([4, 5, 6, 7, 8, 9, 12, 15, 16, 17].map(dealTypeLabel)).toEqual([
      'Charge', 'Correction', 'Bonus', 'Commission', 'Daily commission', 'Monthly commission', 'Interest', 'Dividend', 'Franked dividend', 'Tax',
    ]);
    expect([null, 2, 10, 11].map(dealTypeLabel)).toEqual([null, null, null, null]);
  });
});
