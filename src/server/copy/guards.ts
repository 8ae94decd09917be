import type { z } from 'zod';
import type { Guard, SetGuardBody } from '#shared/contract/guards.ts';
import type { GuardUnit } from '#shared/domain/guards.ts';
import { roundTo } from '#shared/domain/money.ts';
import { accountRefById, findAccountRef, type AccountRef } from '#server/db/accounts-repo.ts';
import { insertAlerts, namingMaster } from '#server/db/alerts-repo.ts';
import { listRelations, type RelationWithAccounts } from '#server/db/copy-relations-repo.ts';
import type { Database, Queryable } from '#server/db/database.ts';
import { deleteGuard, guardById, guardsOfAccount, insertRiskEvents, rearmGuard, saveGuard, type GuardRow } from '#server/db/guards-repo.ts';
import { InvalidRequest, NotFound } from '#server/errors.ts';
import type { NewAlert } from '#server/ledger/port.ts';
import type { Actor } from './relations.ts';

/*
 * Copy guards as the API and the admin CLI set them (docs/copying.md, 'Guards'): each change checks
 * that what it guards is the caller's to see, is written with its audit row (and, for a re-arm, its risk
 * event and alert) in one transaction, and answers the guard as stored. The caller tells the copy
 * engine to read the guards again.
 */

type SetGuard = z.output<typeof SetGuardBody>;

const visible = (actor: Actor, a: { teiko_category: string }) => actor.scope === null || actor.scope.categories.includes(a.teiko_category);

async function relationIn(q: Queryable, actor: Actor, id: number): Promise<RelationWithAccounts> {
  const [relation] = await listRelations(q, { id });
  if (!relation || relation.endedAt !== null || !visible(actor, relation.master) || !visible(actor, relation.follower)) {
    throw new NotFound(`Relation not found: ${id}`);
  }
  return relation;
}

async function accountIn(q: Queryable, actor: Actor, ref: string): Promise<AccountRef> {
  const match = await findAccountRef(q, ref, actor.scope ?? undefined);
  if (!('found' in match)) throw new NotFound(`Account not found: ${ref}`);
  return match.found;
}

/** A guard as the API answers it, its target named. */
export async function guardOut(q: Queryable, g: GuardRow): Promise<Guard> {
  const side = (a: { account_id: string; account_name: string }) => ({ account_id: a.account_id, account_name: a.account_name });
  const relation = g.relationId === null ? undefined : (await listRelations(q, { id: g.relationId, includeEnded: true }))[0];
  const account = g.accountId === null ? undefined : await accountRefById(q, g.accountId);
  return {
    id: g.id,
    scope: g.scope,
    relation: relation ? { id: relation.id, master: side(relation.master), follower: side(relation.follower) } : null,
    account: account ? side(account) : null,
    basis: g.basis,
    unit: g.unit,
    period: g.period,
    currency: relation?.follower.currency ?? account?.currency ?? '',
    warn: g.warn,
    close_only: g.closeOnly,
    close_all: g.closeAll,
    state: g.state,
    last_value: g.lastValue,
    measured_at: g.measuredAt,
    mark: g.mark,
    fired_at: g.firedAt,
    started_at: g.startedAt,
  };
}

/** Whether the actor may see what a guard guards (404 otherwise, as for an unknown one). */
async function requireVisible(q: Queryable, actor: Actor, g: GuardRow | undefined, id: number): Promise<GuardRow> {
  if (!g) throw new NotFound(`Guard not found: ${id}`);
  if (g.relationId !== null) await relationIn(q, actor, g.relationId);
  else if (g.accountId !== null) {
    const a = await accountRefById(q, g.accountId);
    if (!a || !visible(actor, a)) throw new NotFound(`Guard not found: ${id}`);
  }
  return g;
}

/** The guards that apply to an account of the actor's (its own, its relations', its master's). */
export async function guardsFor(db: Database, actor: Actor, ref: string): Promise<Guard[]> {
  const account = await accountIn(db, actor, ref);
  const out: Guard[] = [];
  for (const g of await guardsOfAccount(db, account.id)) {
    const shown = await requireVisible(db, actor, g, g.id).catch(() => null);
    if (shown) out.push(await guardOut(db, shown));
  }
  return out;
}

/** Sets a guard (one per scope, target and basis: setting it again replaces its levels, keeping its state). */
export async function setGuard(db: Database, actor: Actor, body: SetGuard, now: Date): Promise<Guard> {
  return db.transaction(async (tx) => {
    let relationId: number | null = null;
    let accountId: number | null = null;
    if (body.scope === 'relation') {
      if (typeof body.target !== 'number') throw new InvalidRequest('target must be a relation id for a relation guard');
      relationId = (await relationIn(tx, actor, body.target)).id;
    } else {
      accountId = (await accountIn(tx, actor, String(body.target))).id;
    }
    const unit: GuardUnit = body.basis === 'equity_floor' ? 'money' : (body.unit ?? 'percent');
    // A level is kept as it is shown: money to the cent, a percentage to 4 decimals.
    const level = (l: number | null | undefined) => (l == null ? null : roundTo(l, unit === 'money' ? 2 : 4));
    const [warn, closeOnly, closeAll] = [level(body.warn), level(body.close_only), level(body.close_all)];
    const id = await saveGuard(tx, {
      scope: body.scope, relationId, accountId, basis: body.basis, unit, period: body.period ?? null,
      // A relation guard's base (the follower's equity it starts from) is taken at its first measurement.
      warn, closeOnly, closeAll, base: null, at: now,
    });
    await actor.audit(tx, 'risk.guard-set', { guard_id: id, scope: body.scope, target: body.target, basis: body.basis, unit, period: body.period ?? null, warn, close_only: closeOnly, close_all: closeAll });
    return guardOut(tx, (await guardById(tx, id))!);
  });
}

export async function removeGuard(db: Database, actor: Actor, id: number): Promise<Guard> {
  return db.transaction(async (tx) => {
    const g = await requireVisible(tx, actor, await guardById(tx, id, true), id);
    const out = await guardOut(tx, g);
    // Audited before it goes: the row is about the guard's accounts (docs/security.md).
    await actor.audit(tx, 'risk.guard-delete', { guard_id: id, scope: g.scope, basis: g.basis });
    await deleteGuard(tx, id);
    return out;
  });
}

/**
 * A write user re-arms a guard: armed again, copying as its levels allow, its mark kept or started afresh
 * from today's equity. An audited risk event with its alert (and push).
 */
export async function rearm(db: Database, actor: Actor, id: number, fresh: boolean, now: Date): Promise<Guard> {
  return db.transaction(async (tx) => {
    const g = await requireVisible(tx, actor, await guardById(tx, id, true), id);
    const relation = g.relationId === null ? null : await relationIn(tx, actor, g.relationId);
    const accountId = relation?.follower.id ?? g.accountId!;
    await rearmGuard(tx, id, fresh ? { base: null } : null, now);
    const text = (name: string) => `The ${g.scope} guard of ${name} was re-armed${fresh ? ', starting afresh from today\'s equity' : ', keeping its mark'}: copying resumes as its levels allow.`;
    // A relation's guard names its master too: a reader of the follower who may not see it reads 'a master outside your portfolios'.
    const alert: Pick<NewAlert, 'message' | 'master'> = relation
      ? namingMaster(relation.master, (m) => text(`${relation.follower.account_name} ← ${m}`))
      : { message: text((await accountRefById(tx, accountId))?.account_name ?? String(accountId)) };
    // The event is a line of the follower's statement: a master of another category than the follower's is not named there.
    const crosses = relation !== null && relation.master.teiko_category !== relation.follower.teiko_category;
    const told = crosses && alert.master ? alert.master.outsideMessage : alert.message;
    await insertRiskEvents(tx, [{ guardId: id, accountId, at: now, kind: 'rearm', value: null, message: told, detail: { fresh } }]);
    await insertAlerts(tx, [{ type: 'guard', ...alert, at: Math.floor(now.getTime() / 1000), accountId }]);
    await actor.audit(tx, 'risk.guard-rearm', { guard_id: id, fresh_mark: fresh });
    return guardOut(tx, (await guardById(tx, id))!);
  });
}
