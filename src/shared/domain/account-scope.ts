/**
 * Which accounts a portfolio-scoped read covers, by the account's `teiko_category`.
 * Consolidated Portfolio spans its own accounts plus both global ones (the broker membership
 * rule of docs/product.md#validation); every other portfolio covers its own category only. The
 * portfolio comes parsed (portfolio-selection.ts): undefined, what 'All' (rebates page) and unknown
 * names parse to, covers nothing; the caller unions the user's authorised portfolios itself, so a
 * typo can never widen a read.
 */
import { CATEGORY_OF, type Category, type Portfolio } from './portfolios.ts';

const CONSOLIDATED_SCOPE: readonly Category[] = ['consolidate', 'global forex', 'global equity'];

/** Account categories a portfolio covers: Consolidated = consolidate, global forex, global equity; others their own. */
export function categoriesOfPortfolio(portfolio: Portfolio | undefined): readonly Category[] {
  if (portfolio === undefined) return [];
  return portfolio === 'Consolidated Portfolio' ? CONSOLIDATED_SCOPE : [CATEGORY_OF[portfolio]];
}

/** True when an account of this category belongs to the portfolio (see categoriesOfPortfolio). */
export function accountInPortfolio(teikoCategory: string, portfolio: Portfolio | undefined): boolean {
  return (categoriesOfPortfolio(portfolio) as readonly string[]).includes(teikoCategory);
}
