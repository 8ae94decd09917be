import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ErrorResponse, MessageResponse } from '#shared/contract/common.ts';
import { AllowedPairsBody, CopyRule, CopyRulesResponse } from '#shared/contract/copy-rules.ts';
import { CloseBySymbolBody, SetTpSlBody } from '#shared/contract/positions.ts';
import { MaeMfeQuery, MaeMfeResponse } from '#shared/contract/stats.ts';
import { AlertsResponse } from '#shared/contract/alerts.ts';
import { FOREX_PAIRS } from '#shared/domain/pairs.ts';
import { z } from 'zod';
import { audit } from '#server/audit.ts';
import type { SessionUser } from '#server/auth/auth-store.ts';
import { callerOf, requirePermission } from '#server/auth/guard.ts';
import { authorisedPortfolios, inScope, portfoliosFor, scopeCategories } from '#server/auth/scope.ts';
import type { Database } from '#server/db/database.ts';
import { badRequest, HttpError, notFound } from '#server/http/errors.ts';
import { idempotent } from '#server/http/idempotency.ts';
import type { ExcursionCache } from '#server/live/excursion-cache.ts';
import { EQUITY_SYMBOLS, INSTRUMENT_BY_SYMBOL } from '#server/market/instruments.ts';
import type { SimulatedMarket } from '#server/market/simulated-market.ts';

const errors = { 400: ErrorResponse, 401: ErrorResponse, 403: ErrorResponse, 404: ErrorResponse, 409: ErrorResponse, 422: ErrorResponse };

interface Options {
  db: Database;
  market: SimulatedMarket | null;
  excursions: ExcursionCache;
}

export const tradingRoutes: FastifyPluginAsyncZod<Options> = async (app, { db, market, excursions }) => {
  const requireMarket = (): SimulatedMarket => {
    if (!market) throw new HttpError(409, 'The data bridge is not connected to any broker.');
    return market;
  };

  /** Open positions matching a by-symbol request inside the caller's (or the named) portfolios. */
  const matching = (user: SessionUser, body: { category: string; symbol: string; direction: 'long' | 'short'; portfolio?: string | undefined }) => {
    const m = requireMarket();
    const inst = INSTRUMENT_BY_SYMBOL.get(body.symbol);
    if (!inst) throw badRequest(`Unknown symbol: ${body.symbol}`);
    if (inst.market !== body.category) throw badRequest(`${body.symbol} is not in category ${body.category}.`);
    const portfolios = portfoliosFor(user, body.portfolio);
    const type = body.direction === 'long' ? 'Buy' : 'Sell';
    const snap = m.snapshot();
    return snap.positions.filter((p) => {
      const acct = snap.accounts.get(p.account_id);
      return p.symbol === body.symbol && p.type === type && acct !== undefined && inScope(acct.teiko_category, portfolios);
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
        const changed = await requireMarket().modifyStops(
          targets.map((p) => p.id),
          body.take_profit,
          body.stop_loss,
          (tx) => audit(tx, user.id, 'positions.set-tp-sl', { ...body, positions: targets.map((p) => p.id) }),
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
        const closed = await requireMarket().close(
          targets.map((p) => p.id),
          (tx) => audit(tx, user.id, 'positions.close', { ...body, positions: targets.map((p) => p.id) }),
        );
        return { message: `Close request sent: ${closed} position${closed === 1 ? '' : 's'} of ${body.symbol} closed.` };
      });
    },
  );

  const rulesFor = async (user: SessionUser) => {
    const categories = scopeCategories(authorisedPortfolios(user));
    return db.query<CopyRule>(
      `SELECT a.account_id AS master_id, r.market_type, r.allowed_pairs, a.account_name, b.broker_name
       FROM copy_rules r JOIN accounts a ON a.id = r.master_id JOIN brokers b ON b.id = a.broker_id
       WHERE a.teiko_category = ANY($1) ORDER BY a.account_name, r.market_type`,
      [categories],
    );
  };

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
        const universe: readonly string[] = rule.market_type === 'Forex' ? FOREX_PAIRS : EQUITY_SYMBOLS;
        const unknown = new_allowed_pairs.filter((p) => !universe.includes(p));
        if (unknown.length) throw badRequest(`Not ${rule.market_type} instruments: ${unknown.join(', ')}`);
        const pairs = universe.filter((p) => new_allowed_pairs.includes(p));
        await db.transaction(async (tx) => {
          await tx.query(
            `UPDATE copy_rules SET allowed_pairs = $2 WHERE master_id = (SELECT id FROM accounts WHERE account_id = $1)`,
            [master_id, pairs],
          );
          await audit(tx, user.id, 'copy-rules.allowed-pairs', { master_id, before: rule.allowed_pairs, after: pairs });
        });
        await market?.reloadRules();
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
      if (!INSTRUMENT_BY_SYMBOL.has(symbol)) throw notFound(`Unknown symbol: ${symbol}`);
      await excursions.refresh();
      // Only the trades of the caller's own accounts count.
      const s = excursions.get(symbol, scopeCategories(authorisedPortfolios(user)));
      const round = (x: number | null | undefined) => (x === null || x === undefined ? null : Math.round(x * 10) / 10);
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

  app.get(
    '/api/alerts/infos',
    { schema: { querystring: z.strictObject({}), response: { 200: AlertsResponse, ...errors } } },
    async (request) => {
      const categories = scopeCategories(authorisedPortfolios(callerOf(request)));
      const rows = await db.query<{ id: number; type: string; message: string; datetime: Date }>(
        `SELECT al.id, al.type, al.message, al.datetime FROM alerts al LEFT JOIN accounts a ON a.id = al.account_id
         WHERE al.account_id IS NULL OR a.teiko_category = ANY($1) ORDER BY al.datetime DESC, al.id DESC LIMIT 100`,
        [categories],
      );
      return { alerts: rows.map((r) => ({ ...r, datetime: Math.floor(r.datetime.getTime() / 1000) })) };
    },
  );
};
