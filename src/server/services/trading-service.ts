import type { CopyRule } from '#shared/contract/copy-rules.ts';
import type { CloseBySymbolBody, SetTpSlBody } from '#shared/contract/positions.ts';
import { roundTo } from '#shared/domain/money.ts';
import type { Portfolio } from '#shared/domain/portfolios.ts';
import type { SessionUser } from '#server/auth/auth-store.ts';
import { callerScope, inScope, scopeFor } from '#server/auth/scope.ts';
import type { CopyOrders } from '#server/copy/orders.ts';
import { listAlerts } from '#server/db/alerts-repo.ts';
import { audit } from '#server/db/audit-repo.ts';
import { rulesOfScope } from '#server/db/copy-rules-repo.ts';
import { findAccountRef } from '#server/db/accounts-repo.ts';
import type { Database, Queryable } from '#server/db/database.ts';
import { ruleUniverse, saveAllowedPairs } from '#server/copy/rules.ts';
import { badRequest, HttpError, notFound } from '#server/http/errors.ts';
import type { ExcursionCache } from '#server/live/excursion-cache.ts';
import type { BrokerAdapter } from '#server/broker/port.ts';
import type { Changes } from '#server/scale/changes.ts';
import type { CachedRead } from './cached-read.ts';
import { groupAlerts } from '#shared/domain/alert-groups.ts';

export interface TradingDeps {
  db: Database;
  market: BrokerAdapter | null;
  /** Orders on masters carry to their copies through the copy engine, wherever it runs. */
  copier: CopyOrders | null;
  excursions: ExcursionCache;
  /** The generation of what cached answers read (the alerts, the rules). */
  changes: Changes;
}

/**
 * Orders by symbol on the open positions (take profit and stop loss, close), the masters' copy
 * rules, the excursions of a symbol's trades, the alerts.
 */
export class TradingService {
  constructor(private readonly deps: TradingDeps) {}

  private requireMarket(): { market: BrokerAdapter; copier: CopyOrders } {
    const { market, copier } = this.deps;
    if (!market || !copier) throw new HttpError(409, 'The data bridge is not connected to any broker.');
    return { market, copier };
  }

  private instruments() {
    return this.deps.market?.snapshot().instruments ?? new Map<string, never>();
  }

  /** Open positions matching a by-symbol request inside the caller's (or the named) portfolios. */
  private matching(user: SessionUser, body: { category: string; symbol: string; direction: 'long' | 'short' }, portfolio: Portfolio | undefined) {
    const snap = this.requireMarket().market.snapshot();
    const inst = snap.instruments.get(body.symbol);
    if (!inst) throw badRequest(`Unknown symbol: ${body.symbol}`);
    if (inst.category !== body.category) throw badRequest(`${body.symbol} is not in category ${body.category}.`);
    const scope = scopeFor(user, portfolio);
    const type = body.direction === 'long' ? 'Buy' : 'Sell';
    return snap.positions.filter((p) => {
      const acct = snap.accounts.get(p.account_id);
      return p.symbol === body.symbol && p.type === type && acct !== undefined && inScope(acct.teiko_category, scope);
    });
  }

  /** Sets take profit and stop loss on the matching positions (and, through the copy engine, their copies). */
  async setTpSl(user: SessionUser, body: SetTpSlBody, portfolio: Portfolio | undefined) {
    const targets = this.matching(user, body, portfolio);
    if (targets.length === 0) throw notFound('Position not found.');
    const changed = await this.requireMarket().copier.modifyStops(
      targets.map((p) => p.id),
      body.take_profit,
      body.stop_loss,
      { userId: user.id, action: 'positions.set-tp-sl', details: { ...body, positions: targets.map((p) => p.id) } },
    );
    return { message: `Take profit ${body.take_profit} and stop loss ${body.stop_loss} set on ${changed} position${changed === 1 ? '' : 's'} of ${body.symbol}.` };
  }

  /** Closes the matching positions (and, through the copy engine, their copies). */
  async closeBySymbol(user: SessionUser, body: CloseBySymbolBody, portfolio: Portfolio | undefined) {
    const targets = this.matching(user, body, portfolio);
    if (targets.length === 0) throw notFound('Position to close not found.');
    const closed = await this.requireMarket().copier.close(
      targets.map((p) => p.id),
      { userId: user.id, action: 'positions.close', details: { ...body, positions: targets.map((p) => p.id) } },
    );
    return { message: `Close request sent: ${closed} position${closed === 1 ? '' : 's'} of ${body.symbol} closed.` };
  }

  /** The copy rule of every master in the caller's portfolios. */
  copyRules(user: SessionUser): Promise<CopyRule[]> {
    return rulesOfScope(this.deps.db, callerScope(user));
  }

  /**
   * Replaces a master's allowed pairs, audited; then the cached answers are stale and the copy
   * engine reads the rules again (a leader out of reach is logged: it reads them whenever it takes over).
   */
  async setAllowedPairs(user: SessionUser, masterId: string, pairs: string[]) {
    const { db, market, copier, changes } = this.deps;
    const shown = (await this.copyRules(user)).find((r) => r.master_id === masterId);
    const match = shown && (await findAccountRef(db, masterId));
    const account = match && 'found' in match ? match.found : undefined;
    // A master outside the caller's portfolios, or a follower, is answered like an unknown one.
    if (!shown || !account || account.account_id !== masterId) throw notFound(`Master not found: ${masterId}`);
    const actor = { scope: callerScope(user), audit: (tx: Queryable, action: string, detail: object) => audit(tx, user.id, action, detail) };
    // Known to the market now: its instruments and what the terminals quote.
    const quoted = [...this.instruments().keys(), ...(market?.snapshot().mids.keys() ?? [])];
    const write = async () => {
      const saved = await saveAllowedPairs(db, actor, account, shown.market_type, pairs, (q, m) => ruleUniverse(q, m, quoted));
      changes.bump();
      return saved;
    };
    // Answered once the copy engine has read the rule again wherever it runs.
    const saved = copier ? await copier.change('The copy rule', write) : await write();
    return {
      message: `Allowed pairs of ${shown.account_name} updated.`,
      copy_rule: { ...shown, ...saved },
    };
  }

  /** The adverse and favourable excursions of a symbol's trades in the caller's accounts. */
  async maeMfe(user: SessionUser, symbol: string) {
    const { excursions } = this.deps;
    await excursions.refresh();
    // Known to the broker, or traded by some account (the history stays readable without a broker).
    if (!this.instruments().has(symbol) && !(await excursions.has(symbol))) throw notFound(`Unknown symbol: ${symbol}`);
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
  }

  /** The alerts of the caller's portfolios: made once per generation and scope (a change bumps the generation; see Changes). */
  alerts(user: SessionUser) {
    const scope = callerScope(user);
    return {
      key: JSON.stringify(['alerts/infos', scope.categories]),
      // A burst of one kind on one account is one line with its count (alert-groups.ts), newest 100 lines.
      compute: async () => ({
        alerts: groupAlerts(await listAlerts(this.deps.db, scope, 1_000))
          .slice(0, 100)
          .map(({ id, type, message, datetime, count }) => ({ id, type, message, datetime, count })),
      }),
    } satisfies CachedRead<unknown>;
  }
}
