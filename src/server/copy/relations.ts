import type { CopyRelation } from '#shared/contract/copy-relations.ts';
import type { CopyTerms } from '#shared/domain/copy-lot.ts';
import type { Database, Queryable } from '#server/db/database.ts';
import type { ScopeFilter } from '#server/db/scope-filter.ts';
import {
  accountNames as namesOf,
  activeRelationOf,
  endRelation as endRelationRow,
  followerCount,
  insertRelation,
  listRelations,
  lockAccounts,
  relationById,
  setRelationEquityStop,
  updateRelation as updateRelationRow,
  type RelationWithAccounts,
} from '#server/db/copy-relations-repo.ts';
import { relationFloor } from '#server/db/guards-repo.ts';
import { InvalidRequest, NotFound } from '#server/errors.ts';

/**
 * Copy relations as the API and the admin CLI change them (docs/copying.md): each change checks
 * the rules (no account copies itself, no chains, one master per follower), is written with its
 * audit row in one transaction, and answers the relation as stored. The caller tells the copy
 * engine (wherever it runs) to read the relations again.
 */

/** Who makes a change: what they may see (null: every account, the operator's CLI) and how it is audited. */
export interface Actor {
  scope: ScopeFilter | null;
  audit: (tx: Queryable, action: string, detail: object) => Promise<void>;
}

/** The wire form of a stored relation. */
export function relationOut(r: RelationWithAccounts): CopyRelation {
  const side = (a: RelationWithAccounts['master']) => ({
    account_id: a.account_id,
    account_name: a.account_name,
    broker_name: a.broker_name,
    currency: a.currency,
    login: a.account,
    server: a.server,
  });
  return {
    id: r.id,
    master: side(r.master),
    follower: side(r.follower),
    sizing: r.terms.sizing,
    max_lot: r.terms.maxLot,
    equity_stop: r.equityStop,
    equity_stopped_at: r.equityStoppedAt,
    started_at: r.startedAt,
    ended_at: r.endedAt,
  };
}

/** How a relation sizes its copies, in words (messages, the CLI's list). */
export function sizingText(terms: CopyTerms): string {
  const s = terms.sizing;
  const size = s.mode === 'ratio' ? `ratio ${s.ratio}` : s.mode === 'equity' ? `equity proportion × ${s.multiplier}` : `fixed ${s.lot}`;
  return terms.maxLot === null ? size : `${size}, at most ${terms.maxLot}`;
}

const auditDetail = (r: RelationWithAccounts) => ({
  relation: r.id,
  master: r.master.account_id,
  follower: r.follower.account_id,
  sizing: r.terms.sizing,
  max_lot: r.terms.maxLot,
  equity_stop: r.equityStop,
});

async function stored(q: Queryable, id: number): Promise<RelationWithAccounts> {
  const [r] = await listRelations(q, { id, includeEnded: true });
  if (!r) throw new Error(`copy relation ${id} vanished`);
  return r;
}

const inScope = (scope: ScopeFilter | null, r: RelationWithAccounts) =>
  scope === null || (scope.categories.includes(r.master.teiko_category) && scope.categories.includes(r.follower.teiko_category));

/** A relation the actor may see (both its accounts in their portfolios), else 404 as for one that does not exist. */
async function visible(q: Queryable, actor: Actor, id: number): Promise<RelationWithAccounts> {
  const [r] = await listRelations(q, { id, includeEnded: true });
  if (!r || !inScope(actor.scope, r)) throw new NotFound(`Copy relation not found: ${id}`);
  return r;
}

export async function relationsOf(db: Queryable, scope: ScopeFilter, includeEnded: boolean): Promise<CopyRelation[]> {
  return (await listRelations(db, { scope, includeEnded })).map(relationOut);
}

export interface NewRelationInput {
  masterId: number;
  followerId: number;
  terms: CopyTerms;
  equityStop: number | null;
}

/**
 * A follower starts copying a master. Refused (400): an account copying itself; a follower that
 * copies a master already; a master that copies one itself, or a follower that others copy (no chains).
 */
export async function createRelation(db: Database, actor: Actor, input: NewRelationInput, now: Date): Promise<RelationWithAccounts> {
  return db.transaction((tx) => createRelationIn(tx, actor, input, now));
}

/** createRelation inside a transaction the caller holds (the CLI's account add registers the follower and its relation in one). */
export async function createRelationIn(tx: Queryable, actor: Actor, input: NewRelationInput, now: Date): Promise<RelationWithAccounts> {
  const names = await namesOf(tx, [input.masterId, input.followerId]);
  const master = names.get(input.masterId)!;
  const follower = names.get(input.followerId)!;
  if (input.masterId === input.followerId) throw new InvalidRequest(`${follower} cannot copy itself.`);
  // Two changes touching one account run one after the other: no chain slips between the checks.
  await lockAccounts(tx, [input.masterId, input.followerId]);
  const current = await activeRelationOf(tx, input.followerId);
  if (current) {
    throw new InvalidRequest(
      current.masterId === input.masterId
        ? `${follower} already copies ${master} (relation ${current.id}): edit that relation instead.`
        : `${follower} already copies ${(await namesOf(tx, [current.masterId])).get(current.masterId)} (relation ${current.id}): end that relation first; an account copies one master at a time.`,
    );
  }
  const masterCopies = await activeRelationOf(tx, input.masterId);
  if (masterCopies) {
    throw new InvalidRequest(
      `${master} copies ${(await namesOf(tx, [masterCopies.masterId])).get(masterCopies.masterId)} itself: a follower cannot be a master (no chains of copies).`,
    );
  }
  const led = await followerCount(tx, input.followerId);
  if (led > 0) throw new InvalidRequest(`${follower} is the master of ${led} follower${led === 1 ? '' : 's'}: a master cannot copy another (no chains of copies).`);
  const id = await insertRelation(tx, { ...input, startedAt: now });
  const created = await stored(tx, id);
  await actor.audit(tx, 'copy.relation.create', auditDetail(created));
  return created;
}

/**
 * An equity stop is its relation's equity-floor guard's close-only level: between the guard's warning
 * level and its close-all level where they are set (a floor falls through warn, close-only, close-all).
 */
async function checkStopWithinFloor(q: Queryable, relationId: number, stop: number | null): Promise<void> {
  const floor = await relationFloor(q, relationId);
  if (stop === null || !floor) return;
  if ((floor.warn !== null && stop >= floor.warn) || (floor.closeAll !== null && stop <= floor.closeAll)) {
    const bounds = [floor.warn !== null ? `below its warning level ${floor.warn}` : null, floor.closeAll !== null ? `above its close-all level ${floor.closeAll}` : null].filter(Boolean).join(' and ');
    throw new InvalidRequest(`The equity stop ${stop} must be ${bounds}: the relation's equity-floor guard has these levels (change them on the Copy screen first).`);
  }
}

/** New terms for a relation in force; an equity stop changed (or set), or `rearm`, is armed again. */
export async function updateRelation(
  db: Database,
  actor: Actor,
  id: number,
  input: { terms: CopyTerms; equityStop: number | null; rearm?: boolean },
): Promise<RelationWithAccounts> {
  return db.transaction(async (tx) => {
    const before = await visible(tx, actor, id);
    await relationById(tx, id, true);
    if (before.endedAt !== null) throw new InvalidRequest(`The copy relation ${id} has ended: create a new one.`);
    await checkStopWithinFloor(tx, id, input.equityStop);
    await updateRelationRow(tx, id, input.terms, input.equityStop, input.rearm === true || input.equityStop !== before.equityStop);
    const after = await stored(tx, id);
    await actor.audit(tx, 'copy.relation.update', { ...auditDetail(after), before: auditDetail(before) });
    return after;
  });
}

/** Ends a relation: no new copies from now; the follower's open copies still follow their master trades to their close. */
export async function endRelation(db: Database, actor: Actor, id: number, now: Date): Promise<RelationWithAccounts> {
  return db.transaction(async (tx) => {
    await visible(tx, actor, id);
    await relationById(tx, id, true);
    if (!(await endRelationRow(tx, id, now))) throw new InvalidRequest(`The copy relation ${id} has ended already.`);
    const ended = await stored(tx, id);
    await actor.audit(tx, 'copy.relation.end', auditDetail(ended));
    return ended;
  });
}

/**
 * Sets (or, with null, removes) the equity stop of the relation a follower copies by, armed again,
 * with its audit row (`risk.equity-stop`), in one transaction; 400 when the account follows no master.
 */
export async function setFollowerEquityStop(db: Database, actor: Actor, follower: { id: number; account_id: string }, stop: number | null): Promise<RelationWithAccounts> {
  return db.transaction(async (tx) => {
    const current = await activeRelationOf(tx, follower.id, true);
    if (!current) throw new InvalidRequest('Not a copy account');
    await setRelationEquityStop(tx, current.id, stop);
    await actor.audit(tx, 'risk.equity-stop', { account: follower.account_id, relation: current.id, equity_stop: stop });
    return stored(tx, current.id);
  });
}

/** The relation an account follows its master by now (for the equity stop route and the CLI). */
export async function relationOfFollower(q: Queryable, followerId: number): Promise<RelationWithAccounts | undefined> {
  const r = await activeRelationOf(q, followerId);
  return r && stored(q, r.id);
}
