import { accountInPortfolio } from '#shared/domain/account-scope.ts';
import { authorisedPortfolios as authorisedPortfoliosOf } from '#shared/domain/portfolio-selection.ts';
import { ALL_PORTFOLIOS, CATEGORIES, DEFAULT_PORTFOLIO, type Portfolio, type RebatePortfolio } from '#shared/domain/portfolios.ts';
import { Forbidden } from '#server/errors.ts';
import type { ScopeFilter } from '#server/db/scope-filter.ts';
import type { SessionUser } from './auth-store.ts';

/**
 * What a request may see: its portfolios and the account categories they cover. Decided once per
 * request by `scopeFor` (HTTP routes and sockets alike); repositories filter on `categories`.
 */
export interface Scope extends ScopeFilter {
  readonly portfolios: readonly Portfolio[];
}

/** The portfolios of the caller's portfolio_auth (the shared rule, which the client applies too). */
export function authorisedPortfolios(user: SessionUser): Portfolio[] {
  return [...new Set(authorisedPortfoliosOf(user.portfolioAuth))];
}

/** Does an account of this category belong to any of these portfolios? */
export function inScope(teikoCategory: string, scope: Scope | readonly Portfolio[]): boolean {
  const portfolios = 'portfolios' in scope ? scope.portfolios : scope;
  return portfolios.some((p) => accountInPortfolio(teikoCategory, p));
}

/** The scope of these portfolios. */
export function scopeOfPortfolios(portfolios: readonly Portfolio[]): Scope {
  return { portfolios, categories: CATEGORIES.filter((c) => inScope(c, portfolios)) };
}

/**
 * The one step from a request's `portfolio`, parsed at the edge (src/server/http/portfolio-param.ts),
 * to the caller's scope.
 * - `union` (HTTP reads): absent or 'All' covers every portfolio the caller is authorised for.
 * - `one` (a live feed, which shows one portfolio): absent is the Consolidated Portfolio, or the
 *   caller's first one when not authorised for it; 'All' is no portfolio.
 * A portfolio outside the caller's portfolio_auth is refused (403; a socket closes with 4403).
 */
export function scopeFor(user: SessionUser, requested: RebatePortfolio | undefined, mode: 'union' | 'one' = 'union'): Scope {
  const allowed = authorisedPortfolios(user);
  if (mode === 'one') {
    if (requested === undefined) {
      const p = allowed.includes(DEFAULT_PORTFOLIO) ? DEFAULT_PORTFOLIO : allowed[0];
      if (!p) throw new Forbidden('Forbidden: no authorised portfolio');
      return scopeOfPortfolios([p]);
    }
    if (requested === ALL_PORTFOLIOS || !allowed.includes(requested)) throw new Forbidden(`Forbidden: portfolio '${requested}'`);
    return scopeOfPortfolios([requested]);
  }
  if (requested === undefined || requested === ALL_PORTFOLIOS) return scopeOfPortfolios(allowed);
  if (!allowed.includes(requested)) throw new Forbidden(`Forbidden: you are not authorised for the portfolio '${requested}'.`);
  return scopeOfPortfolios([requested]);
}

/** Every portfolio the caller is authorised for. */
export function callerScope(user: SessionUser): Scope {
  return scopeOfPortfolios(authorisedPortfolios(user));
}
