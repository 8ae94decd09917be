import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { endpoints } from '#shared/contract/endpoints.ts';
import { ErrorResponse } from '#shared/contract/common.ts';
import { callerOf, requirePermission } from '#server/auth/guard.ts';
import { AnswerCache, sendCached, type Generation } from '#server/http/answer-cache.ts';
import type { Idempotent } from '#server/http/idempotency.ts';
import { portfolioParam } from '#server/http/portfolio-param.ts';
import type { CopyService } from '#server/services/copy-service.ts';

const errors = { 400: ErrorResponse, 401: ErrorResponse, 403: ErrorResponse, 404: ErrorResponse, 409: ErrorResponse, 422: ErrorResponse, 503: ErrorResponse };

interface Options {
  copy: CopyService;
  idempotent: Idempotent;
  changes: Generation;
}

/**
 * The Copy screen (docs/copy-quality.md, docs/copying.md): GET /api/copy/report per portfolio and
 * period, the growth of a follower against its master, the copy relations write users set up, and
 * the risk settings they keep (portfolio thresholds, followers' equity stops). CopyService does the work.
 */
export const copyRoutes: FastifyPluginAsyncZod<Options> = async (app, { copy, idempotent, changes }) => {
  // Changes only with the market and the books: made once per generation, scope and period.
  const answers = new AnswerCache(changes);

  app.get(
    endpoints.relations.path,
    {
      schema: {
        description: 'The copy relations whose master and follower are both in the portfolio (every portfolio of the caller without one): sizing, maximum lot, equity stop, since when; `include_ended=true` lists ended ones too.',
        querystring: endpoints.relations.query,
        response: { 200: endpoints.relations.response, ...errors },
      },
    },
    async (request) => copy.relations(callerOf(request), portfolioParam(request.query.portfolio), request.query.include_ended ?? false),
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
      return idempotent(request, reply, user.id, () => copy.createRelation(user, request.body));
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
      return idempotent(request, reply, user.id, () => copy.updateRelation(user, request.params.id, request.body));
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
      return idempotent(request, reply, user.id, () => copy.endRelation(user, request.params.id));
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
      const read = copy.report(callerOf(request), portfolioParam(request.query.portfolio), request.query.period);
      return sendCached(answers, read.key, request, reply, read.compute);
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
      const read = copy.health(callerOf(request), portfolioParam(request.query.portfolio));
      return sendCached(answers, read.key, request, reply, read.compute);
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
    async (request) => copy.growth(callerOf(request), request.query.account, request.query.period),
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
      const write = copy.riskLimits(user, request.body, portfolioParam(request.body.portfolio));
      return idempotent(request, reply, user.id, write);
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
      return idempotent(request, reply, user.id, () => copy.setEquityStop(user, body.account, body.equity_stop));
    },
  );

  app.get(
    endpoints.guards.path,
    {
      schema: {
        description:
          "The copy guards that apply to an account of the caller's (its own follower or master guards, its relations' guards, its master's): " +
          'scope, basis, unit, period, levels, state (armed, warned, close_only, closed), the last measure and the mark (docs/copying.md, "Guards").',
        querystring: endpoints.guards.query,
        response: { 200: endpoints.guards.response, ...errors },
      },
    },
    async (request) => copy.guards(callerOf(request), request.query.account),
  );

  app.put(
    endpoints.setGuard.path,
    {
      preValidation: requirePermission('write'),
      schema: {
        description:
          'Sets a copy guard: `scope` relation (target: the relation id), follower or master (target: account_id or login); `basis` equity_floor ' +
          '(money), loss_from_start, trailing_from_peak, period_loss (with `period` day, week or month, UTC) or profit_target, in `unit` percent ' +
          '(15 for 15 %) or money; up to three levels: `warn` (an alert and push), `close_only` (no new copies; closes and SL/TP edits still copied), ' +
          '`close_all` (every copy in scope closed, copying disabled). One guard per scope, target and basis: setting it again replaces its levels ' +
          'and keeps its state. A guard never resumes by itself (POST …/rearm). Audited. Takes Idempotency-Key.',
        body: endpoints.setGuard.body,
        response: { 200: endpoints.setGuard.response, ...errors },
      },
    },
    async (request, reply) => {
      const user = callerOf(request);
      return idempotent(request, reply, user.id, () => copy.setGuard(user, request.body));
    },
  );

  app.delete(
    endpoints.deleteGuard.path,
    {
      preValidation: requirePermission('write'),
      schema: {
        description: 'Removes a copy guard (the copying it held back resumes as the other guards allow). Audited. Takes Idempotency-Key.',
        params: endpoints.deleteGuard.params,
        response: { 200: endpoints.deleteGuard.response, ...errors },
      },
    },
    async (request, reply) => {
      const user = callerOf(request);
      return idempotent(request, reply, user.id, () => copy.removeGuard(user, request.params.id));
    },
  );

  app.post(
    endpoints.rearmGuard.path,
    {
      preValidation: requirePermission('write'),
      schema: {
        description:
          'Re-arms a copy guard that reached close-only or closed: armed again, its mark kept (`fresh_mark: false`) or started afresh from ' +
          "today's equity (`true`). An audited risk event with its alert. Takes Idempotency-Key.",
        params: endpoints.rearmGuard.params,
        body: endpoints.rearmGuard.body,
        response: { 200: endpoints.rearmGuard.response, ...errors },
      },
    },
    async (request, reply) => {
      const user = callerOf(request);
      return idempotent(request, reply, user.id, () => copy.rearmGuard(user, request.params.id, request.body.fresh_mark));
    },
  );
};
