import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ErrorResponse } from '#shared/contract/common.ts';
import { RebatesQuery, RebatesResponse } from '#shared/contract/rebates.ts';
import { portfolioOfCategory } from '#shared/domain/portfolios.ts';
import { callerOf, requirePermission } from '#server/auth/guard.ts';
import { scopeFor } from '#server/auth/scope.ts';
import type { Database } from '#server/db/database.ts';
import { listRebates } from '#server/db/rebates-repo.ts';

const errors = { 400: ErrorResponse, 401: ErrorResponse, 403: ErrorResponse };

/**
 * GET /api/stats/rebates (read_rebate): one row per account and month ('YYYY-MM'), or with
 * group_by=broker one row per broker, currency and month (account = broker name, login empty).
 * portfolio=All covers every portfolio the caller is authorised for.
 */
export const rebatesRoutes: FastifyPluginAsyncZod<{ db: Database }> = async (app, { db }) => {
  app.get(
    '/api/stats/rebates',
    {
      preHandler: requirePermission('read_rebate'),
      schema: { querystring: RebatesQuery, response: { 200: RebatesResponse, ...errors } },
    },
    async (request) => {
      const { portfolio, group_by } = request.query;
      const rows = await listRebates(db, scopeFor(callerOf(request), portfolio), group_by === 'broker');
      return {
        data: rows.map(({ category, ...r }) => ({ ...r, portfolio_category: portfolioOfCategory(category) ?? category })),
      };
    },
  );
};
