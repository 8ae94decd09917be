import { describe, expect, it } from 'vitest';
import { formatPercent, formatPrice, formatProfit, formatQuantity, MISSING_VALUE, toFiniteNumber } from './numbers.ts';

describe('formatPrice', () => {
  it('shows 5 decimals with a dot and no grouping', () => {
    expect(formatPrice(1.085)).toBe('1.08500');
    expect(formatPrice(150.2)).toBe('150.20000');
    expect(formatPrice(1234.5)).toBe('1234.50000');
    expect(formatPrice(1.234567)).toBe('1.23457');
  });
  it('shows a known instrument at its digits (src/shared/domain/instruments.ts)', () => {
    expect(formatPrice(0.8564, 'EURGBP')).toBe('0.85640');
    expect(formatPrice(161.25, 'USDJPY')).toBe('161.250');
    expect(formatPrice(2650.4, 'XAUUSD')).toBe('2650.40');
    expect(formatPrice(498.68, 'AAPL.US')).toBe('498.68');
    expect(formatPrice(42000.5, 'US30')).toBe('42000.50');
  });
  it('shows — when missing', () => {
    expect(formatPrice(null)).toBe('—');
    expect(formatPrice(null, 'EURGBP')).toBe('—');
    expect(formatPrice(Number.NaN)).toBe(MISSING_VALUE);
  });
});

describe('formatPercent', () => {
  it('takes percent units and shows 2 decimals with a comma', () => {
    expect(formatPercent(12.345)).toBe('12,35\u00a0%');
    expect(formatPercent(0.35)).toBe('0,35\u00a0%');
    expect(formatPercent(-4)).toBe('-4,00\u00a0%');
    expect(formatPercent(1234.5)).toBe('1\u202f234,50\u00a0%');
  });
  it('shows — when missing', () => {
    expect(formatPercent(undefined)).toBe('—');
  });
});

describe('formatProfit', () => {
  it('shows 2 or 5 decimals, French style', () => {
    expect(formatProfit(-1234.5)).toBe('-1\u202f234,50');
    expect(formatProfit(12.3456789, 5)).toBe('12,34568');
    expect(formatProfit(660, 2)).toBe('660,00');
  });
  it('shows zero for a non-numeric profit, as money does', () => {
    expect(formatProfit(null)).toBe('0,00');
    expect(formatProfit(Number.NaN, 5)).toBe('0,00000');
  });
});

describe('formatQuantity', () => {
  it('shows lots at 2 decimals, so 0,30 lines up beside 0,41', () => {
    expect(formatQuantity(0.01)).toBe('0,01');
    expect(formatQuantity(0.3)).toBe('0,30');
    expect(formatQuantity(0.41)).toBe('0,41');
    expect(formatQuantity(1.5)).toBe('1,50');
    expect(formatQuantity(1500)).toBe('1\u202f500,00');
    expect(formatQuantity(0.126)).toBe('0,13');
  });
  it('shows — when missing', () => {
    expect(formatQuantity(null)).toBe('—');
  });
});

describe('toFiniteNumber', () => {
  it('reads finite numbers and plain numeric text only', () => {
    expect(toFiniteNumber(3)).toBe(3);
    expect(toFiniteNumber(' -2.5 ')).toBe(-2.5);
    expect(toFiniteNumber('1e3')).toBe(1000);
    expect(toFiniteNumber('')).toBeNull();
    expect(toFiniteNumber('0x10')).toBeNull();
    expect(toFiniteNumber(Number.POSITIVE_INFINITY)).toBeNull();
    expect(toFiniteNumber(true)).toBeNull();
  });
});
