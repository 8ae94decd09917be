import { describe, expect, it } from 'vitest';
import { parsePortfolio } from './portfolio-selection.ts';
import { accountInPortfolio, categoriesOfPortfolio } from './account-scope.ts';

describe('account scope of a portfolio', () => {
  it('Consolidated Portfolio covers consolidate, global forex and global equity accounts', () => {
    expect(categoriesOfPortfolio('Consolidated Portfolio')).toEqual(['consolidate', 'global forex', 'global equity']);
    expect(accountInPortfolio('consolidate', 'Consolidated Portfolio')).toBe(true);
    expect(accountInPortfolio('global forex', 'Consolidated Portfolio')).toBe(true);
    expect(accountInPortfolio('global equity', 'Consolidated Portfolio')).toBe(true);
    expect(accountInPortfolio('SMA', 'Consolidated Portfolio')).toBe(false);
    expect(accountInPortfolio('AMC', 'Consolidated Portfolio')).toBe(false);
  });

  it('other portfolios cover their own category only', () => {
    expect(accountInPortfolio('global forex', 'Global FX')).toBe(true);
    expect(accountInPortfolio('global forex', parsePortfolio('Global Forex'))).toBe(true);
    expect(accountInPortfolio('consolidate', 'Global FX')).toBe(false);
    expect(accountInPortfolio('global equity', 'Global Equity')).toBe(true);
    expect(accountInPortfolio('global forex', 'Global Equity')).toBe(false);
    expect(accountInPortfolio('SMA', 'SMA')).toBe(true);
    expect(accountInPortfolio('AMC', 'SMA')).toBe(false);
    expect(accountInPortfolio('AMC', 'AMC')).toBe(true);
  });

  it('All and unknown portfolio names cover nothing', () => {
    expect(categoriesOfPortfolio(parsePortfolio('All'))).toEqual([]);
    expect(accountInPortfolio('consolidate', parsePortfolio('All'))).toBe(false);
    expect(accountInPortfolio('SMA', parsePortfolio('sma'))).toBe(false);
  });
});
