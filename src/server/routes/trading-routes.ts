import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { endpoints } from '#shared/contract/endpoints.ts';
import { ErrorResponse } from '#shared/contract/common.ts';
import { callerOf, requirePermission } from '#server/auth/guard.ts';
import { AnswerCache, sendCached, type Generation } from '#server/http/answer-cache.ts';
import type { Idempotent } from '#server/http/idempotency.ts';
import { portfolioParam } from '#server/http/portfolio-param.ts';
import type { TradingService } from '#server/services/trading-service.ts';

const errors = { 400: ErrorResponse, 401: ErrorResponse, 403: ErrorResponse, 404: ErrorResponse, 409: ErrorResponse, 422: ErrorResponse, 503: ErrorResponse };

interface Options {
  trading: TradingService;
  idempotent: Idempotent;
  /** The generation of what cached answers read (the alerts). */
  changes: Generation;
}

/** Orders by symbol, copy rules, excursions and alerts (TradingService). */
export const tradingRoutes: FastifyPluginAsyncZod<Options> = async (app, { trading, idempotent, changes }) => {
  app.post(
    endpoints.setTpSl.path,
    { preValidation: requirePermission('write'), schema: { body: endpoints.setTpSl.body, response: { 200: endpoints.setTpSl.response, ...errors } } },
    async (request, reply) => {
      const user = callerOf(request);
      const body = request.body;
      return idempotent(request, reply, user.id, () => trading.setTpSl(user, body, portfolioParam(body.portfolio)));
    },
  );

  app.post(
    endpoints.closeBySymbol.path,
    { preValidation: requirePermission('write'), schema: { body: endpoints.closeBySymbol.body, response: { 200: endpoints.closeBySymbol.response, ...errors } } },
    async (request, reply) => {
      const user = callerOf(request);
      const body = request.body;
      return idempotent(request, reply, user.id, () => trading.closeBySymbol(user, body, portfolioParam(body.portfolio)));
    },
  );

  app.get(
    endpoints.copyRules.path,
    {
      schema: {
        description:
          'The copy rule of every master in your portfolios (an account is a master unless it follows one): the market it copies and the pairs its followers copy. ' +
          'A master without a stored rule shows an empty one of its default market (Equities for a Global Equity account, else Forex).',
        response: { 200: endpoints.copyRules.response, ...errors },
      },
    },
    async (request) => ({ copy_rules: await trading.copyRules(callerOf(request)) }),
  );

  app.post(
    endpoints.allowedPairs.path,
    {
      preValidation: requirePermission('write'),
      schema: {
        description:
          "Replaces a master's allowed pairs (master_id: its account_id). A master without a rule gets one; a rule that allows nothing takes the market of the pairs given. " +
          'Pairs outside the rule\'s market are a 400. Takes Idempotency-Key.',
        body: endpoints.allowedPairs.body,
        response: { 200: endpoints.allowedPairs.response, ...errors },
      },
    },
    async (request, reply) => {
      const user = callerOf(request);
      const { master_id, new_allowed_pairs } = request.body;
      return idempotent(request, reply, user.id, () => trading.setAllowedPairs(user, master_id, new_allowed_pairs));
    },
  );

  app.get(
    endpoints.maeMfe.path,
    { schema: { querystring: endpoints.maeMfe.query, response: { 200: endpoints.maeMfe.response, ...errors } } },
    async (request) => trading.maeMfe(callerOf(request), request.query.symbol),
  );

  // Alerts: made once per generation and scope (a change bumps the generation; see Changes).
  const alerts = new AnswerCache(changes);
  app.get(
    endpoints.alerts.path,
    { schema: { querystring: endpoints.alerts.query, response: { 200: endpoints.alerts.response, ...errors } } },
    async (request, reply) => {
      const read = trading.alerts(callerOf(request));
      return sendCached(alerts, read.key, request, reply, read.compute);
    },
  );
};
