import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { endpoints } from '#shared/contract/endpoints.ts';
import { ErrorResponse } from '#shared/contract/common.ts';
import type { CopyRule } from '#shared/contract/copy-rules.ts';
import { roundTo } from '#shared/analytics/stats.ts';
import type { SessionUser } from '#server/auth/auth-store.ts';
import { callerOf, requirePermission } from '#server/auth/guard.ts';
import { callerScope, inScope, scopeFor } from '#server/auth/scope.ts';
import type { ClusterOrders } from '#server/scale/cluster-orders.ts';
import { listAlerts } from '#server/db/alerts-repo.ts';
import { audit } from '#server/db/audit-repo.ts';
import { rulesOfScope } from '#server/db/copy-rules-repo.ts';
import { findAccountRef } from '#server/db/accounts-repo.ts';
import type { Queryable } from '#server/db/database.ts';
import { ruleUniverse, saveAllowedPairs } from '#server/copy/rules.ts';
import type { Database } from '#server/db/database.ts';
import { AnswerCache, sendCached } from '#server/http/answer-cache.ts';
import { badRequest, HttpError, notFound } from '#server/http/errors.ts';
import { idempotent } from '#server/http/idempotency.ts';
import type { ExcursionCache } from '#server/live/excursion-cache.ts';
import type { BrokerAdapter } from '#server/broker/port.ts';
import type { Changes } from '#server/scale/changes.ts';
import { portfolioParam } from '#server/http/portfolio-param.ts';
import type { Portfolio } from '#shared/domain/portfolios.ts';

const errors = { 400: ErrorResponse, 401: ErrorResponse, 403: ErrorResponse, 404: ErrorResponse, 409: ErrorResponse, 422: ErrorResponse };

interface Options {
  db: Database;
  market: BrokerAdapter | null;
  /** Orders on masters carry to their copies through the copy engine, wherever it runs. */
  copier: ClusterOrders | null;
  excursions: ExcursionCache;
  /** The generation of what cached answers read (the alerts). */
  changes: Changes;
}

export const tradingRoutes: FastifyPluginAsyncZod<Options> = async (app, { db, market, copier, excursions, changes }) => {
  const requireMarket = (): { market: BrokerAdapter; copier: ClusterOrders } => {
    if (!market || !copier) throw new HttpError(409, 'The data bridge is not connected to any broker.');
    return { market, copier };
  };
  const instruments = () => market?.snapshot().instruments ?? new Map<string, never>();

  /** Open positions matching a by-symbol request inside the caller's (or the named) portfolios. */
  const matching = (user: SessionUser, body: { category: string; symbol: string; direction: 'long' | 'short'; portfolio?: Portfolio | undefined }) => {
    const snap = requireMarket().market.snapshot();
    const inst = snap.instruments.get(body.symbol);
    if (!inst) throw badRequest(`Unknown symbol: ${body.symbol}`);
    if (inst.category !== body.category) throw badRequest(`${body.symbol} is not in category ${body.category}.`);
    const scope = scopeFor(user, body.portfolio);
    const type = body.direction === 'long' ? 'Buy' : 'Sell';
    return snap.positions.filter((p) => {
      const acct = snap.accounts.get(p.account_id);
      return p.symbol === body.symbol && p.type === type && acct !== undefined && inScope(acct.teiko_category, scope);
    });
  };

  app.post(
    endpoints.setTpSl.path,
    { preValidation: requirePermission('write'), schema: { body: endpoints.setTpSl.body, response: { 200: endpoints.setTpSl.response, ...errors } } },
    async (request, reply) => {
      const user = callerOf(request);
      const body = request.body;
      return idempotent(db, request, reply, user.id, async () => {
        const targets = matching(user, { ...body, portfolio: portfolioParam(body.portfolio) });
        if (targets.length === 0) throw notFound('Position not found.');
        const changed = await requireMarket().copier.modifyStops(
          targets.map((p) => p.id),
          body.take_profit,
          body.stop_loss,
          { userId: user.id, action: 'positions.set-tp-sl', details: { ...body, positions: targets.map((p) => p.id) } },
        );
        return { message: `Take profit ${body.take_profit} and stop loss ${body.stop_loss} set on ${changed} position${changed === 1 ? '' : 's'} of ${body.symbol}.` };
      });
    },
  );

  app.post(
    endpoints.closeBySymbol.path,
    { preValidation: requirePermission('write'), schema: { body: endpoints.closeBySymbol.body, response: { 200: endpoints.closeBySymbol.response, ...errors } } },
    async (request, reply) => {
      const user = callerOf(request);
      const body = request.body;
      return idempotent(db, request, reply, user.id, async () => {
        const targets = matching(user, { ...body, portfolio: portfolioParam(body.portfolio) });
        if (targets.length === 0) throw notFound('Position to close not found.');
        const closed = await requireMarket().copier.close(
          targets.map((p) => p.id),
          { userId: user.id, action: 'positions.close', details: { ...body, positions: targets.map((p) => p.id) } },
        );
        return { message: `Close request sent: ${closed} position${closed === 1 ? '' : 's'} of ${body.symbol} closed.` };
      });
    },
  );

  const rulesFor = (user: SessionUser): Promise<CopyRule[]> => rulesOfScope(db, callerScope(user));

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
    async (request) => ({ copy_rules: await rulesFor(callerOf(request)) }),
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
      return idempotent(db, request, reply, user.id, async () => {
        const shown = (await rulesFor(user)).find((r) => r.master_id === master_id);
        const match = shown && (await findAccountRef(db, master_id));
        const account = match && 'found' in match ? match.found : undefined;
        // A master outside the caller's portfolios, or a follower, is answered like an unknown one.
        if (!shown || !account || account.account_id !== master_id) throw notFound(`Master not found: ${master_id}`);
        const actor = { scope: callerScope(user), audit: (tx: Queryable, action: string, detail: object) => audit(tx, user.id, action, detail) };
        // Known to the market now: its instruments and what the terminals quote.
        const quoted = [...instruments().keys(), ...(market?.snapshot().mids.keys() ?? [])];
        const saved = await saveAllowedPairs(db, actor, account, shown.market_type, new_allowed_pairs, (q, m) => ruleUniverse(q, m, quoted));
        changes.bump();
        // The rule is stored: the leader reads it again whenever it takes over.
        await copier?.reloadRules().catch((err: unknown) => request.log.warn({ err }, 'the leader did not hear the new copy rule'));
        return {
          message: `Allowed pairs of ${shown.account_name} updated.`,
          copy_rule: { ...shown, ...saved },
        };
      });
    },
  );

  app.get(
    endpoints.maeMfe.path,
    { schema: { querystring: endpoints.maeMfe.query, response: { 200: endpoints.maeMfe.response, ...errors } } },
    async (request) => {
      const user = callerOf(request);
      const symbol = request.query.symbol;
      await excursions.refresh();
      // Known to the broker, or traded by some account (the history stays readable without a broker).
      if (!instruments().has(symbol) && !(await excursions.has(symbol))) throw notFound(`Unknown symbol: ${symbol}`);
      // Only the trades of the caller's own accounts count.
      const s = excursions.get(symbol, callerScope(user).categories);
      const round = (x: number | null | undefined) => (x === null || x === undefined ? null : roundTo(x, 1));
      return {
        symbol,
        count: s?.count ?? 0,
        stats: {
          avg_mae: round(s?.avg_mae),
          median_mae: round(s?.median_mae),
          avg_mfe: round(s?.avg_mfe),
          median_mfe: round(s?.median_mfe),
        },
      };
    },
  );

  // Alerts: made once per generation and scope (a change bumps the generation; see Changes).
  const alerts = new AnswerCache(changes);
  app.get(
    endpoints.alerts.path,
    { schema: { querystring: endpoints.alerts.query, response: { 200: endpoints.alerts.response, ...errors } } },
    async (request, reply) => {
      const scope = callerScope(callerOf(request));
      return sendCached(alerts, JSON.stringify(['alerts/infos', scope.categories]), request, reply, async () => ({
        alerts: await listAlerts(db, scope),
      }));
    },
  );
};
