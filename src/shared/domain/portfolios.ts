/**
 * Portfolio names (the `portfolio` query parameter and `portfolio_auth`) and the
 * account/broker categories (`teiko_category`) they map to. docs/architecture.md fixes both lists;
 * this table is the only place that knows how they relate.
 */
export const PORTFOLIOS = ['Consolidated Portfolio', 'Global FX', 'Global Equity', 'SMA', 'AMC'] as const;
export type Portfolio = (typeof PORTFOLIOS)[number];

/** The rebates page also accepts every portfolio at once. */
export const ALL_PORTFOLIOS = 'All' as const;
export type RebatePortfolio = Portfolio | typeof ALL_PORTFOLIOS;

export const DEFAULT_PORTFOLIO: Portfolio = 'Consolidated Portfolio';

export const CATEGORIES = ['consolidate', 'global forex', 'global equity', 'SMA', 'AMC'] as const;
export type Category = (typeof CATEGORIES)[number];

export const CATEGORY_OF: Record<Portfolio, Category> = {
  'Consolidated Portfolio': 'consolidate',
  'Global FX': 'global forex',
  'Global Equity': 'global equity',
  SMA: 'SMA',
  AMC: 'AMC',
};

/** docs/product.md#purpose calls Global FX "Global Forex" too; accept both spellings on input. */
const ALIASES: Record<string, Portfolio> = { 'Global Forex': 'Global FX' };

export function isPortfolio(value: unknown): value is Portfolio {
  return typeof value === 'string' && (PORTFOLIOS as readonly string[]).includes(value);
}

export function normalisePortfolio(value: string): Portfolio | undefined {
  if (isPortfolio(value)) return value;
  return ALIASES[value];
}

export function portfolioOfCategory(category: string): Portfolio | undefined {
  const entry = Object.entries(CATEGORY_OF).find(([, c]) => c === category);
  return entry ? (entry[0] as Portfolio) : undefined;
}

/** What a person reads for an account category: its portfolio's name ('global forex' reads 'Global FX'). */
export function categoryLabel(category: string): string {
  return portfolioOfCategory(category) ?? category;
}
