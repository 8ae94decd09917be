import type { FastifyBaseLogger } from 'fastify';
import type { z } from 'zod';
import type { CopySizing, CreateRelationBody, UpdateRelationBody } from '#shared/contract/copy-relations.ts';
import type { RiskLimitsBody } from '#shared/contract/copy.ts';
import type { Period } from '#shared/domain/constants.ts';
import type { CopyTerms } from '#shared/domain/copy-lot.ts';
import type { Portfolio } from '#shared/domain/portfolios.ts';
import type { SessionUser } from '#server/auth/auth-store.ts';
import { callerScope, inScope, scopeFor } from '#server/auth/scope.ts';
import { bridgeHealth, copyGrowth, copyReport } from '#server/copy/copy-report.ts';
import { createRelation, endRelation, relationOfFollower, relationOut, relationsOf, setFollowerEquityStop, sizingText, updateRelation, type Actor } from '#server/copy/relations.ts';
import { audit } from '#server/db/audit-repo.ts';
import { setRiskLimits } from '#server/db/copy-repo.ts';
import type { Database } from '#server/db/database.ts';
import { badRequest, notFound } from '#server/http/errors.ts';
import type { BrokerAdapter } from '#server/broker/port.ts';
import type { ClusterOrders } from '#server/scale/cluster-orders.ts';
import type { Changes } from '#server/scale/changes.ts';
import { findAccount } from './account-lookup.ts';
import type { CachedRead } from './cached-read.ts';

const termsOf = (body: { sizing: CopySizing; max_lot: number | null }): CopyTerms => ({ sizing: body.sizing, maxLot: body.max_lot });

/** A signed-in user changing relations: their portfolios, audited under their name. */
const actorOf = (user: SessionUser): Actor => ({ scope: callerScope(user), audit: (tx, action, detail) => audit(tx, user.id, action, detail) });
/** A terminal going silent changes nothing in the books: the health figures are made again at least this often. */
const HEALTH_BUCKET_MS = 5_000;

export interface CopyDeps {
  db: Database;
  market: BrokerAdapter;
  orders: ClusterOrders;
  changes: Changes;
  now?: () => number;
}

/**
 * The Copy screen (docs/copy-quality.md, docs/copying.md): the copy report per portfolio and
 * period, the growth of a follower against its master, the copy relations write users set up, and
 * the risk settings they keep (portfolio thresholds, followers' equity stops).
 */
export class CopyService {
  private readonly db: Database;
  private readonly market: BrokerAdapter;
  private readonly orders: ClusterOrders;
  private readonly changes: Changes;
  private readonly now: () => number;

  constructor({ db, market, orders, changes, now = Date.now }: CopyDeps) {
    this.db = db;
    this.market = market;
    this.orders = orders;
    this.changes = changes;
    this.now = now;
  }

  private bucket(): number {
    return Math.floor(this.now() / HEALTH_BUCKET_MS);
  }

  /**
   * A change of relations or stops is stored: the cached answers are stale, and the copy engine reads
   * them again wherever it runs (the leader reads them again whenever it takes over, so a leader out
   * of reach now is logged, not the caller's error).
   */
  private async changed(log: FastifyBaseLogger): Promise<void> {
    this.changes.bump();
    await this.orders.reloadRules().catch((err: unknown) => log.warn({ err }, 'the leader did not hear the change of copy relations'));
  }

  /** The relations whose master and follower are both in the portfolio (every portfolio of the caller without one). */
  async relations(user: SessionUser, portfolio: Portfolio | undefined, includeEnded: boolean) {
    return { data: await relationsOf(this.db, scopeFor(user, portfolio), includeEnded) };
  }

  async createRelation(user: SessionUser, body: z.output<typeof CreateRelationBody>, log: FastifyBaseLogger) {
    const master = await findAccount(this.db, user, body.master);
    const follower = await findAccount(this.db, user, body.follower);
    const created = await createRelation(
      this.db,
      actorOf(user),
      { masterId: master.id, followerId: follower.id, terms: termsOf(body), equityStop: body.equity_stop },
      new Date(this.now()),
    );
    await this.changed(log);
    return { message: `${follower.account_name} now copies ${master.account_name} (${sizingText(created.terms)}).`, relation: relationOut(created) };
  }

  async updateRelation(user: SessionUser, id: number, body: z.output<typeof UpdateRelationBody>, log: FastifyBaseLogger) {
    const r = await updateRelation(this.db, actorOf(user), id, { terms: termsOf(body), equityStop: body.equity_stop, rearm: body.rearm_equity_stop });
    await this.changed(log);
    return { message: `${r.follower.account_name} copies ${r.master.account_name} by ${sizingText(r.terms)}.`, relation: relationOut(r) };
  }

  async endRelation(user: SessionUser, id: number, log: FastifyBaseLogger) {
    const r = await endRelation(this.db, actorOf(user), id, new Date(this.now()));
    await this.changed(log);
    return { message: `${r.follower.account_name} no longer copies ${r.master.account_name}.`, relation: relationOut(r) };
  }

  /** The copy report of the portfolio over the period: made once per generation, scope, period and health bucket. */
  report(user: SessionUser, portfolio: Portfolio | undefined, period: Period) {
    const scope = scopeFor(user, portfolio);
    const one = scope.portfolios.length === 1 ? scope.portfolios[0] : undefined;
    return {
      // Ages and agent states move with the clock too: an answer lasts at most HEALTH_BUCKET_MS.
      key: JSON.stringify(['copy/report', scope.categories, one ?? null, period, this.bucket()]),
      compute: async () => ({ data: await copyReport(this.db, this.market.snapshot(), scope, one, period, this.now()) }),
    } satisfies CachedRead<unknown>;
  }

  /** The bridge's health per account of the portfolio. */
  health(user: SessionUser, portfolio: Portfolio | undefined) {
    const scope = scopeFor(user, portfolio);
    return {
      key: JSON.stringify(['copy/health', scope.categories, this.bucket()]),
      compute: async () => ({ data: await bridgeHealth(this.db, this.market.snapshot(), scope, this.now()) }),
    } satisfies CachedRead<unknown>;
  }

  /** Time-weighted growth of a follower of the caller's and of its master over the period. */
  async growth(user: SessionUser, account: string, period: Period) {
    const ref = await findAccount(this.db, user, account);
    const snapshot = this.market.snapshot();
    const follower = snapshot.accounts.get(ref.id);
    const relation = await relationOfFollower(this.db, ref.id);
    const master = relation ? snapshot.accounts.get(relation.masterId) : undefined;
    if (!follower || !master) throw badRequest('Not a copy account');
    // A master outside the caller's portfolios is not shown, like any account there.
    if (!inScope(master.teiko_category, callerScope(user))) throw notFound("This account's master is outside your portfolios.");
    return { data: await copyGrowth(this.db, follower, master, period, this.now()) };
  }

  /**
   * A portfolio's thresholds, in two steps: the caller is authorised for the portfolio at once (a
   * refusal is no write, so an Idempotency-Key does not keep it); the write, audited, runs when the
   * returned function is called.
   */
  riskLimits(user: SessionUser, body: z.output<typeof RiskLimitsBody>, requested: Portfolio): () => Promise<{ message: string }> {
    const [portfolio] = scopeFor(user, requested).portfolios;
    return async () => {
      await this.db.transaction(async (tx) => {
        await setRiskLimits(tx, { portfolio: portfolio!, max_drawdown_pct: body.max_drawdown_pct, min_margin_level_pct: body.min_margin_level_pct });
        await audit(tx, user.id, 'risk.limits', { ...body, portfolio });
      });
      this.changes.bump();
      return { message: `Risk thresholds of ${portfolio} saved.` };
    };
  }

  /** A follower's equity stop in its currency (null removes it), audited. */
  async setEquityStop(user: SessionUser, account: string, stop: number | null, log: FastifyBaseLogger) {
    const ref = await findAccount(this.db, user, account);
    await setFollowerEquityStop(this.db, actorOf(user), ref, stop);
    await this.changed(log);
    return {
      message: stop === null ? `Equity stop of ${ref.account_name} removed.` : `Equity stop of ${ref.account_name} set at ${stop} ${ref.currency}.`,
    };
  }
}
