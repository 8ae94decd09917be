import { queryOptions } from '@tanstack/react-query';
import { endpoints } from '#shared/contract/endpoints.ts';
import type { Portfolio } from '#shared/domain/portfolios.ts';
import { apiRequest } from '#client/api/http.ts';

export const navKeys = {
  all: () => ['nav'] as const,
  historical: (dateId?: string, portfolio?: Portfolio) =>
    portfolio === undefined ? (['nav', 'historical', dateId ?? null] as const) : (['nav', 'historical', dateId ?? null, portfolio] as const),
};

export const navQueries = {
  /**
   * Historical NAV rows of one month ('M.YYYY'; the latest when omitted) and the available dates;
   * with a portfolio, only the rows of its NAV (the server applies the membership rule).
   */
  historical: (dateId?: string, portfolio?: Portfolio) =>
    queryOptions({
      queryKey: navKeys.historical(dateId, portfolio),
      queryFn: ({ signal }) => apiRequest(endpoints.historicalNav, { query: { portfolio, date_id: dateId }, signal }),
    }),
};
