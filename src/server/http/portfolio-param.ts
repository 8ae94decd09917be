import type { z } from 'zod';
import type { PortfolioParam, RebatePortfolioParam } from '#shared/contract/fields.ts';
import { parsePortfolio } from '#shared/domain/portfolio-selection.ts';
import { ALL_PORTFOLIOS, type Portfolio, type RebatePortfolio } from '#shared/domain/portfolios.ts';
import { badRequest } from './errors.ts';

/**
 * A request's `portfolio` parameter, as its schema let it through (a portfolio, the alias Global
 * Forex, 'All' where the schema takes it), parsed once at the edge: the services and scopes past
 * the route take the Portfolio, never the name.
 */
export function portfolioParam(value: z.output<typeof PortfolioParam>): Portfolio;
export function portfolioParam(value: z.output<typeof PortfolioParam> | undefined): Portfolio | undefined;
export function portfolioParam(value: z.output<typeof RebatePortfolioParam> | undefined): RebatePortfolio | undefined;
export function portfolioParam(value: string | undefined): RebatePortfolio | undefined {
  if (value === undefined || value === ALL_PORTFOLIOS) return value;
  const portfolio = parsePortfolio(value);
  // The schemas take only portfolio names: this is a route without one.
  if (portfolio === undefined) throw badRequest(`Unknown portfolio: ${value}`);
  return portfolio;
}
