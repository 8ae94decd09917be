import type { z } from 'zod';
import type { CopySizing, CreateRelationBody, UpdateRelationBody } from '#shared/contract/copy-relations.ts';
import type { RiskLimitsBody } from '#shared/contract/copy.ts';
import type { SetGuardBody } from '#shared/contract/guards.ts';
import { guardsFor, rearm, removeGuard, setGuard } from '#server/copy/guards.ts';
import type { Period } from '#shared/domain/constants.ts';
import type { CopyTerms } from '#shared/domain/copy-lot.ts';
import type { Portfolio } from '#shared/domain/portfolios.ts';
import type { SessionUser } from '#server/auth/auth-store.ts';
import { callerScope, inScope, scopeFor } from '#server/auth/scope.ts';
import { bridgeHealth, copyGrowth, copyReport, type ContactOf } from '#server/copy/copy-report.ts';
import { createRelation, endRelation, relationOfFollower, relationOut, relationsOf, setFollowerEquityStop, sizingText, updateRelation, type Actor } from '#server/copy/relations.ts';
import { audit } from '#server/db/audit-repo.ts';
import { setRiskLimits } from '#server/db/copy-repo.ts';
import type { Database } from '#server/db/database.ts';
import { badRequest, notFound } from '#server/http/errors.ts';
import type { BrokerAdapter } from '#server/broker/port.ts';
import type { CopyOrders } from '#server/copy/orders.ts';
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
  orders: CopyOrders;
  changes: Changes;
  /** How each account's broker connection is doing (the broker stack's contact). */
  contactOf: ContactOf;
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
  private readonly orders: CopyOrders;
  private readonly changes: Changes;
  private readonly now: () => number;
  private readonly contactOf: ContactOf;

  constructor({ db, market, orders, changes, contactOf, now = Date.now }: CopyDeps) {
    this.contactOf = contactOf;
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
   * A change of relations, stops or guards: written, the cached answers made stale, and answered once
   * the copy engine has read it again wherever it runs (CopyOrders.change).
   */
  private change<T>(what: string, write: () => Promise<T>): Promise<T> {
    return this.orders.change(what, async () => {
      const result = await write();
      this.changes.bump();
      return result;
    });
  }

  /** The relations whose master and follower are both in the portfolio (every portfolio of the caller without one). */
  async relations(user: SessionUser, portfolio: Portfolio | undefined, includeEnded: boolean) {
    return { data: await relationsOf(this.db, scopeFor(user, portfolio), includeEnded) };
  }

  async createRelation(user: SessionUser, body: z.output<typeof CreateRelationBody>) {
    const master = await findAccount(this.db, user, body.master);
    const follower = await findAccount(this.db, user, body.follower);
    const created = await this.change('The new copy relation', () =>
      createRelation(
        this.db,
        actorOf(user),
        { masterId: master.id, followerId: follower.id, terms: termsOf(body), equityStop: body.equity_stop },
        new Date(this.now()),
      ),
    );
    return { message: `${follower.account_name} now copies ${master.account_name} (${sizingText(created.terms)}).`, relation: relationOut(created) };
  }

  async updateRelation(user: SessionUser, id: number, body: z.output<typeof UpdateRelationBody>) {
    const r = await this.change('The change of the copy relation', () =>
      updateRelation(this.db, actorOf(user), id, { terms: termsOf(body), equityStop: body.equity_stop, rearm: body.rearm_equity_stop }),
    );
    return { message: `${r.follower.account_name} copies ${r.master.account_name} by ${sizingText(r.terms)}.`, relation: relationOut(r) };
  }

  async endRelation(user: SessionUser, id: number) {
    const r = await this.change('The end of the copy relation', () => endRelation(this.db, actorOf(user), id, new Date(this.now())));
    return { message: `${r.follower.account_name} no longer copies ${r.master.account_name}.`, relation: relationOut(r) };
  }

  /** The copy report of the portfolio over the period: made once per generation, scope, period and health bucket. */
  report(user: SessionUser, portfolio: Portfolio | undefined, period: Period) {
    const scope = scopeFor(user, portfolio);
    const one = scope.portfolios.length === 1 ? scope.portfolios[0] : undefined;
    return {
      // Ages and agent states move with the clock too: an answer lasts at most HEALTH_BUCKET_MS.
      key: JSON.stringify(['copy/report', scope.categories, one ?? null, period, this.bucket()]),
      compute: async () => ({ data: await copyReport(this.db, this.market.snapshot(), scope, one, period, this.now(), this.contactOf) }),
    } satisfies CachedRead<unknown>;
  }

  /** The bridge's health per account of the portfolio. */
  health(user: SessionUser, portfolio: Portfolio | undefined) {
    const scope = scopeFor(user, portfolio);
    return {
      key: JSON.stringify(['copy/health', scope.categories, this.bucket()]),
      compute: async () => ({ data: await bridgeHealth(this.db, this.market.snapshot(), scope, this.now(), this.contactOf) }),
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
  async setEquityStop(user: SessionUser, account: string, stop: number | null) {
    const ref = await findAccount(this.db, user, account);
    await this.change('The equity stop', () => setFollowerEquityStop(this.db, actorOf(user), ref, stop));
    return {
      message: stop === null ? `Equity stop of ${ref.account_name} removed.` : `Equity stop of ${ref.account_name} set at ${stop} ${ref.currency}.`,
    };
  }

  /** The guards that apply to an account of the caller's, with their state. */
  async guards(user: SessionUser, account: string) {
    return { data: await guardsFor(this.db, actorOf(user), account) };
  }

  /** Sets a guard (write users), audited; the copy engine reads the guards again. */
  async setGuard(user: SessionUser, body: z.output<typeof SetGuardBody>) {
    const guard = await this.change('The guard', () => setGuard(this.db, actorOf(user), body, new Date(this.now())));
    return { message: `Guard ${guard.id} set: ${guard.scope} ${guard.basis.replace(/_/g, ' ')}.`, data: guard };
  }

  async removeGuard(user: SessionUser, id: number) {
    const guard = await this.change('The removal of the guard', () => removeGuard(this.db, actorOf(user), id));
    return { message: `Guard ${id} removed.`, data: guard };
  }

  async rearmGuard(user: SessionUser, id: number, fresh: boolean) {
    const guard = await this.change('The re-arm of the guard', () => rearm(this.db, actorOf(user), id, fresh, new Date(this.now())));
    return { message: `Guard ${id} re-armed${fresh ? ' from today\'s equity' : ''}.`, data: guard };
  }
}
