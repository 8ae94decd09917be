import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { endpoints } from '#shared/contract/endpoints.ts';
import { ErrorResponse } from '#shared/contract/common.ts';
import { callerOf } from '#server/auth/guard.ts';
import { AnswerCache, sendCached, type Generation } from '#server/http/answer-cache.ts';
import type { AnalysisService } from '#server/services/analysis-service.ts';

const errors = { 400: ErrorResponse, 401: ErrorResponse, 403: ErrorResponse, 404: ErrorResponse };

/** GET /api/stats/analysis: the analysis of an account's closed trades (AnalysisService). */
export const analysisRoutes: FastifyPluginAsyncZod<{ analysis: AnalysisService; changes: Generation }> = async (app, { analysis, changes }) => {
  // The answer changes only with the ledger's writes: made once per generation, scope and query.
  const answers = new AnswerCache(changes);
  app.get(
    endpoints.analysis.path,
    {
      schema: {
        description:
          "The analysis of an account's closed trades (docs/figures.md, \"Analysis of an account's trades\"): AHPR and GHPR, the runs test's Z-score, " +
          'expectancy, profit factor, per-trade Sharpe and Sortino, the probabilistic Sharpe ratio and minimum track record, risk of ruin ' +
          '(closed form) and of drawdown (seeded Monte Carlo) at 10, 20, 30, 50 and 100 %, the balance\'s linear regression, MFE/MAE ' +
          'efficiencies where the excursions are known, and the trades by open hour and close weekday in broker time. `account` is an ' +
          'account_id or login of your portfolios (any other is 404). Percentages are numbers (0.3772 is 0.3772 %).',
        querystring: endpoints.analysis.query,
        response: { 200: endpoints.analysis.response, ...errors },
      },
    },
    async (request, reply) => {
      const read = analysis.analysis(callerOf(request), { ref: request.query.account, utcOffsetMinutes: request.query.utc_offset_minutes });
      return sendCached(answers, read.key, request, reply, read.compute);
    },
  );
};
