import { describe, expect, it } from 'vitest';
import { parsePortfolio } from './portfolio-selection.ts';
import {
  brokerInPortfolio,
  dashboardPanels,
  filterPositionsByPortfolio,
  isEquityCategory,
  isForexCategory,
} from './positions-filter.ts';

const positions = [
  { id: 1, category: 'Forex', teiko_category: 'global forex' },
  { id: 2, category: 'Equities', teiko_category: 'global equity' },
  { id: 3, category: 'Equity', teiko_category: 'SMA' },
  { id: 4, category: '', teiko_category: 'AMC' },
  { id: 5, category: 'Crypto', teiko_category: 'consolidate' },
];
const ids = (rows: readonly { id: number }[]) => rows.map((r) => r.id);

describe('equity and forex categories', () => {
  it('count Equities, Equity and the empty category as equities', () => {
    expect(isEquityCategory('Equities')).toBe(true);
    expect(isEquityCategory('Equity')).toBe(true);
    expect(isEquityCategory('')).toBe(true);
    expect(isEquityCategory(null)).toBe(true);
    expect(isEquityCategory('Forex')).toBe(false);
    expect(isEquityCategory('equities')).toBe(false);
  });
  it('count only Forex as forex', () => {
    expect(isForexCategory('Forex')).toBe(true);
    expect(isForexCategory('')).toBe(false);
  });
});

describe('filterPositionsByPortfolio', () => {
  it('Global FX (and its alias Global Forex) keeps Forex positions', () => {
    expect(ids(filterPositionsByPortfolio(positions, 'Global FX'))).toEqual([1]);
    expect(ids(filterPositionsByPortfolio(positions, parsePortfolio('Global Forex')!))).toEqual([1]);
  });
  it('Global Equity keeps Equities, Equity and empty-category positions', () => {
    expect(ids(filterPositionsByPortfolio(positions, 'Global Equity'))).toEqual([2, 3, 4]);
  });
  it('other portfolios keep every position, in a new array', () => {
    for (const portfolio of ['Consolidated Portfolio', 'SMA', 'AMC'] as const) {
      const kept = filterPositionsByPortfolio(positions, portfolio);
      expect(ids(kept)).toEqual([1, 2, 3, 4, 5]);
      expect(kept).not.toBe(positions);
    }
  });
});

describe('brokerInPortfolio', () => {
  it('Consolidated includes brokers with consolidate, global forex or global equity accounts', () => {
    expect(brokerInPortfolio(['consolidate'], 'Consolidated Portfolio')).toBe(true);
    expect(brokerInPortfolio(['SMA', 'global forex'], 'Consolidated Portfolio')).toBe(true);
    expect(brokerInPortfolio(['global equity'], 'Consolidated Portfolio')).toBe(true);
    expect(brokerInPortfolio(['SMA', 'AMC'], 'Consolidated Portfolio')).toBe(false);
  });
  it('SMA and AMC match themselves', () => {
    expect(brokerInPortfolio(['SMA'], 'SMA')).toBe(true);
    expect(brokerInPortfolio(['consolidate'], 'SMA')).toBe(false);
    expect(brokerInPortfolio(['AMC', 'SMA'], 'AMC')).toBe(true);
  });
  it('Global FX matches global forex and Global Equity matches global equity', () => {
    expect(brokerInPortfolio(['global forex'], 'Global FX')).toBe(true);
    expect(brokerInPortfolio(['global forex'], parsePortfolio('Global Forex')!)).toBe(true);
    expect(brokerInPortfolio(['consolidate'], 'Global FX')).toBe(false);
    expect(brokerInPortfolio(['global equity'], 'Global Equity')).toBe(true);
    expect(brokerInPortfolio(['global forex'], 'Global Equity')).toBe(false);
  });
  it('a broker without categories belongs nowhere', () => {
    expect(brokerInPortfolio([], 'Consolidated Portfolio')).toBe(false);
  });
});

describe('dashboardPanels', () => {
  it('shows both panels for Consolidated, FX only for Global FX, Equity only for Global Equity', () => {
    expect(dashboardPanels('Consolidated Portfolio', [])).toEqual({ fx: true, equity: true });
    expect(dashboardPanels('Global FX', positions)).toEqual({ fx: true, equity: false });
    expect(dashboardPanels('Global Equity', [])).toEqual({ fx: false, equity: true });
  });
  it('shows the Equity panel for SMA or AMC only when equity positions of that category exist', () => {
    expect(dashboardPanels('SMA', positions)).toEqual({ fx: true, equity: true });
    expect(dashboardPanels('AMC', positions)).toEqual({ fx: true, equity: true });
    expect(dashboardPanels('SMA', [{ category: 'Forex', teiko_category: 'SMA' }])).toEqual({ fx: true, equity: false });
    expect(dashboardPanels('AMC', [{ category: 'Equities', teiko_category: 'SMA' }])).toEqual({
      fx: true,
      equity: false,
    });
  });
});
