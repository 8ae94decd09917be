import type { GuardBasis, GuardPeriod, GuardScope, GuardState, GuardUnit } from '#shared/domain/guards.ts';
import type { Queryable } from './database.ts';

/** A copy guard as stored (src/shared/domain/guards.ts for what it means). */
export interface GuardRow {
  id: number;
  scope: GuardScope;
  relationId: number | null;
  accountId: number | null;
  basis: GuardBasis;
  unit: GuardUnit;
  period: GuardPeriod | null;
  warn: number | null;
  closeOnly: number | null;
  closeAll: number | null;
  state: GuardState;
  mark: number | null;
  periodStart: string | null;
  base: number | null;
  /** epoch seconds */
  startedAt: number;
  flowsUntil: number | null;
  lastValue: number | null;
  measuredAt: number | null;
  firedAt: number | null;
}

const COLUMNS = `g.id, g.scope, g.relation_id AS "relationId", g.account_id AS "accountId", g.basis, g.unit, g.period,
  g.warn::float AS warn, g.close_only::float AS "closeOnly", g.close_all::float AS "closeAll", g.state, g.mark::float AS mark,
  to_char(g.period_start, 'YYYY-MM-DD') AS "periodStart", g.base::float AS base,
  extract(epoch FROM g.started_at)::bigint AS "startedAt", extract(epoch FROM g.flows_until)::bigint AS "flowsUntil",
  g.last_value::float AS "lastValue", extract(epoch FROM g.measured_at)::bigint AS "measuredAt", extract(epoch FROM g.fired_at)::bigint AS "firedAt"`;

type Raw = Omit<GuardRow, 'startedAt' | 'flowsUntil' | 'measuredAt' | 'firedAt'> & {
  startedAt: string | number;
  flowsUntil: string | number | null;
  measuredAt: string | number | null;
  firedAt: string | number | null;
};
const num = (v: string | number | null) => (v === null ? null : Number(v));
const toGuard = (r: Raw): GuardRow => ({ ...r, startedAt: Number(r.startedAt), flowsUntil: num(r.flowsUntil), measuredAt: num(r.measuredAt), firedAt: num(r.firedAt) });

/** Every guard of relations in force and of accounts. */
export async function allGuards(q: Queryable): Promise<GuardRow[]> {
  const rows = await q.query<Raw>(
    `SELECT ${COLUMNS} FROM copy_guards g LEFT JOIN copy_relations r ON r.id = g.relation_id
      WHERE g.relation_id IS NULL OR r.ended_at IS NULL ORDER BY g.id`,
  );
  return rows.map(toGuard);
}

export async function guardById(q: Queryable, id: number, lock = false): Promise<GuardRow | undefined> {
  const rows = await q.query<Raw>(`SELECT ${COLUMNS} FROM copy_guards g WHERE g.id = $1 ${lock ? 'FOR UPDATE' : ''}`, [id]);
  return rows[0] && toGuard(rows[0]);
}

/**
 * The guards that apply to an account: on it (follower or master scope), on its relations as follower
 * or as master, and the master guards of the master it copies.
 */
export async function guardsOfAccount(q: Queryable, accountId: number): Promise<GuardRow[]> {
  const rows = await q.query<Raw>(
    `SELECT ${COLUMNS} FROM copy_guards g LEFT JOIN copy_relations r ON r.id = g.relation_id
      WHERE g.account_id = $1
         OR (r.ended_at IS NULL AND (r.follower_id = $1 OR r.master_id = $1))
         OR (g.scope = 'master' AND g.account_id IN (SELECT master_id FROM copy_relations WHERE follower_id = $1 AND ended_at IS NULL))
      ORDER BY g.id`,
    [accountId],
  );
  return rows.map(toGuard);
}

export type NewGuard = Pick<GuardRow, 'scope' | 'relationId' | 'accountId' | 'basis' | 'unit' | 'period' | 'warn' | 'closeOnly' | 'closeAll' | 'base'> & {
  at: Date;
};

/**
 * Sets a guard: one per scope, target and basis; setting one that exists replaces its unit, period and
 * levels, and keeps its state and mark (re-arming is its own act). Returns its id.
 */
export async function saveGuard(q: Queryable, g: NewGuard): Promise<number> {
  const rows = await q.query<{ id: number }>(
    `INSERT INTO copy_guards (scope, relation_id, account_id, basis, unit, period, warn, close_only, close_all, base, started_at, flows_until)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $11)
     ON CONFLICT (scope, coalesce(relation_id, 0), coalesce(account_id, 0), basis)
     DO UPDATE SET unit = EXCLUDED.unit, period = EXCLUDED.period, warn = EXCLUDED.warn, close_only = EXCLUDED.close_only, close_all = EXCLUDED.close_all
     RETURNING id`,
    [g.scope, g.relationId, g.accountId, g.basis, g.unit, g.period, g.warn, g.closeOnly, g.closeAll, g.base, g.at],
  );
  return rows[0]!.id;
}

export async function deleteGuard(q: Queryable, id: number): Promise<boolean> {
  return (await q.query('DELETE FROM copy_guards WHERE id = $1 RETURNING id', [id])).length > 0;
}

/** A guard re-armed: armed again from `at`, its mark kept or started afresh (null: the next measurement sets it). */
export async function rearmGuard(q: Queryable, id: number, fresh: { base: number | null } | null, at: Date): Promise<void> {
  await q.query(
    `UPDATE copy_guards SET state = 'armed', fired_at = NULL,
       mark = CASE WHEN $2 THEN NULL ELSE mark END, period_start = CASE WHEN $2 THEN NULL ELSE period_start END,
       base = CASE WHEN $2 THEN $3 ELSE base END, started_at = CASE WHEN $2 THEN $4 ELSE started_at END,
       flows_until = CASE WHEN $2 THEN $4 ELSE flows_until END
     WHERE id = $1`,
    [id, fresh !== null, fresh?.base ?? null, at],
  );
}

/** A measurement: its state, mark and value; `fired` dates a step into close-only or closed. */
export async function saveMeasurement(
  q: Queryable,
  id: number,
  m: { state: GuardState; mark: number; periodStart: string | null; value: number; at: Date; fired: boolean; base: number | null; flowsUntil: Date | null },
): Promise<void> {
  await q.query(
    `UPDATE copy_guards SET state = $2, mark = $3, period_start = $4, last_value = $5, measured_at = $6,
       fired_at = CASE WHEN $7 THEN $6 ELSE fired_at END, flows_until = coalesce($8, flows_until), base = coalesce(base, $9)
     WHERE id = $1`,
    [id, m.state, m.mark, m.periodStart, m.value, m.at, m.fired, m.flowsUntil, m.base],
  );
}

/** A relation's equity stop: its equity-floor guard in close-only (null removes it); `rearm` arms it again. */
/** A relation's equity-floor guard (its equity stop is the close-only level), or undefined. */
export async function relationFloor(q: Queryable, relationId: number): Promise<{ id: number; warn: number | null; closeOnly: number | null; closeAll: number | null } | undefined> {
  const rows = await q.query<{ id: number; warn: number | null; closeOnly: number | null; closeAll: number | null }>(
    `SELECT id, warn::float8 AS warn, close_only::float8 AS "closeOnly", close_all::float8 AS "closeAll"
       FROM copy_guards WHERE scope = 'relation' AND relation_id = $1 AND basis = 'equity_floor'`,
    [relationId],
  );
  return rows[0];
}

/**
 * A relation's equity stop: its equity-floor guard's close-only level. The guard's other levels (set
 * as a guard) are kept; a stop unchanged and not re-armed changes nothing; a stop removed removes
 * the guard only when it has no other level.
 */
export async function saveEquityStop(q: Queryable, relationId: number, stop: number | null, rearm: boolean, at: Date): Promise<void> {
  const current = await relationFloor(q, relationId);
  if (current && current.closeOnly === stop && !rearm) return;
  if (stop === null) {
    if (!current) return;
    if (current.warn === null && current.closeAll === null) await deleteGuard(q, current.id);
    else await q.query('UPDATE copy_guards SET close_only = NULL WHERE id = $1', [current.id]);
    return;
  }
  const id = await saveGuard(q, {
    scope: 'relation', relationId, accountId: null, basis: 'equity_floor', unit: 'money', period: null,
    warn: current?.warn ?? null, closeOnly: stop, closeAll: current?.closeAll ?? null, base: null, at,
  });
  if (rearm) await rearmGuard(q, id, null, at);
}

/** A risk event of a guard: a level reached, an action taken, a re-arm. */
export interface RiskEvent {
  guardId: number | null;
  accountId: number | null;
  at: Date;
  kind: 'warn' | 'close_only' | 'close_all' | 'close' | 'rearm' | 'warn_rearmed';
  value: number | null;
  message: string;
  detail?: object;
}

export async function insertRiskEvents(q: Queryable, events: readonly RiskEvent[]): Promise<void> {
  for (const e of events) {
    await q.query('INSERT INTO risk_events (guard_id, account_id, at, kind, value, message, detail) VALUES ($1, $2, $3, $4, $5, $6, $7)', [
      e.guardId, e.accountId, e.at, e.kind, e.value, e.message, JSON.stringify(e.detail ?? {}),
    ]);
  }
}

/** An account's risk events in a range (epoch seconds), oldest first: the statement's lines. */
/**
 * The risk events an account's statement shows in [fromS, toS): its own guards' and its relations',
 * and those of its masters' master guards (a master's drawdown that stopped its copies).
 */
export async function riskEventsOf(q: Queryable, accountId: number, fromS: number, toS: number): Promise<{ at: number; kind: string; message: string }[]> {
  const rows = await q.query<{ at: string | number; kind: string; message: string }>(
    `SELECT extract(epoch FROM e.at)::bigint AS at, e.kind, e.message
       FROM risk_events e
      WHERE e.at >= $2 AND e.at < $3
        AND (e.account_id = $1
             OR e.guard_id IN (SELECT g.id FROM copy_guards g JOIN copy_relations r ON r.master_id = g.account_id
                                WHERE g.scope = 'master' AND r.follower_id = $1))
      ORDER BY e.at, e.id`,
    [accountId, new Date(fromS * 1000), new Date(toS * 1000)],
  );
  return rows.map((r) => ({ ...r, at: Number(r.at) }));
}

/**
 * What guards measure beside the snapshot, per guard: a relation guard's copies' closed result since it
 * started; a follower or master guard's cash flows since it last took them (deposits positive).
 */
export async function guardInputs(q: Queryable, ids: readonly number[]): Promise<Map<number, { closed: number; flows: number; flowsUntil: number | null }>> {
  if (ids.length === 0) return new Map();
  const rows = await q.query<{ id: number; closed: number | null; flows: number | null; until: string | number | null }>(
    `SELECT g.id,
            (SELECT sum(d.net)::float FROM deals d WHERE g.scope = 'relation' AND d.account_id = r.follower_id AND d.kind = 'trade'
               AND d.copy_of IS NOT NULL AND d.datetime >= g.started_at) AS closed,
            (SELECT sum(d.amount)::float FROM deals d WHERE g.scope <> 'relation' AND d.account_id = g.account_id
               AND d.kind IN ('deposit', 'withdrawal') AND NOT d.is_opening AND d.datetime > coalesce(g.flows_until, g.started_at)) AS flows,
            (SELECT extract(epoch FROM max(d.datetime))::bigint FROM deals d WHERE g.scope <> 'relation' AND d.account_id = g.account_id
               AND d.kind IN ('deposit', 'withdrawal') AND d.datetime > coalesce(g.flows_until, g.started_at)) AS until
       FROM copy_guards g LEFT JOIN copy_relations r ON r.id = g.relation_id
      WHERE g.id = ANY($1::int[])`,
    [[...ids]],
  );
  return new Map(rows.map((r) => [r.id, { closed: r.closed ?? 0, flows: r.flows ?? 0, flowsUntil: num(r.until) }]));
}
