import { accountInPortfolio } from '#shared/domain/account-scope.ts';
import { normalisePortfolio, PORTFOLIOS, type Portfolio } from '#shared/domain/portfolios.ts';
import type { SessionUser } from './auth-store.ts';
import { assertPortfolio } from './guard.ts';

/** The portfolios of the caller's portfolio_auth, in the canonical order. */
export function authorisedPortfolios(user: SessionUser): Portfolio[] {
  const auth = new Set(user.portfolioAuth.map((p) => normalisePortfolio(p)));
  return PORTFOLIOS.filter((p) => auth.has(p));
}

/**
 * The portfolios a read covers: the one asked for (403 unless authorised), or, when none is given
 * (or 'All'), every portfolio the caller is authorised for.
 */
export function portfoliosFor(user: SessionUser, requested: string | undefined): Portfolio[] {
  if (requested === undefined || requested === 'All') return authorisedPortfolios(user);
  const portfolio = normalisePortfolio(requested);
  if (!portfolio) return [];
  if (!authorisedPortfolios(user).includes(portfolio)) assertPortfolio(user, requested);
  return [portfolio];
}

/** Does an account of this category belong to any of these portfolios? */
export function inScope(teikoCategory: string, portfolios: readonly Portfolio[]): boolean {
  return portfolios.some((p) => accountInPortfolio(teikoCategory, p));
}

/** Account categories covered by these portfolios, for SQL `= ANY($n)`. */
export function scopeCategories(portfolios: readonly Portfolio[]): string[] {
  const all = ['consolidate', 'global forex', 'global equity', 'SMA', 'AMC'];
  return all.filter((c) => inScope(c, portfolios));
}
