import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { endpoints } from '#shared/contract/endpoints.ts';
import { ErrorResponse } from '#shared/contract/common.ts';
import { portfolioOfCategory } from '#shared/domain/portfolios.ts';
import { callerOf, requirePermission } from '#server/auth/guard.ts';
import { scopeFor } from '#server/auth/scope.ts';
import type { Database } from '#server/db/database.ts';
import { listRebates } from '#server/db/rebates-repo.ts';
import { AnswerCache, sendCached } from '#server/http/answer-cache.ts';
import type { Changes } from '#server/scale/changes.ts';
import { portfolioParam } from '#server/http/portfolio-param.ts';

const errors = { 400: ErrorResponse, 401: ErrorResponse, 403: ErrorResponse };

/**
 * GET /api/stats/rebates (read_rebate): one row per account and month ('YYYY-MM'), or with
 * group_by=broker one row per broker, currency and month (account = broker name, login empty).
 * portfolio=All covers every portfolio the caller is authorised for.
 */
export const rebatesRoutes: FastifyPluginAsyncZod<{ db: Database; changes: Changes }> = async (app, { db, changes }) => {
  // Rebate rows change only with the ledger's writes: made once per generation, scope and grouping.
  const answers = new AnswerCache(changes);
  app.get(
    endpoints.rebates.path,
    {
      preValidation: requirePermission('read_rebate'),
      schema: { querystring: endpoints.rebates.query, response: { 200: endpoints.rebates.response, ...errors } },
    },
    async (request, reply) => {
      const { portfolio, group_by } = request.query;
      const scope = scopeFor(callerOf(request), portfolioParam(portfolio));
      return sendCached(answers, JSON.stringify(['stats/rebates', scope.categories, group_by]), request, reply, async () => {
        const rows = await listRebates(db, scope, group_by === 'broker');
        return {
          data: rows.map(({ category, ...r }) => ({ ...r, portfolio_category: portfolioOfCategory(category) ?? category })),
        };
      });
    },
  );
};
