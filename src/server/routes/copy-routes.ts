import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { endpoints } from '#shared/contract/endpoints.ts';
import { ErrorResponse } from '#shared/contract/common.ts';
import type { CopySizing } from '#shared/contract/copy-relations.ts';
import type { CopyTerms } from '#shared/domain/copy-lot.ts';
import type { SessionUser } from '#server/auth/auth-store.ts';
import { callerOf, requirePermission } from '#server/auth/guard.ts';
import { callerScope, inScope, scopeFor } from '#server/auth/scope.ts';
import { bridgeHealth, copyGrowth, copyReport } from '#server/copy/copy-report.ts';
import { createRelation, endRelation, relationOfFollower, relationOut, relationsOf, setFollowerEquityStop, sizingText, updateRelation, type Actor } from '#server/copy/relations.ts';
import { audit } from '#server/db/audit-repo.ts';
import { setRiskLimits } from '#server/db/copy-repo.ts';
import type { Database } from '#server/db/database.ts';
import { badRequest, notFound } from '#server/http/errors.ts';
import { idempotent } from '#server/http/idempotency.ts';
import { AnswerCache, sendCached } from '#server/http/answer-cache.ts';
import type { BrokerAdapter } from '#server/broker/port.ts';
import type { ClusterOrders } from '#server/scale/cluster-orders.ts';
import type { Changes } from '#server/scale/changes.ts';
import { findAccount } from './account-lookup.ts';
import { portfolioParam } from '#server/http/portfolio-param.ts';

const errors = { 400: ErrorResponse, 401: ErrorResponse, 403: ErrorResponse, 404: ErrorResponse, 409: ErrorResponse, 422: ErrorResponse };

const termsOf = (body: { sizing: CopySizing; max_lot: number | null }): CopyTerms => ({ sizing: body.sizing, maxLot: body.max_lot });

/** A signed-in user changing relations: their portfolios, audited under their name. */
const actorOf = (user: SessionUser): Actor => ({ scope: callerScope(user), audit: (tx, action, detail) => audit(tx, user.id, action, detail) });
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
 * The Copy screen (docs/copy-quality.md, docs/copying.md): GET /api/copy/report per portfolio and
 * period, the growth of a follower against its master, the copy relations write users set up, and
 * the risk settings they keep (portfolio thresholds, followers' equity stops).
 */
export const copyRoutes: FastifyPluginAsyncZod<Options> = async (app, { db, market, orders, changes, now = Date.now }) => {
  // Changes only with the market and the books: made once per generation, scope and period.
  const answers = new AnswerCache(changes);
  const bucket = () => Math.floor(now() / HEALTH_BUCKET_MS);

  /**
   * A change of relations or stops is stored: the cached answers are stale, and the copy engine reads
   * them again wherever it runs (the leader reads them again whenever it takes over, so a leader out
   * of reach now is logged, not the caller's error).
   */
  const changed = async (log: { warn: (o: object, m: string) => void }) => {
    changes.bump();
    await orders.reloadRules().catch((err: unknown) => log.warn({ err }, 'the leader did not hear the change of copy relations'));
  };

  app.get(
    endpoints.relations.path,
    {
      schema: {
        description: 'The copy relations whose master and follower are both in the portfolio (every portfolio of the caller without one): sizing, maximum lot, equity stop, since when; `include_ended=true` lists ended ones too.',
        querystring: endpoints.relations.query,
        response: { 200: endpoints.relations.response, ...errors },
      },
    },
    async (request) => ({ data: await relationsOf(db, scopeFor(callerOf(request), portfolioParam(request.query.portfolio)), request.query.include_ended ?? false) }),
  );

  app.post(
    endpoints.createRelation.path,
    {
      preValidation: requirePermission('write'),
      schema: {
        description:
          'A follower starts copying a master (both by account_id or login, both in your portfolios): sizing by ratio, equity proportion or fixed lot, ' +
          'an optional maximum lot and equity stop. Refused: an account copying itself, a follower that already copies a master, chains. Takes Idempotency-Key.',
        body: endpoints.createRelation.body,
        response: { 200: endpoints.createRelation.response, ...errors },
      },
    },
    async (request, reply) => {
      const user = callerOf(request);
      const body = request.body;
      return idempotent(db, request, reply, user.id, async () => {
        const master = await findAccount(db, user, body.master);
        const follower = await findAccount(db, user, body.follower);
        const created = await createRelation(db, actorOf(user), { masterId: master.id, followerId: follower.id, terms: termsOf(body), equityStop: body.equity_stop }, new Date(now()));
        await changed(request.log);
        return { message: `${follower.account_name} now copies ${master.account_name} (${sizingText(created.terms)}).`, relation: relationOut(created) };
      });
    },
  );

  app.put(
    endpoints.updateRelation.path,
    {
      preValidation: requirePermission('write'),
      schema: {
        description: "A relation's terms: sizing, maximum lot, equity stop (a changed stop is armed again; an unchanged one with rearm_equity_stop). Takes Idempotency-Key.",
        params: endpoints.updateRelation.params,
        body: endpoints.updateRelation.body,
        response: { 200: endpoints.updateRelation.response, ...errors },
      },
    },
    async (request, reply) => {
      const user = callerOf(request);
      const body = request.body;
      return idempotent(db, request, reply, user.id, async () => {
        const r = await updateRelation(db, actorOf(user), request.params.id, { terms: termsOf(body), equityStop: body.equity_stop, rearm: body.rearm_equity_stop });
        await changed(request.log);
        return { message: `${r.follower.account_name} copies ${r.master.account_name} by ${sizingText(r.terms)}.`, relation: relationOut(r) };
      });
    },
  );

  app.delete(
    endpoints.endRelation.path,
    {
      preValidation: requirePermission('write'),
      schema: {
        description: "Ends a relation: nothing more is copied to the follower; its open copies still follow their master's trades to their close. Takes Idempotency-Key.",
        params: endpoints.endRelation.params,
        response: { 200: endpoints.endRelation.response, ...errors },
      },
    },
    async (request, reply) => {
      const user = callerOf(request);
      return idempotent(db, request, reply, user.id, async () => {
        const r = await endRelation(db, actorOf(user), request.params.id, new Date(now()));
        await changed(request.log);
        return { message: `${r.follower.account_name} no longer copies ${r.master.account_name}.`, relation: relationOut(r) };
      });
    },
  );

  app.get(
    endpoints.copyReport.path,
    {
      schema: {
        description:
          'Copy quality of the followers in the portfolio over the period (1m, 3m, all): copies linked to their master (recorded or inferred), ' +
          'slippage, delay, size, misses with their reason, duplicates, manual trades, cost of copying, tracking difference; per broker; ' +
          "the bridge's health; risk thresholds and breaches; the net currency exposure of the open positions in EUR.",
        querystring: endpoints.copyReport.query,
        response: { 200: endpoints.copyReport.response, ...errors },
      },
    },
    async (request, reply) => {
      const { portfolio, period } = request.query;
      const scope = scopeFor(callerOf(request), portfolioParam(portfolio));
      const one = scope.portfolios.length === 1 ? scope.portfolios[0] : undefined;
      // Ages and agent states move with the clock too: an answer lasts at most HEALTH_BUCKET_MS.
      return sendCached(answers, JSON.stringify(['copy/report', scope.categories, one ?? null, period, bucket()]), request, reply, async () => ({
        data: await copyReport(db, market.snapshot(), scope, one, period, now()),
      }));
    },
  );

  app.get(
    endpoints.copyHealth.path,
    {
      schema: {
        description: "The bridge's health per account of the portfolio: age of its last update, its agent's state, its terminal's command success over the last month.",
        querystring: endpoints.copyHealth.query,
        response: { 200: endpoints.copyHealth.response, ...errors },
      },
    },
    async (request, reply) => {
      const scope = scopeFor(callerOf(request), portfolioParam(request.query.portfolio));
      return sendCached(answers, JSON.stringify(['copy/health', scope.categories, bucket()]), request, reply, async () => ({
        data: await bridgeHealth(db, market.snapshot(), scope, now()),
      }));
    },
  );

  app.get(
    endpoints.copyGrowth.path,
    {
      schema: {
        description: "Time-weighted growth (%) of a follower and of its master over the period, for the Copy screen's chart.",
        querystring: endpoints.copyGrowth.query,
        response: { 200: endpoints.copyGrowth.response, ...errors },
      },
    },
    async (request) => {
      const ref = await findAccount(db, callerOf(request), request.query.account);
      const snapshot = market.snapshot();
      const follower = snapshot.accounts.get(ref.id);
      const relation = await relationOfFollower(db, ref.id);
      const master = relation ? snapshot.accounts.get(relation.masterId) : undefined;
      if (!follower || !master) throw badRequest('Not a copy account');
      // A master outside the caller's portfolios is not shown, like any account there.
      if (!inScope(master.teiko_category, callerScope(callerOf(request)))) throw notFound("This account's master is outside your portfolios.");
      return { data: await copyGrowth(db, follower, master, request.query.period, now()) };
    },
  );

  app.put(
    endpoints.riskLimits.path,
    {
      preValidation: requirePermission('write'),
      schema: {
        description:
          "A portfolio's thresholds: maximum drawdown (%) and minimum margin level (%); null clears one. Accounts past them show on the Copy screen. Takes Idempotency-Key.",
        body: endpoints.riskLimits.body,
        response: { 200: endpoints.riskLimits.response, ...errors },
      },
    },
    async (request, reply) => {
      const user = callerOf(request);
      const body = request.body;
      const [portfolio] = scopeFor(user, portfolioParam(body.portfolio)).portfolios;
      return idempotent(db, request, reply, user.id, async () => {
        await db.transaction(async (tx) => {
          await setRiskLimits(tx, { portfolio: portfolio!, max_drawdown_pct: body.max_drawdown_pct, min_margin_level_pct: body.min_margin_level_pct });
          await audit(tx, user.id, 'risk.limits', { ...body, portfolio });
        });
        changes.bump();
        return { message: `Risk thresholds of ${portfolio} saved.` };
      });
    },
  );

  app.put(
    endpoints.equityStop.path,
    {
      preValidation: requirePermission('write'),
      schema: {
        description:
          "A follower's equity stop in its currency (on its copy relation): when its equity falls to it, copying to it stops (with an alert) until the stop is set again; null removes it. " +
          'Takes Idempotency-Key: a retried request never arms again a stop that fired since.',
        body: endpoints.equityStop.body,
        response: { 200: endpoints.equityStop.response, ...errors },
      },
    },
    async (request, reply) => {
      const user = callerOf(request);
      const body = request.body;
      return idempotent(db, request, reply, user.id, async () => {
        const ref = await findAccount(db, user, body.account);
        const stop = body.equity_stop;
        await setFollowerEquityStop(db, actorOf(user), ref, stop);
        await changed(request.log);
        return {
          message: stop === null ? `Equity stop of ${ref.account_name} removed.` : `Equity stop of ${ref.account_name} set at ${stop} ${ref.currency}.`,
        };
      });
    },
  );
};
