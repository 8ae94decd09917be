import { describe, expect, it } from 'vitest';
import { currencyDigits, disagreement, money } from './stated.ts';

describe("money in the importer's messages", () => {
  it('prints a currency with two decimals as MetaTrader does: a space between thousands, a hyphen for a loss', () => {
    expect(money(-14_030.71, 'USD')).toBe('-14 030.71');
    expect(money(108_205.65, 'USD')).toBe('108 205.65');
    expect(money(50.6, 'EUR')).toBe('50.60');
  });

  it('prints yen, which have no decimals, without ".00": 3 000 691 JPY', () => {
    expect(money(3_000_691, 'JPY')).toBe('3 000 691');
    expect(money(-427, 'JPY')).toBe('-427');
  });

  it("takes each currency's decimals from the runtime's currency data, not a list of its own", () => {
    // ISO 4217: yen, Icelandic króna and Chilean peso have none; Kuwaiti dinar has three.
    expect(['JPY', 'ISK', 'CLP', 'KWD', 'USD'].map(currencyDigits)).toEqual([0, 0, 0, 3, 2]);
    expect(money(12.5, 'KWD')).toBe('12.500');
  });

  it('prints two decimals without a currency, or for a code that is no currency', () => {
    expect(money(1_234.5)).toBe('1 234.50');
    expect(money(1_234.5, 'not a code')).toBe('1 234.50');
  });

  it('never prints "-0" for a loss that rounds to nothing', () => {
    expect(money(-0.4, 'JPY')).toBe('0');
  });
});

describe('a JPY statement that disagrees with itself', () => {
  it('names its figures in whole yen', () => {
    // Stated 3 000 264; the rows add up to 3 000 691 − 427 + 150 = 3 000 414: a difference of −150.
    expect(disagreement(3_000_264, 3_000_414, 'JPY')).toBe(
      "The report states a balance of 3 000 264 JPY, but its rows add up to 3 000 414 JPY (a difference of -150 JPY): the rows are imported as they are, so the account's balance will be 3 000 414 JPY.",
    );
  });
});
