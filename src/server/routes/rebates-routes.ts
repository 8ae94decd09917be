import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { endpoints } from '#shared/contract/endpoints.ts';
import { ErrorResponse } from '#shared/contract/common.ts';
import { callerOf, requirePermission } from '#server/auth/guard.ts';
import { AnswerCache, sendCached, type Generation } from '#server/http/answer-cache.ts';
import { portfolioParam } from '#server/http/portfolio-param.ts';
import type { RebatesService } from '#server/services/rebates-service.ts';

const errors = { 400: ErrorResponse, 401: ErrorResponse, 403: ErrorResponse };

/**
 * GET /api/stats/rebates (read_rebate): one row per account and month ('YYYY-MM'), or with
 * group_by=broker one row per broker, currency and month (account = broker name, login empty).
 * portfolio=All covers every portfolio the caller is authorised for.
 */
export const rebatesRoutes: FastifyPluginAsyncZod<{ rebates: RebatesService; changes: Generation }> = async (app, { rebates, changes }) => {
  // Rebate rows change only with the ledger's writes: made once per generation, scope and grouping.
  const answers = new AnswerCache(changes);
  app.get(
    endpoints.rebates.path,
    {
      preValidation: requirePermission('read_rebate'),
      schema: { querystring: endpoints.rebates.query, response: { 200: endpoints.rebates.response, ...errors } },
    },
    async (request, reply) => {
      const read = rebates.rebates(callerOf(request), portfolioParam(request.query.portfolio), request.query.group_by);
      return sendCached(answers, read.key, request, reply, read.compute);
    },
  );
};
