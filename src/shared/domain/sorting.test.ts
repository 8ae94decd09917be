import { describe, expect, it } from 'vitest';
import { compareDirected, compareValues, nextSort, sortRows } from './sorting.ts';

describe('nextSort', () => {
  it('sorts a newly clicked column ascending', () => {
    expect(nextSort(null, 'balance')).toEqual({ key: 'balance', direction: 'asc' });
    expect(nextSort({ key: 'equity', direction: 'desc' }, 'balance')).toEqual({ key: 'balance', direction: 'asc' });
  });
  it('flips the direction on the same column: asc → desc → asc', () => {
    const first = nextSort(null, 'balance');
    const second = nextSort(first, 'balance');
    expect(second).toEqual({ key: 'balance', direction: 'desc' });
    expect(nextSort(second, 'balance')).toEqual({ key: 'balance', direction: 'asc' });
  });
});

describe('compareValues', () => {
  it('compares numbers numerically', () => {
    expect(compareValues(2, 10)).toBeLessThan(0);
    expect(compareValues(-1, -3)).toBeGreaterThan(0);
    expect(compareValues(4, 4)).toBe(0);
  });
  it('compares text with numeric awareness, ignoring case', () => {
    expect(compareValues('Account 9', 'Account 10')).toBeLessThan(0);
    expect(compareValues('b', 'A')).toBeGreaterThan(0);
    expect(compareValues('eur', 'EUR')).toBe(0);
  });
  it('puts null, undefined and NaN last', () => {
    expect(compareValues(null, 1)).toBe(1);
    expect(compareValues(1, undefined)).toBe(-1);
    expect(compareValues(Number.NaN, 'a')).toBe(1);
    expect(compareValues(null, undefined)).toBe(0);
  });
  it('keeps missing values last when descending', () => {
    expect(compareDirected(null, 5, 'desc')).toBe(1);
    expect(compareDirected(5, null, 'desc')).toBe(-1);
    expect(compareDirected(2, 10, 'desc')).toBeGreaterThan(0);
  });
});

describe('sortRows', () => {
  const rows = [
    { name: 'b', balance: 20 },
    { name: 'a', balance: null },
    { name: 'c', balance: 5 },
  ];
  it('sorts a copy by the state key and direction, missing last both ways', () => {
    expect(sortRows(rows, { key: 'balance', direction: 'asc' }).map((r) => r.name)).toEqual(['c', 'b', 'a']);
    expect(sortRows(rows, { key: 'balance', direction: 'desc' }).map((r) => r.name)).toEqual(['b', 'c', 'a']);
    expect(sortRows(rows, null)).toEqual(rows);
    expect(rows.map((r) => r.name)).toEqual(['b', 'a', 'c']);
  });
  it('reads computed columns through valueOf', () => {
    const sorted = sortRows(rows, { key: 'len', direction: 'desc' }, (row) => (row.balance ?? 0) * -1);
    expect(sorted.map((r) => r.name)).toEqual(['a', 'c', 'b']);
  });
});
