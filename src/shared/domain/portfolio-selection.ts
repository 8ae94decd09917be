import { ALL_PORTFOLIOS, DEFAULT_PORTFOLIO, normalisePortfolio, type Portfolio, type RebatePortfolio } from './portfolios.ts';

/**
 * The edge where portfolio names read from outside (a URL's or a request's `portfolio`, a user's
 * portfolio_auth) become `Portfolio`s, once: everything past it (scopes, filters, NAV rules) takes a
 * parsed Portfolio, never a name.
 */

/** A portfolio name as read from outside: its Portfolio ('Global Forex' reads Global FX), or undefined for a name the product does not know ('All' included). */
export function parsePortfolio(name: string): Portfolio | undefined {
  return normalisePortfolio(name);
}

export interface PortfolioSelection {
  /** The portfolio the page shows. */
  portfolio: RebatePortfolio;
  /** The `portfolio` query parameter to put in the URL: undefined removes it (Consolidated). */
  param: string | undefined;
}

/** The user's portfolio_auth as portfolio names, in its own order; names we do not know are dropped. */
export function authorisedPortfolios(portfolioAuth: readonly string[]): Portfolio[] {
  return portfolioAuth.map((p) => parsePortfolio(p)).filter((p): p is Portfolio => p !== undefined);
}

/**
 * The portfolio a page shows (docs/product.md#screens): the `portfolio` parameter, Consolidated Portfolio by default
 * (and then the parameter is removed); a value outside the user's portfolio_auth switches to the first
 * authorised portfolio, except 'All' on the rebates page.
 */
export function selectPortfolio(
  requested: string | undefined,
  portfolioAuth: readonly string[],
  options: { allowAll?: boolean } = {},
): PortfolioSelection {
  const authorised = authorisedPortfolios(portfolioAuth);
  if (requested === ALL_PORTFOLIOS && options.allowAll) return { portfolio: ALL_PORTFOLIOS, param: ALL_PORTFOLIOS };
  const wanted = (requested !== undefined ? parsePortfolio(requested) : undefined) ?? DEFAULT_PORTFOLIO;
  const chosen = authorised.length === 0 || authorised.includes(wanted) ? wanted : (authorised[0] ?? wanted);
  return { portfolio: chosen, param: chosen === DEFAULT_PORTFOLIO ? undefined : chosen };
}
