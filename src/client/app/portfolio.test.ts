import { describe, expect, it } from 'vitest';
import { pagePortfolio } from './portfolio.ts';
import { ROUTES } from './paths.ts';

const ALL = { portfolio_auth: ['Consolidated Portfolio', 'Global FX', 'Global Equity', 'SMA', 'AMC'] };

describe("the page's portfolio (docs/product.md#screens)", () => {
  it('defaults to Consolidated Portfolio without a parameter', () => {
    expect(pagePortfolio({}, ROUTES.home, ALL)).toEqual({ portfolio: 'Consolidated Portfolio', param: undefined, scope: 'Consolidated Portfolio' });
    expect(pagePortfolio({ portfolio: 'Consolidated Portfolio' }, ROUTES.nav, ALL).param).toBeUndefined();
  });
  it('keeps an authorised choice and switches an unauthorised one to the first authorised portfolio', () => {
    expect(pagePortfolio({ portfolio: 'Global Forex' }, ROUTES.accounts, ALL)).toEqual({ portfolio: 'Global FX', param: 'Global FX', scope: 'Global FX' });
    expect(pagePortfolio({ portfolio: 'AMC' }, ROUTES.home, { portfolio_auth: ['SMA', 'Global FX'] })).toEqual({ portfolio: 'SMA', param: 'SMA', scope: 'SMA' });
  });
  it("allows 'All' on the rebates page only, with no single scope", () => {
    expect(pagePortfolio({ portfolio: 'All' }, ROUTES.rebates, { portfolio_auth: ['SMA'] })).toEqual({ portfolio: 'All', param: 'All', scope: undefined });
    expect(pagePortfolio({ portfolio: 'All' }, ROUTES.brokers, { portfolio_auth: ['SMA'] })).toEqual({ portfolio: 'SMA', param: 'SMA', scope: 'SMA' });
  });
  it('reads the stored session when none is given (signed out here: no portfolio_auth)', () => {
    expect(pagePortfolio({ portfolio: 'SMA' }, ROUTES.home)).toEqual({ portfolio: 'SMA', param: 'SMA', scope: 'SMA' });
  });
});
