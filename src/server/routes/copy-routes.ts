import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ErrorResponse, MessageResponse } from '#shared/contract/common.ts';
import { CopyGrowthQuery, CopyGrowthResponse, CopyHealthQuery, CopyHealthResponse, CopyReportQuery, CopyReportResponse, EquityStopBody, RiskLimitsBody } from '#shared/contract/copy.ts';
import { callerOf, requirePermission } from '#server/auth/guard.ts';
import { callerScope, inScope, scopeFor } from '#server/auth/scope.ts';
import { bridgeHealth, copyGrowth, copyReport } from '#server/copy/copy-report.ts';
import { audit } from '#server/db/audit-repo.ts';
import { setEquityStop, setRiskLimits } from '#server/db/copy-repo.ts';
import type { Database } from '#server/db/database.ts';
import { badRequest, notFound } from '#server/http/errors.ts';
import { AnswerCache, sendCached } from '#server/http/answer-cache.ts';
import type { BrokerAdapter } from '#server/market/adapter.ts';
import type { ClusterOrders } from '#server/scale/cluster-orders.ts';
import type { Changes } from '#server/scale/changes.ts';
import { findAccount } from './account-lookup.ts';

const errors = { 400: ErrorResponse, 401: ErrorResponse, 403: ErrorResponse, 404: ErrorResponse };
/** A terminal going silent changes nothing in the books: the health figures are made again at least this often. */
const HEALTH_BUCKET_MS = 5_000;

interface Options {
  db: Database;
  market: BrokerAdapter;
  orders: ClusterOrders;
  changes: Changes;
  now?: () => number;
}

/**
 * The Copy screen (docs/copy-quality.md): GET /api/copy/report per portfolio and period, the growth
 * of a follower against its master, and the risk settings write users keep (portfolio thresholds,
 * followers' equity stops).
 */
export const copyRoutes: FastifyPluginAsyncZod<Options> = async (app, { db, market, orders, changes, now = Date.now }) => {
  // Changes only with the market and the books: made once per generation, scope and period.
  const answers = new AnswerCache(changes);
  const bucket = () => Math.floor(now() / HEALTH_BUCKET_MS);

  app.get(
    '/api/copy/report',
    {
      schema: {
        description:
          'Copy quality of the followers in the portfolio over the period (1m, 3m, all): copies linked to their master (recorded or inferred), ' +
          'slippage, delay, size, misses with their reason, duplicates, manual trades, cost of copying, tracking difference; per broker; ' +
          "the bridge's health; risk thresholds and breaches; the net currency exposure of the open positions in EUR.",
        querystring: CopyReportQuery,
        response: { 200: CopyReportResponse, ...errors },
      },
    },
    async (request, reply) => {
      const { portfolio, period } = request.query;
      const scope = scopeFor(callerOf(request), portfolio);
      const one = scope.portfolios.length === 1 ? scope.portfolios[0] : undefined;
      // Ages and agent states move with the clock too: an answer lasts at most HEALTH_BUCKET_MS.
      return sendCached(answers, JSON.stringify(['copy/report', scope.categories, one ?? null, period, bucket()]), request, reply, async () => ({
        data: await copyReport(db, market.snapshot(), scope, one, period, now()),
      }));
    },
  );

  app.get(
    '/api/copy/health',
    {
      schema: {
        description: "The bridge's health per account of the portfolio: age of its last update, its agent's state, its terminal's command success over the last month.",
        querystring: CopyHealthQuery,
        response: { 200: CopyHealthResponse, ...errors },
      },
    },
    async (request, reply) => {
      const scope = scopeFor(callerOf(request), request.query.portfolio);
      return sendCached(answers, JSON.stringify(['copy/health', scope.categories, bucket()]), request, reply, async () => ({
        data: await bridgeHealth(db, market.snapshot(), scope, now()),
      }));
    },
  );

  app.get(
    '/api/copy/growth',
    {
      schema: {
        description: "Time-weighted growth (%) of a follower and of its master over the period, for the Copy screen's chart.",
        querystring: CopyGrowthQuery,
        response: { 200: CopyGrowthResponse, ...errors },
      },
    },
    async (request) => {
      const ref = await findAccount(db, callerOf(request), request.query.account);
      const snapshot = market.snapshot();
      const follower = snapshot.accounts.get(ref.id);
      const master = follower?.master_id != null ? snapshot.accounts.get(follower.master_id) : undefined;
      if (!follower || !master) throw badRequest('Not a copy account');
      // A master outside the caller's portfolios is not shown, like any account there.
      if (!inScope(master.teiko_category, callerScope(callerOf(request)))) throw notFound("This account's master is outside your portfolios.");
      return { data: await copyGrowth(db, follower, master, request.query.period, now()) };
    },
  );

  app.put(
    '/api/risk/limits',
    {
      preHandler: requirePermission('write'),
      schema: {
        description: "A portfolio's thresholds: maximum drawdown (%) and minimum margin level (%); null clears one. Accounts past them show on the Copy screen.",
        body: RiskLimitsBody,
        response: { 200: MessageResponse, ...errors },
      },
    },
    async (request) => {
      const user = callerOf(request);
      const body = request.body;
      const [portfolio] = scopeFor(user, body.portfolio).portfolios;
      await db.transaction(async (tx) => {
        await setRiskLimits(tx, { portfolio: portfolio!, max_drawdown_pct: body.max_drawdown_pct, min_margin_level_pct: body.min_margin_level_pct });
        await audit(tx, user.id, 'risk.limits', { ...body, portfolio });
      });
      changes.bump();
      return { message: `Risk thresholds of ${portfolio} saved.` };
    },
  );

  app.put(
    '/api/risk/equity-stop',
    {
      preHandler: requirePermission('write'),
      schema: {
        description: "A follower's equity stop in its currency: when its equity falls to it, copying to it stops (with an alert) until the stop is set again; null removes it.",
        body: EquityStopBody,
        response: { 200: MessageResponse, ...errors },
      },
    },
    async (request) => {
      const user = callerOf(request);
      const ref = await findAccount(db, user, request.body.account);
      const account = market.snapshot().accounts.get(ref.id);
      if (!account) throw notFound(`Account not found: ${request.body.account}`);
      if (account.master_id === null) throw badRequest('Not a copy account');
      const stop = request.body.equity_stop;
      await db.transaction(async (tx) => {
        await setEquityStop(tx, ref.id, stop);
        await audit(tx, user.id, 'risk.equity-stop', { account: ref.account_id, equity_stop: stop });
      });
      changes.bump();
      // The stop is stored: the leader reads it again whenever it takes over, so a leader out of reach
      // now is logged, not the caller's error.
      await orders.reloadRules().catch((err: unknown) => request.log.warn({ err }, 'the leader did not hear the new equity stop'));
      return {
        message: stop === null ? `Equity stop of ${ref.account_name} removed.` : `Equity stop of ${ref.account_name} set at ${stop} ${ref.currency}.`,
      };
    },
  );
};
