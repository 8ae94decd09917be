import { categoriesOfPortfolio } from './account-scope.ts';
import type { Portfolio } from './portfolios.ts';

/** Equity positions carry 'Equities', 'Equity' or an empty category (docs/product.md#fields); null counts as empty. */
export function isEquityCategory(category: string | null | undefined): boolean {
  return category === 'Equities' || category === 'Equity' || category === '' || category == null;
}

/** Forex positions carry the category 'Forex' (docs/product.md#fields). */
export function isForexCategory(category: string | null | undefined): boolean {
  return category === 'Forex';
}

/** Positions shown for a portfolio (docs/product.md#validation): Global FX keeps Forex, Global Equity keeps equities, others keep all. */
export function filterPositionsByPortfolio<T extends { category: string | null }>(
  positions: readonly T[],
  portfolio: Portfolio,
): T[] {
  switch (portfolio) {
    case 'Global FX':
      return positions.filter((p) => isForexCategory(p.category));
    case 'Global Equity':
      return positions.filter((p) => isEquityCategory(p.category));
    default:
      return [...positions];
  }
}

/** Broker membership (docs/product.md#validation): Consolidated = consolidate, global forex or global equity; others their own. */
export function brokerInPortfolio(teikoCategories: readonly string[], portfolio: Portfolio): boolean {
  return categoriesOfPortfolio(portfolio).some((category) => teikoCategories.includes(category));
}

/**
 * Dashboard panels shown for a portfolio (docs/product.md#screens): FX for Consolidated, SMA, AMC and Global FX;
 * Equity for Global Equity and Consolidated, and for SMA or AMC only when an equity position of
 * that category (`teiko_category`) exists.
 */
export function dashboardPanels(
  portfolio: Portfolio,
  positions: readonly { category: string | null; teiko_category: string }[],
): { fx: boolean; equity: boolean } {
  switch (portfolio) {
    case 'Consolidated Portfolio':
      return { fx: true, equity: true };
    case 'Global FX':
      return { fx: true, equity: false };
    case 'Global Equity':
      return { fx: false, equity: true };
    case 'SMA':
    case 'AMC':
      return {
        fx: true,
        equity: positions.some((p) => p.teiko_category === portfolio && isEquityCategory(p.category)),
      };
  }
}
