import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ErrorResponse } from '#shared/contract/common.ts';
import { RebatesQuery, RebatesResponse } from '#shared/contract/rebates.ts';
import { portfolioOfCategory } from '#shared/domain/portfolios.ts';
import { callerOf, requirePermission } from '#server/auth/guard.ts';
import { portfoliosFor, scopeCategories } from '#server/auth/scope.ts';
import type { Database } from '#server/db/database.ts';

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
      const categories = scopeCategories(portfoliosFor(callerOf(request), portfolio));
      const byBroker = group_by === 'broker';
      const rows = await db.query<{
        login: string;
        account: string;
        broker_name: string;
        currency: string;
        month: string;
        total_rebate: number;
        profit_sharing_amount: number;
        balance: number;
        category: string;
      }>(
        byBroker
          ? `SELECT '' AS login, b.broker_name AS account, b.broker_name, a.currency, to_char(r.month, 'YYYY-MM') AS month,
                    sum(r.total_rebate) AS total_rebate, sum(r.profit_sharing_amount) AS profit_sharing_amount,
                    sum(r.balance) AS balance, min(a.teiko_category) AS category
             FROM rebates r JOIN accounts a ON a.id = r.account_id JOIN brokers b ON b.id = a.broker_id
             WHERE a.teiko_category = ANY($1)
             GROUP BY b.broker_name, a.currency, r.month ORDER BY r.month, b.broker_name, a.currency`
          : `SELECT a.account AS login, a.account_name AS account, b.broker_name, a.currency,
                    to_char(r.month, 'YYYY-MM') AS month, r.total_rebate, r.profit_sharing_amount, r.balance,
                    a.teiko_category AS category
             FROM rebates r JOIN accounts a ON a.id = r.account_id JOIN brokers b ON b.id = a.broker_id
             WHERE a.teiko_category = ANY($1) ORDER BY r.month, b.broker_name, a.account_name`,
        [categories],
      );
      return {
        data: rows.map(({ category, ...r }) => ({ ...r, portfolio_category: portfolioOfCategory(category) ?? category })),
      };
    },
  );
};
