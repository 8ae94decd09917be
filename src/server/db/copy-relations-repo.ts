import type { CopySizing, CopyTerms } from '#shared/domain/copy-lot.ts';
import { saveEquityStop } from './guards-repo.ts';
import type { Queryable } from './database.ts';
import type { ScopeFilter } from './scope-filter.ts';

/**
 * Copy relations (docs/copying.md): who copies whom, how the copy is sized, its cap and its equity
 * stop, from when to when. One active relation per follower; an account is a master unless it
 * follows one.
 */
/**
 * An account's relation in force, joined on the account `a` as `cr`: its master is `cr.master_id`,
 * and it is a master itself (it follows none) when `cr.id IS NULL`. The one place that says an
 * account is a master unless it follows one (docs/copying.md).
 */
export const ROLE_JOIN = 'LEFT JOIN copy_relations cr ON cr.follower_id = a.id AND cr.ended_at IS NULL';
export const IS_MASTER = 'cr.id IS NULL';

export interface Relation {
  id: number;
  masterId: number;
  followerId: number;
  terms: CopyTerms;
  /** The follower's equity stop in its currency; null: none. */
  equityStop: number | null;
  /** epoch seconds the stop fired; null while armed (or without a stop). */
  equityStoppedAt: number | null;
  /** epoch seconds */
  startedAt: number;
  endedAt: number | null;
}

interface RelationDbRow {
  id: number;
  master_id: number;
  follower_id: number;
  sizing: CopySizing['mode'];
  sizing_value: number;
  max_lot: number | null;
  equity_stop: number | null;
  equity_stopped_at: Date | null;
  started_at: Date;
  ended_at: Date | null;
}

/** A relation's equity stop is its equity-floor guard in close-only (src/server/db/guards-repo.ts). */
const COLUMNS = `r.id, r.master_id, r.follower_id, r.sizing, r.sizing_value, r.max_lot,
  (SELECT g.close_only FROM copy_guards g WHERE g.scope = 'relation' AND g.relation_id = r.id AND g.basis = 'equity_floor') AS equity_stop,
  (SELECT g.fired_at FROM copy_guards g WHERE g.scope = 'relation' AND g.relation_id = r.id AND g.basis = 'equity_floor') AS equity_stopped_at,
  r.started_at, r.ended_at`;

const epoch = (d: Date | null): number | null => (d === null ? null : Math.floor(d.getTime() / 1000));

function sizingOf(mode: CopySizing['mode'], value: number): CopySizing {
  switch (mode) {
    case 'ratio':
      return { mode, ratio: value };
    case 'equity':
      return { mode, multiplier: value };
    case 'fixed':
      return { mode, lot: value };
  }
}

/** The one number a sizing is stored as: the ratio, the multiplier, or the lot. */
export function sizingValue(s: CopySizing): number {
  return s.mode === 'ratio' ? s.ratio : s.mode === 'equity' ? s.multiplier : s.lot;
}

function toRelation(r: RelationDbRow): Relation {
  return {
    id: r.id,
    masterId: r.master_id,
    followerId: r.follower_id,
    terms: { sizing: sizingOf(r.sizing, r.sizing_value), maxLot: r.max_lot },
    equityStop: r.equity_stop,
    equityStoppedAt: epoch(r.equity_stopped_at),
    startedAt: epoch(r.started_at)!,
    endedAt: epoch(r.ended_at),
  };
}

/** Every relation in force now. */
export async function activeRelations(q: Queryable): Promise<Relation[]> {
  return (await q.query<RelationDbRow>(`SELECT ${COLUMNS} FROM copy_relations r WHERE r.ended_at IS NULL ORDER BY r.id`)).map(toRelation);
}

/** A relation by id, locked until the transaction ends when `lock`. */
export async function relationById(q: Queryable, id: number, lock = false): Promise<Relation | undefined> {
  const rows = await q.query<RelationDbRow>(`SELECT ${COLUMNS} FROM copy_relations r WHERE r.id = $1 ${lock ? 'FOR UPDATE' : ''}`, [id]);
  return rows[0] && toRelation(rows[0]);
}

/** The relation an account follows its master by now, if any. */
export async function activeRelationOf(q: Queryable, followerId: number, lock = false): Promise<Relation | undefined> {
  const rows = await q.query<RelationDbRow>(
    `SELECT ${COLUMNS} FROM copy_relations r WHERE r.follower_id = $1 AND r.ended_at IS NULL ${lock ? 'FOR UPDATE' : ''}`,
    [followerId],
  );
  return rows[0] && toRelation(rows[0]);
}

/** How many followers copy this account now. */
export async function followerCount(q: Queryable, masterId: number): Promise<number> {
  const rows = await q.query<{ n: number }>('SELECT count(*)::int AS n FROM copy_relations WHERE master_id = $1 AND ended_at IS NULL', [masterId]);
  return rows[0]?.n ?? 0;
}

/** Accounts' names by id (for messages). */
export async function accountNames(q: Queryable, ids: readonly number[]): Promise<Map<number, string>> {
  const rows = await q.query<{ id: number; account_name: string }>('SELECT id, account_name FROM accounts WHERE id = ANY($1::int[])', [[...ids]]);
  return new Map(rows.map((r) => [r.id, r.account_name]));
}

/**
 * Locks these accounts' rows until the transaction ends, in id order: two relation writes touching
 * one account (A → B and B → C) run one after the other, so no chain slips between their checks.
 */
export async function lockAccounts(q: Queryable, ids: readonly number[]): Promise<void> {
  await q.query('SELECT id FROM accounts WHERE id = ANY($1::int[]) ORDER BY id FOR UPDATE', [[...ids]]);
}

export interface NewRelation {
  masterId: number;
  followerId: number;
  terms: CopyTerms;
  equityStop: number | null;
  startedAt: Date;
}

export async function insertRelation(q: Queryable, r: NewRelation): Promise<number> {
  const rows = await q.query<{ id: number }>(
    `INSERT INTO copy_relations (master_id, follower_id, sizing, sizing_value, max_lot, started_at)
     VALUES ($1, $2, $3, $4, $5, $6) RETURNING id`,
    [r.masterId, r.followerId, r.terms.sizing.mode, sizingValue(r.terms.sizing), r.terms.maxLot, r.startedAt],
  );
  const id = rows[0]!.id;
  if (r.equityStop !== null) await saveEquityStop(q, id, r.equityStop, true, r.startedAt);
  return id;
}

/** Dates the relation a follower copies by now from `at` (the generated history's follower joined its master then). */
export async function startRelationAt(q: Queryable, followerId: number, at: Date): Promise<void> {
  await q.query('UPDATE copy_relations SET started_at = $2 WHERE follower_id = $1 AND ended_at IS NULL', [followerId, at]);
}

/** New terms for a relation; `rearm` arms again a stop that fired (the stop was set again). */
export async function updateRelation(q: Queryable, id: number, terms: CopyTerms, equityStop: number | null, rearm: boolean): Promise<void> {
  await q.query('UPDATE copy_relations SET sizing = $2, sizing_value = $3, max_lot = $4 WHERE id = $1', [
    id, terms.sizing.mode, sizingValue(terms.sizing), terms.maxLot,
  ]);
  await saveEquityStop(q, id, equityStop, rearm, new Date());
}

/** Sets (or clears, with null) a relation's equity stop; a stop set again is armed again. */
export async function setRelationEquityStop(q: Queryable, id: number, stop: number | null): Promise<void> {
  await saveEquityStop(q, id, stop, true, new Date());
}

/** Ends a relation now; false when it had ended already. */
export async function endRelation(q: Queryable, id: number, at: Date): Promise<boolean> {
  const rows = await q.query('UPDATE copy_relations SET ended_at = greatest($2::timestamptz, started_at) WHERE id = $1 AND ended_at IS NULL RETURNING id', [id, at]);
  return rows.length > 0;
}

/** One side of a relation, as the API and the CLI name it. */
export interface RelationAccount {
  id: number;
  account_id: string;
  account: string;
  server: string;
  account_name: string;
  broker_name: string;
  currency: string;
  teiko_category: string;
  source: string;
}

export interface RelationWithAccounts extends Relation {
  master: RelationAccount;
  follower: RelationAccount;
}

const side = (prefix: 'm' | 'f') =>
  `json_build_object('id', ${prefix}.id, 'account_id', ${prefix}.account_id, 'account', ${prefix}.account, 'server', ${prefix}.server,
     'account_name', ${prefix}.account_name, 'broker_name', ${prefix}b.broker_name, 'currency', ${prefix}.currency,
     'teiko_category', ${prefix}.teiko_category, 'source', ${prefix}.source)`;

/**
 * Relations with both accounts named, newest first: those whose master and follower are both in
 * `scope` (every one without it), in force only unless `includeEnded`.
 */
export async function listRelations(q: Queryable, options: { scope?: ScopeFilter; includeEnded?: boolean; id?: number } = {}): Promise<RelationWithAccounts[]> {
  const where: string[] = [];
  const params: unknown[] = [];
  if (options.scope) {
    params.push(options.scope.categories);
    where.push(`m.teiko_category = ANY($${params.length}::text[]) AND f.teiko_category = ANY($${params.length}::text[])`);
  }
  if (!options.includeEnded) where.push('r.ended_at IS NULL');
  if (options.id !== undefined) {
    params.push(options.id);
    where.push(`r.id = $${params.length}`);
  }
  const rows = await q.query<RelationDbRow & { master: unknown; follower: unknown }>(
    `SELECT ${COLUMNS}, ${side('m')} AS master, ${side('f')} AS follower
       FROM copy_relations r
       JOIN accounts m ON m.id = r.master_id JOIN brokers mb ON mb.id = m.broker_id
       JOIN accounts f ON f.id = r.follower_id JOIN brokers fb ON fb.id = f.broker_id
      ${where.length ? `WHERE ${where.join(' AND ')}` : ''}
      ORDER BY (r.ended_at IS NULL) DESC, m.account_name, f.account_name, r.started_at DESC, r.id DESC`,
    params,
  );
  const parse = (v: unknown) => (typeof v === 'string' ? JSON.parse(v) : v) as RelationAccount;
  return rows.map((r) => ({ ...toRelation(r), master: parse(r.master), follower: parse(r.follower) }));
}
