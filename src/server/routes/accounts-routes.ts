import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { endpoints } from '#shared/contract/endpoints.ts';
import { ErrorResponse } from '#shared/contract/common.ts';
import { callerOf } from '#server/auth/guard.ts';
import { AnswerCache, sendCached, type Generation } from '#server/http/answer-cache.ts';
import { badRequest } from '#server/http/errors.ts';
import { portfolioParam } from '#server/http/portfolio-param.ts';
import type { AccountsService } from '#server/services/accounts-service.ts';

const errors = { 400: ErrorResponse, 401: ErrorResponse, 403: ErrorResponse, 404: ErrorResponse };

/** The accounts' reads: accounts/info, recent results, drawdown, deal history, historical NAV (AccountsService). */
export const accountsRoutes: FastifyPluginAsyncZod<{ accounts: AccountsService; changes: Generation }> = async (app, { accounts, changes }) => {
  // The answers below change only with the ledger's writes and the market's updates: each is made
  // once per generation and key (route, the scope's categories, the permissions it shows, the query).
  const answers = new AnswerCache(changes);

  app.get(
    endpoints.accountsInfo.path,
    { schema: { querystring: endpoints.accountsInfo.query, response: { 200: endpoints.accountsInfo.response.or(endpoints.brokers.response), ...errors } } },
    async (request, reply) => {
      const { portfolio, nav_portfolio: navPortfolio } = request.query;
      if (portfolio !== undefined && navPortfolio !== undefined) throw badRequest('Give portfolio or nav_portfolio, not both.');
      const read = accounts.info(callerOf(request), {
        portfolio: portfolioParam(portfolio),
        navPortfolio: portfolioParam(navPortfolio),
        brokersOnly: request.query.only_broker_name === true,
      });
      return sendCached(answers, read.key, request, reply, read.compute);
    },
  );

  app.get(
    endpoints.historicalLosses.path,
    { schema: { response: { 200: endpoints.historicalLosses.response, ...errors } } },
    async (request) => accounts.historicalLosses(callerOf(request)),
  );

  app.get(
    endpoints.maxDrawdown.path,
    { schema: { querystring: endpoints.maxDrawdown.query, response: { 200: endpoints.maxDrawdown.response, ...errors } } },
    async (request) => {
      if (!request.query.account) throw badRequest('Account is not provided.');
      return accounts.maxDrawdown(callerOf(request), request.query.account);
    },
  );

  app.get(
    endpoints.historicalDeals.path,
    { schema: { querystring: endpoints.historicalDeals.query, response: { 200: endpoints.historicalDeals.response, ...errors } } },
    async (request, reply) => {
      const ref = request.query.account;
      if (!ref) throw badRequest('Account is required');
      const read = accounts.historicalDeals(callerOf(request), {
        ref,
        from: request.query.start_date,
        withoutRebalancing: request.query.filter_rebalancing === true,
      });
      return sendCached(answers, read.key, request, reply, read.compute);
    },
  );

  app.get(
    endpoints.historicalNav.path,
    { schema: { querystring: endpoints.historicalNav.query, response: { 200: endpoints.historicalNav.response, ...errors } } },
    async (request, reply) => {
      const read = accounts.historicalNav(callerOf(request), { dateId: request.query.date_id, portfolio: portfolioParam(request.query.portfolio) });
      return sendCached(answers, read.key, request, reply, read.compute);
    },
  );
};
