import { queryOptions } from '@tanstack/react-query';
import { endpoints } from '#shared/contract/endpoints.ts';
import { apiRequest } from '#client/api/http.ts';

export const navKeys = {
  all: () => ['nav'] as const,
  historical: (dateId?: string) => ['nav', 'historical', dateId ?? null] as const,
};

export const navQueries = {
  /** Historical NAV rows of one month ('M.YYYY'; the latest when omitted) and the available dates. */
  historical: (dateId?: string) =>
    queryOptions({
      queryKey: navKeys.historical(dateId),
      queryFn: ({ signal }) =>
        apiRequest(endpoints.historicalNav, { query: { date_id: dateId }, signal }),
    }),
};
