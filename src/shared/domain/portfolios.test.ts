import { describe, expect, it } from 'vitest';
import { CATEGORY_OF, normalisePortfolio, portfolioOfCategory } from './portfolios.ts';

describe('portfolio names and categories', () => {
  it('map both ways', () => {
    expect(CATEGORY_OF['Global FX']).toBe('global forex');
    expect(portfolioOfCategory('consolidate')).toBe('Consolidated Portfolio');
    expect(portfolioOfCategory('nothing')).toBeUndefined();
  });
  it('accept the Global Forex alias of docs/product.md#purpose', () => {
    expect(normalisePortfolio('Global Forex')).toBe('Global FX');
    expect(normalisePortfolio('SMA')).toBe('SMA');
    expect(normalisePortfolio('sma')).toBeUndefined();
  });
});
