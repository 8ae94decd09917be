import type { Queryable } from './database.ts';

/**
 * How a terminal's copy is tied to its master's position (docs/copying.md 'Linking a copy'): the
 * copy reports `copy_of`, the master position's own identifier in its terminal (MT5
 * POSITION_IDENTIFIER, MT4 ticket; for the simulated market, the position's id). The server reads
 * it through the follower's relations: the master position open now, or known closed (its terminal
 * reported it and then reported it gone). A copy whose master the server has not seen yet is linked
 * to nothing, so it is never closed for want of its master.
 */

/** The identifier a master position is named by in an `open` command and in a copy's `copy_of`. */
export interface MasterPositionRef {
  identifier: number;
  login: string;
  server: string;
}

/** A position's terminal identifier (the simulated market's: its id), with its account's login and server. */
export async function masterPositionRef(q: Queryable, positionId: number): Promise<MasterPositionRef | undefined> {
  const rows = await q.query<MasterPositionRef>(
    `SELECT coalesce(p.identifier, p.id) AS identifier, a.account AS login, a.server
       FROM positions p JOIN accounts a ON a.id = p.account_id WHERE p.id = $1`,
    [positionId],
  );
  return rows[0];
}

/**
 * Stores what reported positions copy (their `copy_of`), by identifier. A report without it keeps
 * what an earlier one said: a copy stays a copy (an agent restarted without its memory, say).
 */
export async function saveCopyOf(q: Queryable, accountId: number, positions: readonly { identifier: number; copy_of: number }[]): Promise<void> {
  if (positions.length === 0) return;
  await q.query(
    `UPDATE positions p SET copy_of = u.copy_of
       FROM unnest($2::bigint[], $3::bigint[]) AS u(identifier, copy_of)
      WHERE p.account_id = $1 AND p.identifier = u.identifier AND p.copy_of IS DISTINCT FROM u.copy_of`,
    [accountId, positions.map((p) => p.identifier), positions.map((p) => p.copy_of)],
  );
}

/**
 * Removes an account's reported positions (these identifiers, or every one not kept) and remembers
 * each as closed: its identifier, its row id and what it copied. Returns how many were removed.
 */
export async function closeReportedPositions(
  q: Queryable,
  accountId: number,
  which: { closed: readonly number[] } | { keep: readonly number[] },
  at: Date,
): Promise<number> {
  const [match, ids] = 'closed' in which ? ['identifier = ANY($2::bigint[])', which.closed] : ['NOT (identifier = ANY($2::bigint[]))', which.keep];
  const rows = await q.query<{ n: number }>(
    `WITH gone AS (DELETE FROM positions WHERE account_id = $1 AND identifier IS NOT NULL AND ${match}
                   RETURNING account_id, identifier, id, copy_of),
          kept AS (INSERT INTO closed_positions (account_id, identifier, position_id, copy_of, closed_at)
                   SELECT account_id, identifier, id, copy_of, $3 FROM gone
                   ON CONFLICT (account_id, identifier) DO UPDATE SET position_id = EXCLUDED.position_id,
                     copy_of = coalesce(EXCLUDED.copy_of, closed_positions.copy_of), closed_at = EXCLUDED.closed_at)
     SELECT count(*)::int AS n FROM gone`,
    [accountId, [...ids], at],
  );
  return rows[0]?.n ?? 0;
}

/**
 * The master position each reported copy is linked to: first by the server's own record — the copy
 * order ('open' command) whose terminal answered that it opened this position (its identifier) names
 * the master's position; then by the `copy_of` the terminal reports with it (the order's comment or
 * magic number, which a broker may rewrite). Either is looked up through the follower's relations (the
 * one that was in force when the copy opened first, then the one in force now, then the latest): the
 * master's position with that identifier, open now or known closed, or the copy order sent for it. A
 * copy opened before the upgrade that named master positions by identifier echoes the master's row id
 * instead: that row id is looked up as an alias when no identifier matches. Copies whose master
 * position the server has not seen are left out.
 */
export async function resolveCopies(q: Queryable): Promise<Map<number, number>> {
  const rows = await q.query<{ id: number; master_position_id: number }>(
    `SELECT DISTINCT ON (f.id) f.id, coalesce(mo.id, mc.position_id, co.master_position_id) AS master_position_id
       FROM positions f
       JOIN copy_relations r ON r.follower_id = f.account_id
       JOIN accounts ma ON ma.id = r.master_id
       LEFT JOIN copy_legacy_refs lg ON lg.master_id = r.master_id AND lg.row_id = f.copy_of
       -- The copy order that opened this very position, as its terminal answered it.
       LEFT JOIN LATERAL (SELECT (c.payload->>'master_position_id')::bigint AS ref FROM commands c
                           WHERE c.account_id = f.account_id AND c.kind = 'open' AND c.state = 'done' AND f.identifier IS NOT NULL
                             AND c.result_identifier = f.identifier AND c.payload->>'master_login' = ma.account
                             AND c.payload->>'master_server' = ma.server
                           ORDER BY c.created_at DESC LIMIT 1) cmd ON true
       CROSS JOIN LATERAL (VALUES (cmd.ref, -1), (f.copy_of, 0), (lg.identifier, 1)) k(ref, alias)
       LEFT JOIN positions mo ON mo.account_id = r.master_id
        AND (mo.identifier = k.ref OR (mo.identifier IS NULL AND mo.id = k.ref))
       LEFT JOIN closed_positions mc ON mc.account_id = r.master_id AND mc.identifier = k.ref
       -- The copy order the copy engine sent for it: the master's position, open or not, whatever its broker.
       LEFT JOIN copy_orders co ON co.follower_account_id = f.account_id AND co.master_account_id = r.master_id AND co.master_ref = k.ref
      WHERE k.ref IS NOT NULL AND coalesce(mo.id, mc.position_id, co.master_position_id) IS NOT NULL
      ORDER BY f.id,
               (f.opened_at >= r.started_at AND (r.ended_at IS NULL OR f.opened_at <= r.ended_at)) DESC,
               (r.ended_at IS NULL) DESC, r.started_at DESC, k.alias, (mo.id IS NOT NULL) DESC`,
  );
  return new Map(rows.map((r) => [r.id, r.master_position_id]));
}

/**
 * What the positions of an account copied (the master position's identifier), open or closed since,
 * by identifier: the copy order its terminal answered it opened first, else the `copy_of` it reported.
 */
export async function copyOfPositions(q: Queryable, accountId: number, identifiers: readonly number[]): Promise<Map<number, number>> {
  if (identifiers.length === 0) return new Map();
  const rows = await q.query<{ identifier: number; copy_of: number; rank: number }>(
    `SELECT identifier, copy_of, 1 AS rank FROM positions WHERE account_id = $1 AND identifier = ANY($2::bigint[]) AND copy_of IS NOT NULL
     UNION ALL
     SELECT identifier, copy_of, 1 FROM closed_positions WHERE account_id = $1 AND identifier = ANY($2::bigint[]) AND copy_of IS NOT NULL
     UNION ALL
     SELECT result_identifier, (payload->>'master_position_id')::bigint, 0 FROM commands
      WHERE account_id = $1 AND kind = 'open' AND state = 'done' AND result_identifier = ANY($2::bigint[]) AND payload ? 'master_position_id'`,
    [accountId, [...identifiers]],
  );
  // The command's word over the reported copy_of: later entries of the map win.
  return new Map([...rows].sort((a, b) => b.rank - a.rank).map((r) => [Number(r.identifier), Number(r.copy_of)]));
}

/**
 * Forgets positions closed before `before` that no open copy names any more (a copy's deals carry
 * their master position once booked; only an open copy still needs its master known closed).
 * Returns how many were forgotten.
 */
export async function pruneClosedPositions(q: Queryable, before: Date): Promise<number> {
  const rows = await q.query<{ n: number }>(
    `WITH gone AS (
       DELETE FROM closed_positions c WHERE c.closed_at < $1
          AND NOT EXISTS (SELECT 1 FROM positions f JOIN copy_relations r ON r.follower_id = f.account_id
                           WHERE r.master_id = c.account_id AND f.copy_of = c.identifier)
       RETURNING 1)
     SELECT count(*)::int AS n FROM gone`,
    [before],
  );
  return rows[0]?.n ?? 0;
}
