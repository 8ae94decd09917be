/**
 * Which accounts a portfolio-scoped read covers, by the account's `teiko_category`.
 * Consolidated Portfolio spans its own accounts plus both global ones (the broker membership
 * rule of docs/product.md#validation); every other portfolio covers its own category only. 'All' (rebates page)
 * and unknown names cover nothing: the caller unions the user's authorised portfolios itself,
 * so a typo can never widen a read.
 */
import { CATEGORY_OF, normalisePortfolio, type Category } from './portfolios.ts';

const CONSOLIDATED_SCOPE: readonly Category[] = ['consolidate', 'global forex', 'global equity'];

/** Account categories a portfolio covers: Consolidated = consolidate, global forex, global equity; others their own. */
export function categoriesOfPortfolio(portfolio: string): readonly Category[] {
  const name = normalisePortfolio(portfolio);
  if (name === undefined) return [];
  return name === 'Consolidated Portfolio' ? CONSOLIDATED_SCOPE : [CATEGORY_OF[name]];
}

/** True when an account of this category belongs to the portfolio (see categoriesOfPortfolio). */
export function accountInPortfolio(teikoCategory: string, portfolio: string): boolean {
  return (categoriesOfPortfolio(portfolio) as readonly string[]).includes(teikoCategory);
}
