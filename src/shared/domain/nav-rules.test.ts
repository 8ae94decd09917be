import { describe, expect, it } from 'vitest';
import { parsePortfolio } from './portfolio-selection.ts';
import {
  compareMonths,
  defaultNavSort,
  filterHistoricalNav,
  filterRealtimeNav,
  firstAvailableDay,
  monthKeyLabel,
  monthOrdinal,
  navRowId,
  navRowInPortfolio,
  parseMonthKey,
  sortMonthKeysNewestFirst,
} from './nav-rules.ts';

describe('real-time and historical NAV rows', () => {
  it('real-time hides rows whose balance is zero', () => {
    const rows = [
      { id: 'a', balance: 100 },
      { id: 'b', balance: 0 },
      { id: 'c', balance: -5 },
    ];
    expect(filterRealtimeNav(rows).map((r) => r.id)).toEqual(['a', 'c']);
  });

  it('historical keeps the rows of the chosen month and day', () => {
    const rows = [
      { id: 1, date_id: '3.2026', date_day: 5 },
      { id: 2, date_id: '3.2026', date_day: 6 },
      { id: 3, date_id: '2.2026', date_day: 5 },
      { id: 4, date_id: '3.2026', date_day: '5' },
    ];
    expect(filterHistoricalNav(rows, '3.2026', 5).map((r) => r.id)).toEqual([1, 4]);
    expect(filterHistoricalNav(rows, '2.2026', '5').map((r) => r.id)).toEqual([3]);
    expect(filterHistoricalNav(rows, '4.2026', 5)).toEqual([]);
  });
});

describe('navRowInPortfolio (docs/product.md#validation)', () => {
  const row = (teiko_category: string, balance: number) => ({ teiko_category, balance });

  it('Consolidated keeps consolidate rows, and global rows with a non-zero balance', () => {
    const p = 'Consolidated Portfolio';
    expect(navRowInPortfolio(row('consolidate', 0), p)).toBe(true);
    expect(navRowInPortfolio(row('consolidate', 10), p)).toBe(true);
    expect(navRowInPortfolio(row('global forex', 10), p)).toBe(true);
    expect(navRowInPortfolio(row('global forex', 0), p)).toBe(false);
    expect(navRowInPortfolio(row('global equity', -1), p)).toBe(true);
    expect(navRowInPortfolio(row('global equity', 0), p)).toBe(false);
    expect(navRowInPortfolio(row('SMA', 10), p)).toBe(false);
  });

  it('a global portfolio keeps its own rows, and consolidate rows with a non-zero balance', () => {
    expect(navRowInPortfolio(row('global forex', 0), 'Global FX')).toBe(true);
    expect(navRowInPortfolio(row('consolidate', 10), 'Global FX')).toBe(true);
    expect(navRowInPortfolio(row('consolidate', 0), 'Global FX')).toBe(false);
    expect(navRowInPortfolio(row('global equity', 10), 'Global FX')).toBe(false);
    expect(navRowInPortfolio(row('global equity', 10), 'Global Equity')).toBe(true);
    expect(navRowInPortfolio(row('consolidate', 10), 'Global Equity')).toBe(true);
    expect(navRowInPortfolio(row('consolidate', 10), parsePortfolio('Global Forex'))).toBe(true);
  });

  it('SMA and AMC keep only their own rows', () => {
    expect(navRowInPortfolio(row('SMA', 10), 'SMA')).toBe(true);
    expect(navRowInPortfolio(row('consolidate', 10), 'SMA')).toBe(false);
    expect(navRowInPortfolio(row('AMC', 10), 'AMC')).toBe(true);
    expect(navRowInPortfolio(row('SMA', 10), 'AMC')).toBe(false);
  });

  it('an unknown portfolio keeps nothing', () => {
    expect(navRowInPortfolio(row('consolidate', 10), parsePortfolio('All'))).toBe(false);
  });
});

describe('NAV row id', () => {
  it('joins account_id, date_id and date_day', () => {
    expect(navRowId(42, '3.2026', 5)).toBe('42|3.2026|5');
    expect(navRowId('42', '3.2026', 5)).not.toBe(navRowId('42', '3.2026', 6));
  });
});

describe('month keys', () => {
  it('parse M.YYYY with M from 1 to 12', () => {
    expect(parseMonthKey('3.2026')).toEqual({ month: 3, year: 2026 });
    expect(parseMonthKey('12.2025')).toEqual({ month: 12, year: 2025 });
    expect(parseMonthKey('1.2024')).toEqual({ month: 1, year: 2024 });
  });
  it('reject anything else', () => {
    for (const key of ['0.2026', '13.2026', '03.2026', '3.26', '2026-03', '3/2026', ' 3.2026', '', 'March']) {
      expect(parseMonthKey(key)).toBeNull();
    }
  });
  it('label as month name plus year, a raw key otherwise', () => {
    expect(monthKeyLabel('3.2026')).toBe('March 2026');
    expect(monthKeyLabel('12.2025')).toBe('December 2025');
    expect(monthKeyLabel('1.2024', 'fr-FR')).toBe('janvier 2024');
    expect(monthKeyLabel('13.2026')).toBe('13.2026');
    expect(monthKeyLabel('latest')).toBe('latest');
  });
  it('order chronologically, M.YYYY and ISO alike', () => {
    expect(monthOrdinal('1.2026')).toBe(2026 * 12);
    expect(monthOrdinal('2026-03')).toBe(2026 * 12 + 2);
    expect(monthOrdinal('2026-03-01')).toBe(monthOrdinal('3.2026'));
    expect(monthOrdinal('2026-13')).toBeNull();
    expect(compareMonths('12.2025', '1.2026')).toBeLessThan(0);
    expect(compareMonths('2026-02-01', '1.2026')).toBeGreaterThan(0);
    expect(compareMonths('3.2026', '2026-03')).toBe(0);
    expect(compareMonths('x', '1.2026')).toBeLessThan(0);
  });
  it('sort newest first, unparseable keys last in their order', () => {
    expect(sortMonthKeysNewestFirst(['2.2026', 'b', '11.2025', '12.2025', 'a', '1.2026'])).toEqual([
      '2.2026',
      '1.2026',
      '12.2025',
      '11.2025',
      'b',
      'a',
    ]);
    // 10.2025 is newer than 9.2025 though it sorts earlier as text.
    expect(sortMonthKeysNewestFirst(['9.2025', '10.2025'])).toEqual(['10.2025', '9.2025']);
  });
  it('start a month on its first available day', () => {
    const available = { '3.2026': ['2026-03-02', '2026-03-03'], '2.2026': [] };
    expect(firstAvailableDay(available, '3.2026')).toBe('2026-03-02');
    expect(firstAvailableDay(available, '2.2026')).toBeUndefined();
    expect(firstAvailableDay(available, 'toString')).toBeUndefined();
  });
});

describe('defaultNavSort', () => {
  it('orders by broker, then account name', () => {
    const rows = [
      { broker_name: 'IBKR', account_name: 'Beta' },
      { broker_name: 'Avatrade', account_name: 'Zeta' },
      { broker_name: 'IBKR', account_name: 'Alpha 10' },
      { broker_name: 'IBKR', account_name: 'Alpha 9' },
    ];
    expect([...rows].sort(defaultNavSort)).toEqual([
      { broker_name: 'Avatrade', account_name: 'Zeta' },
      { broker_name: 'IBKR', account_name: 'Alpha 9' },
      { broker_name: 'IBKR', account_name: 'Alpha 10' },
      { broker_name: 'IBKR', account_name: 'Beta' },
    ]);
  });
});
