import { describe, expect, it } from 'vitest';
import {
  CURRENCY_SYMBOLS,
  currencySymbol,
  formatMoney,
  formatNavMoney,
  formatRebateMoney,
  normaliseCurrency,
} from './money.ts';

// The one money format (docs/client.md): fr-FR figures (U+202F between thousands, decimal comma),
// 2 decimals, U+00A0, then the currency's own symbol, never a CLDR code ('$US', '£GB').
describe('formatMoney (fr-FR figures, the currency symbol, 2 decimals)', () => {
  it('writes the issue\'s balances one way: 77 244,83 £ and -196,36 $', () => {
    expect(formatMoney(77244.83, 'GBP')).toBe('77\u202f244,83\u00a0£');
    expect(formatMoney(-196.36, 'USD')).toBe('-196,36\u00a0$');
    expect(formatMoney(77244.83, 'GBP')).not.toMatch(/GB|US/);
    expect(formatMoney(1500, 'JPY')).toBe('1\u202f500,00\u00a0¥');
    expect(formatMoney(12.5, 'CHF')).toBe('12,50\u00a0CHF');
  });
  it('uses a narrow symbol for other currencies where one exists, else the code', () => {
    expect(formatMoney(1, 'INR')).toBe('1,00\u00a0₹');
    expect(formatMoney(1, 'SEK')).toBe('1,00\u00a0SEK');
  });
  it('formats with the currency', () => {
    expect(formatMoney(1234.5, 'USD')).toBe('1\u202f234,50\u00a0$');
    expect(formatMoney(1234.5, 'EUR')).toBe('1\u202f234,50\u00a0€');
    expect(formatMoney(-1234567.891, 'EUR')).toBe('-1\u202f234\u202f567,89\u00a0€');
    expect(formatMoney(0.5, 'CHF')).toBe('0,50\u00a0CHF');
  });
  it('uses EUR when the currency is missing or blank', () => {
    expect(formatMoney(1234.5)).toBe('1\u202f234,50\u00a0€');
    expect(formatMoney(1234.5, null)).toBe('1\u202f234,50\u00a0€');
    expect(formatMoney(1234.5, ' ')).toBe('1\u202f234,50\u00a0€');
    expect(formatMoney(1, 'usd')).toBe('1,00\u00a0$');
  });
  it('shows 0,00 for a non-numeric value (docs/product.md#validation)', () => {
    expect(formatMoney(null, 'EUR')).toBe('0,00\u00a0€');
    expect(formatMoney(undefined)).toBe('0,00\u00a0€');
    expect(formatMoney(Number.NaN, 'EUR')).toBe('0,00\u00a0€');
    expect(formatMoney('abc', 'EUR')).toBe('0,00\u00a0€');
    expect(formatMoney({}, 'EUR')).toBe('0,00\u00a0€');
  });
  it('reads numeric text, as NUMERIC columns arrive', () => {
    expect(formatMoney('1234.5', 'EUR')).toBe('1\u202f234,50\u00a0€');
  });
  it('never shows -0,00', () => {
    expect(formatMoney(-0.001, 'EUR')).toBe('0,00\u00a0€');
  });
  it('prints a malformed code after the number', () => {
    expect(formatMoney(1, 'US')).toBe('1,00\u00a0US');
  });
});

describe('NAV and rebates money', () => {
  it('are the one money format: the same balance reads the same on NAV, Rebates and every other screen', () => {
    for (const [value, currency] of [[77244.83, 'GBP'], [-1234567.891, 'EUR'], [null, 'EUR'], [10, null], [-5, 'CAD'], [1, 'AUD']] as const) {
      expect(formatNavMoney(value, currency)).toBe(formatMoney(value, currency));
      expect(formatRebateMoney(value, currency)).toBe(formatMoney(value, currency));
    }
    expect(formatNavMoney(77244.83, 'GBP')).toBe('77\u202f244,83\u00a0£');
    expect(formatRebateMoney(-5, 'CAD')).toBe('-5,00\u00a0C$');
  });
});

describe('currency symbols', () => {
  it('map the seven codes of docs/product.md#constants', () => {
    expect(CURRENCY_SYMBOLS).toEqual({ USD: '$', EUR: '€', GBP: '£', JPY: '¥', CAD: 'C$', AUD: 'A$', CHF: 'CHF' });
    expect(currencySymbol('usd')).toBe('$');
    expect(currencySymbol('toString')).toBe('TOSTRING');
    expect(normaliseCurrency(undefined)).toBe('EUR');
  });
});
