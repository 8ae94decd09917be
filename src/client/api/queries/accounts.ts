import { queryOptions } from '@tanstack/react-query';
import { endpoints } from '#shared/contract/endpoints.ts';
import { interval } from '#client/config/runtime-config.ts';
import type { Portfolio } from '#shared/domain/portfolios.ts';
import { apiRequest } from '#client/api/http.ts';

/** docs/product.md#errors: the max-drawdown call needs an account. */
export const ACCOUNT_NOT_PROVIDED = 'Account is not provided.';

export const accountKeys = {
  all: () => ['accounts'] as const,
  info: (portfolio?: Portfolio) => ['accounts', 'info', portfolio ?? null] as const,
  brokers: (portfolio?: Portfolio) => ['accounts', 'brokers', portfolio ?? null] as const,
  nav: (portfolio: Portfolio) => ['accounts', 'nav', portfolio] as const,
  maxDrawdown: (account: string | undefined) => ['accounts', 'max-drawdown', account || null] as const,
  historicalLosses: () => ['accounts', 'historical-losses'] as const,
};

export const accountQueries = {
  /** Accounts with their info-panel figures (docs/product.md#calls: refetch 5 s). */
  info: (portfolio?: Portfolio) =>
    queryOptions({
      queryKey: accountKeys.info(portfolio),
      queryFn: async ({ signal }) =>
        (await apiRequest(endpoints.accountsInfo, { query: { portfolio }, signal })).data,
      refetchInterval: interval('accounts_info_ms'),
    }),

  /** The accounts of a portfolio's real-time NAV, chosen by the server (its membership rule, zero balances left out). */
  nav: (portfolio: Portfolio) =>
    queryOptions({
      queryKey: accountKeys.nav(portfolio),
      queryFn: async ({ signal }) => (await apiRequest(endpoints.accountsInfo, { query: { nav_portfolio: portfolio }, signal })).data,
      refetchInterval: interval('accounts_info_ms'),
    }),

  /** The broker list: the same call with only_broker_name=true. */
  brokers: (portfolio?: Portfolio) =>
    queryOptions({
      queryKey: accountKeys.brokers(portfolio),
      queryFn: async ({ signal }) =>
        (
          await apiRequest(endpoints.brokers, {
            query: { only_broker_name: 'true', portfolio },
            signal,
          })
        ).data,
    }),

  /** Max drawdown of one account (docs/product.md#calls: 5 s); disabled until an account is chosen. */
  maxDrawdown: (account: string | undefined) =>
    queryOptions({
      queryKey: accountKeys.maxDrawdown(account),
      queryFn: async ({ signal }) => {
        if (!account) throw new Error(ACCOUNT_NOT_PROVIDED);
        return apiRequest(endpoints.maxDrawdown, { query: { account }, signal });
      },
      enabled: Boolean(account),
      refetchInterval: interval('max_drawdown_ms'),
    }),

  /** Realised net P/L per account over 24 hours, 2 days and 7 days (docs/product.md#constants). */
  historicalLosses: () =>
    queryOptions({
      queryKey: accountKeys.historicalLosses(),
      queryFn: async ({ signal }) =>
        (await apiRequest(endpoints.historicalLosses, { signal })).data,
    }),
};
