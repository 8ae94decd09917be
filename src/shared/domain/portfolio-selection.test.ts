import { describe, expect, it } from 'vitest';
import { authorisedPortfolios, selectPortfolio } from './portfolio-selection.ts';

const ALL = ['Consolidated Portfolio', 'Global FX', 'Global Equity', 'SMA', 'AMC'];

describe('portfolio selection (docs/product.md#screens)', () => {
  it('defaults to Consolidated Portfolio and removes the parameter', () => {
    expect(selectPortfolio(undefined, ALL)).toEqual({ portfolio: 'Consolidated Portfolio', param: undefined });
    expect(selectPortfolio('Consolidated Portfolio', ALL)).toEqual({ portfolio: 'Consolidated Portfolio', param: undefined });
  });
  it('keeps an authorised choice in the parameter', () => {
    expect(selectPortfolio('SMA', ALL)).toEqual({ portfolio: 'SMA', param: 'SMA' });
    expect(selectPortfolio('Global Forex', ALL)).toEqual({ portfolio: 'Global FX', param: 'Global FX' });
  });
  it('switches an unauthorised or unknown choice to the first authorised portfolio', () => {
    expect(selectPortfolio(undefined, ['Global FX'])).toEqual({ portfolio: 'Global FX', param: 'Global FX' });
    expect(selectPortfolio('AMC', ['Global FX', 'SMA'])).toEqual({ portfolio: 'Global FX', param: 'Global FX' });
    expect(selectPortfolio('Nonsense', ['SMA'])).toEqual({ portfolio: 'SMA', param: 'SMA' });
  });
  it('allows All only where the page allows it (rebates)', () => {
    expect(selectPortfolio('All', ['Global FX'], { allowAll: true })).toEqual({ portfolio: 'All', param: 'All' });
    expect(selectPortfolio('All', ['Global FX'])).toEqual({ portfolio: 'Global FX', param: 'Global FX' });
  });
  it('leaves the default in place for a user with no portfolios', () => {
    expect(selectPortfolio('SMA', [])).toEqual({ portfolio: 'SMA', param: 'SMA' });
  });
  it("reads portfolio_auth in its own order, aliases accepted, unknown names dropped", () => {
    expect(authorisedPortfolios(['SMA', 'Global Forex', 'Nonsense'])).toEqual(['SMA', 'Global FX']);
  });
});
