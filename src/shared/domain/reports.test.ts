import { describe, expect, it } from 'vitest';
import { fileSegment, monthLabel, navDayIso, navDayLabel, navReportFileName, rebatesReportFileName } from './reports.ts';

describe('report file names (docs/product.md#constants)', () => {
  it('nav_report_{portfolio}_{date}.pdf with spaces as underscores', () => {
    expect(navReportFileName('Consolidated Portfolio', '2026-03-05')).toBe('nav_report_Consolidated_Portfolio_2026-03-05.pdf');
    expect(navReportFileName('SMA', '2026-11-30')).toBe('nav_report_SMA_2026-11-30.pdf');
  });

  it('rebates_report_{portfolio}_{grouping}_{month}.pdf, All_Months without a month', () => {
    expect(rebatesReportFileName('All', 'account', null)).toBe('rebates_report_All_account_All_Months.pdf');
    expect(rebatesReportFileName('Global FX', 'broker', '2026-03')).toBe('rebates_report_Global_FX_broker_2026-03.pdf');
  });

  it('drops characters a file system may refuse', () => {
    expect(fileSegment(' a/b\\c:d ')).toBe('abcd');
    expect(fileSegment('///')).toBe('report');
  });
});

describe('NAV days and month labels', () => {
  it('ISO and French dates of a month key and day', () => {
    expect(navDayIso('3.2026', 5)).toBe('2026-03-05');
    expect(navDayIso('12.2025', 31)).toBe('2025-12-31');
    expect(navDayIso('13.2025', 1)).toBeNull();
    expect(navDayLabel('3.2026', 5)).toBe('05/03/2026');
    expect(navDayLabel('odd', 5)).toBe('5 odd');
  });

  it('month name and year of either key form, others raw', () => {
    expect(monthLabel('2026-03')).toBe('March 2026');
    expect(monthLabel('11.2025')).toBe('November 2025');
    expect(monthLabel('Q1 2026')).toBe('Q1 2026');
  });
});
