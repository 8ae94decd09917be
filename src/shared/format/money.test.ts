import { describe, expect, it } from 'vitest';
import {
  CURRENCY_SYMBOLS,
  currencySymbol,
  formatMoney,
  formatNavMoney,
  formatRebateMoney,
  normaliseCurrency,
} from './money.ts';

// fr-FR groups thousands with U+202F (narrow no-break space) and puts U+00A0 before the symbol.
describe('formatMoney (fr-FR, 2 decimals)', () => {
  it('formats with the currency', () => {
    expect(formatMoney(1234.5, 'USD')).toBe('1\u202f234,50\u00a0$US');
    expect(formatMoney(1234.5, 'EUR')).toBe('1\u202f234,50\u00a0€');
    expect(formatMoney(-1234567.891, 'EUR')).toBe('-1\u202f234\u202f567,89\u00a0€');
    expect(formatMoney(0.5, 'CHF')).toBe('0,50\u00a0CHF');
  });
  it('uses EUR when the currency is missing or blank', () => {
    expect(formatMoney(1234.5)).toBe('1\u202f234,50\u00a0€');
    expect(formatMoney(1234.5, null)).toBe('1\u202f234,50\u00a0€');
    expect(formatMoney(1234.5, ' ')).toBe('1\u202f234,50\u00a0€');
    expect(formatMoney(1, 'usd')).toBe('1,00\u00a0$US');
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

describe('formatNavMoney (de-DE, 2 decimals)', () => {
  it('uses dots for thousands and a comma for decimals', () => {
    expect(formatNavMoney(1234.5, 'USD')).toBe('1.234,50\u00a0$');
    expect(formatNavMoney(-1234567.891, 'EUR')).toBe('-1.234.567,89\u00a0€');
    expect(formatNavMoney(null, 'EUR')).toBe('0,00\u00a0€');
    expect(formatNavMoney(10, null)).toBe('10,00\u00a0€');
  });
});

describe('formatRebateMoney', () => {
  it('puts spaces between thousands, a decimal comma, and the symbol after', () => {
    expect(formatRebateMoney(12345.67, 'USD')).toBe('12\u00a0345,67\u00a0$');
    expect(formatRebateMoney(87.5, 'EUR')).toBe('87,50\u00a0€');
    expect(formatRebateMoney(1234567, 'GBP')).toBe('1\u00a0234\u00a0567,00\u00a0£');
    expect(formatRebateMoney(-5, 'CAD')).toBe('-5,00\u00a0C$');
  });
  it('uses the symbols of docs/product.md#constants and the code otherwise', () => {
    expect(formatRebateMoney(1, 'JPY')).toBe('1,00\u00a0¥');
    expect(formatRebateMoney(1, 'AUD')).toBe('1,00\u00a0A$');
    expect(formatRebateMoney(1, 'CHF')).toBe('1,00\u00a0CHF');
    expect(formatRebateMoney(1, 'SEK')).toBe('1,00\u00a0SEK');
    expect(formatRebateMoney(1)).toBe('1,00\u00a0€');
  });
  it('shows 0,00 for a non-numeric value', () => {
    expect(formatRebateMoney(undefined, 'USD')).toBe('0,00\u00a0$');
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
