import { describe, expect, it } from 'vitest';
import { rebateAnalysis } from './rebate-analysis.ts';

describe('monthly rebates analysis', () => {
  const entries = [
    { month: '2026-02', portfolio_category: 'SMA', currency: 'USD', total_rebate: 10 },
    { month: '2026-01', portfolio_category: 'Global FX', currency: 'USD', total_rebate: 87.5 },
    { month: '2026-01', portfolio_category: 'SMA', currency: 'USD', total_rebate: 5 },
    { month: '2026-02', portfolio_category: 'Global FX', currency: 'EUR', total_rebate: 20 },
    { month: '2026-02', portfolio_category: 'Global FX', currency: 'USD', total_rebate: 12.5 },
    { month: '2026-03', portfolio_category: 'SMA', currency: 'USD', total_rebate: 2.5 },
  ];

  it('lists months oldest first and a bar series per portfolio and currency', () => {
    const analysis = rebateAnalysis(entries);
    expect(analysis.months).toEqual(['2026-01', '2026-02', '2026-03']);
    expect(analysis.bars).toEqual([
      { key: 'Global FX · EUR', portfolio: 'Global FX', currency: 'EUR', values: [0, 20, 0] },
      { key: 'Global FX · USD', portfolio: 'Global FX', currency: 'USD', values: [87.5, 12.5, 0] },
      { key: 'SMA · USD', portfolio: 'SMA', currency: 'USD', values: [5, 10, 2.5] },
    ]);
  });

  it('runs a cumulative total per currency', () => {
    // USD: Jan 87.5 + 5 = 92.5; Feb + 10 + 12.5 = 115; Mar + 2.5 = 117.5. EUR: 0, 20, 20.
    expect(rebateAnalysis(entries).lines).toEqual([
      { currency: 'EUR', values: [0, 20, 20] },
      { currency: 'USD', values: [92.5, 115, 117.5] },
    ]);
  });

  it('is empty without entries', () => {
    expect(rebateAnalysis([])).toEqual({ months: [], bars: [], lines: [] });
  });
});
