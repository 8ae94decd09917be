import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ErrorResponse, MessageResponse } from '#shared/contract/common.ts';
import { AllowedPairsBody, CopyRule, CopyRulesResponse } from '#shared/contract/copy-rules.ts';
import { CloseBySymbolBody, SetTpSlBody } from '#shared/contract/positions.ts';
import { MaeMfeQuery, MaeMfeResponse } from '#shared/contract/stats.ts';
import { AlertsResponse } from '#shared/contract/alerts.ts';
import { FOREX_PAIRS } from '#shared/domain/pairs.ts';
import { z } from 'zod';
import { roundTo } from '#shared/analytics/stats.ts';
import type { SessionUser } from '#server/auth/auth-store.ts';
import { callerOf, requirePermission } from '#server/auth/guard.ts';
import { callerScope, inScope, scopeFor } from '#server/auth/scope.ts';
import type { ClusterOrders } from '#server/scale/cluster-orders.ts';
import { listAlerts } from '#server/db/alerts-repo.ts';
import { audit } from '#server/db/audit-repo.ts';
import { rulesOfScope, setAllowedPairs } from '#server/db/copy-rules-repo.ts';
import { tradedSymbols } from '#server/db/deals-repo.ts';
import type { Database } from '#server/db/database.ts';
import { AnswerCache, sendCached } from '#server/http/answer-cache.ts';
import { badRequest, HttpError, notFound } from '#server/http/errors.ts';
import { idempotent } from '#server/http/idempotency.ts';
import type { ExcursionCache } from '#server/live/excursion-cache.ts';
import type { BrokerAdapter } from '#server/market/adapter.ts';
import type { Changes } from '#server/scale/changes.ts';

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
  const matching = (user: SessionUser, body: { category: string; symbol: string; direction: 'long' | 'short'; portfolio?: string | undefined }) => {
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
    '/api/positions/set-tp-sl-by-symbol',
    { preHandler: requirePermission('write'), schema: { body: SetTpSlBody, response: { 200: MessageResponse, ...errors } } },
    async (request, reply) => {
      const user = callerOf(request);
      const body = request.body;
      return idempotent(db, request, reply, user.id, async () => {
        const targets = matching(user, body);
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
    '/api/positions/close-by-symbol',
    { preHandler: requirePermission('write'), schema: { body: CloseBySymbolBody, response: { 200: MessageResponse, ...errors } } },
    async (request, reply) => {
      const user = callerOf(request);
      const body = request.body;
      return idempotent(db, request, reply, user.id, async () => {
        const targets = matching(user, body);
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

  app.get('/api/copy-rules/infos', { schema: { response: { 200: CopyRulesResponse, ...errors } } }, async (request) => ({
    copy_rules: await rulesFor(callerOf(request)),
  }));

  app.post(
    '/api/copy-rules/allowed-pairs',
    {
      preHandler: requirePermission('write'),
      schema: { body: AllowedPairsBody, response: { 200: MessageResponse.extend({ copy_rule: CopyRule }), ...errors } },
    },
    async (request, reply) => {
      const user = callerOf(request);
      const { master_id, new_allowed_pairs } = request.body;
      return idempotent(db, request, reply, user.id, async () => {
        const rule = (await rulesFor(user)).find((r) => r.master_id === master_id);
        // A master outside the caller's portfolios is answered like an unknown one.
        if (!rule) throw notFound(`Master not found: ${master_id}`);
        const universe: readonly string[] =
          rule.market_type === 'Forex'
            ? FOREX_PAIRS
            : market
              ? [...instruments().values()].filter((i) => i.category === 'Equities').map((i) => i.symbol)
              : await tradedSymbols(db, 'Equities');
        const unknown = new_allowed_pairs.filter((p) => !universe.includes(p));
        if (unknown.length) throw badRequest(`Not ${rule.market_type} instruments: ${unknown.join(', ')}`);
        const pairs = universe.filter((p) => new_allowed_pairs.includes(p));
        await db.transaction(async (tx) => {
          await setAllowedPairs(tx, master_id, pairs);
          await audit(tx, user.id, 'copy-rules.allowed-pairs', { master_id, before: rule.allowed_pairs, after: pairs });
        });
        await copier?.reloadRules();
        return { message: `Allowed pairs of ${rule.account_name} updated.`, copy_rule: { ...rule, allowed_pairs: pairs } };
      });
    },
  );

  app.get(
    '/api/stats/mae_mfe',
    { schema: { querystring: MaeMfeQuery, response: { 200: MaeMfeResponse, ...errors } } },
    async (request) => {
      const user = callerOf(request);
      const symbol = request.query.symbol;
      await excursions.refresh();
      // Known to the broker, or traded by some account (the history stays readable without a broker).
      if (!instruments().has(symbol) && !excursions.has(symbol)) throw notFound(`Unknown symbol: ${symbol}`);
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
    '/api/alerts/infos',
    { schema: { querystring: z.strictObject({}), response: { 200: AlertsResponse, ...errors } } },
    async (request, reply) => {
      const scope = callerScope(callerOf(request));
      return sendCached(alerts, JSON.stringify(['alerts/infos', scope.categories]), request, reply, async () => ({
        alerts: await listAlerts(db, scope),
      }));
    },
  );
};
