import { ALL_PORTFOLIOS, DEFAULT_PORTFOLIO, normalisePortfolio, type Portfolio, type RebatePortfolio } from './portfolios.ts';

export interface PortfolioSelection {
  /** The portfolio the page shows. */
  portfolio: RebatePortfolio;
  /** The `portfolio` query parameter to put in the URL: undefined removes it (Consolidated). */
  param: string | undefined;
}

/** The user's portfolio_auth as portfolio names, in its own order; names we do not know are dropped. */
export function authorisedPortfolios(portfolioAuth: readonly string[]): Portfolio[] {
  return portfolioAuth.map((p) => normalisePortfolio(p)).filter((p): p is Portfolio => p !== undefined);
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
  const wanted = (requested !== undefined ? normalisePortfolio(requested) : undefined) ?? DEFAULT_PORTFOLIO;
  const chosen = authorised.length === 0 || authorised.includes(wanted) ? wanted : (authorised[0] ?? wanted);
  return { portfolio: chosen, param: chosen === DEFAULT_PORTFOLIO ? undefined : chosen };
}
