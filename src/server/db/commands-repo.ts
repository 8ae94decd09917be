import type { Queryable } from './database.ts';

export type CommandKind = 'modify' | 'close' | 'open';
export type CommandState = 'pending' | 'sent' | 'done' | 'rejected' | 'not_found' | 'expired';
export const FINAL_STATES: readonly CommandState[] = ['done', 'rejected', 'not_found', 'expired'];

export interface NewCommand {
  id: string;
  agentId: number;
  accountId: number;
  kind: CommandKind;
  payload: Record<string, unknown>;
  createdAt: Date;
  expiresAt: Date;
}

export interface CommandRow {
  id: string;
  account_id: number;
  kind: CommandKind;
  payload: Record<string, unknown>;
  state: CommandState;
  message: string | null;
  expires_at: Date;
}

/**
 * Queues commands; returns the ids queued. A close of a position that already has one on its way is
 * not queued (a unique index: two processes or two orders racing cannot send a position two closes).
 * A close past its expiry is no longer on its way: it is expired first (one sent and never answered
 * would otherwise hold the position's place for ever, and the position could never be closed again).
 */
export async function insertCommands(q: Queryable, commands: readonly NewCommand[]): Promise<Set<string>> {
  const queued = new Set<string>();
  for (const c of commands) {
    if (c.kind === 'close') {
      await q.query(
        `UPDATE commands SET state = 'expired', answered_at = $3
         WHERE account_id = $1 AND kind = 'close' AND payload->>'identifier' = $2 AND state IN ('pending', 'sent') AND expires_at <= $3`,
        [c.accountId, String(c.payload.identifier), c.createdAt],
      );
    }
    const rows = await q.query<{ id: string }>(
      `INSERT INTO commands (id, agent_id, account_id, kind, payload, state, created_at, expires_at)
       VALUES ($1, $2, $3, $4, $5, 'pending', $6, $7) ON CONFLICT DO NOTHING RETURNING id`,
      [c.id, c.agentId, c.accountId, c.kind, JSON.stringify(c.payload), c.createdAt, c.expiresAt],
    );
    if (rows[0]) queued.add(rows[0].id);
  }
  return queued;
}

/** Hands an agent its pending commands, once: they are 'sent' from now on and never handed out again. */
export async function takePending(q: Queryable, agentId: number, now: Date, limit = 100): Promise<CommandRow[]> {
  return q.query<CommandRow>(
    `UPDATE commands SET state = 'sent', sent_at = $2
     WHERE id IN (SELECT id FROM commands WHERE agent_id = $1 AND state = 'pending' AND expires_at > $2
                  ORDER BY created_at, id LIMIT $3 FOR UPDATE SKIP LOCKED)
     RETURNING id, account_id, kind, payload, state, message, expires_at`,
    [agentId, now, limit],
  );
}

/**
 * An agent's answer to a command it was sent; undefined when it has no such command awaiting an
 * answer. Past the command's expiry only 'expired' is taken: any other answer is `late`, and the
 * command is recorded as expired (with the terminal's words) so that no order waiting for it is told
 * it was done. 'expired' is taken again for a command that expired after it was sent.
 */
export async function answerCommand(
  q: Queryable,
  agentId: number,
  id: string,
  state: Exclude<CommandState, 'pending' | 'sent'>,
  message: string | null,
  now: Date,
  identifier: number | null = null,
): Promise<{ row: CommandRow; late: boolean } | undefined> {
  const lateMessage = `Answered '${state}' after its expiry${message ? `: ${message}` : '.'}`;
  const rows = await q.query<CommandRow>(
    `UPDATE commands SET
       state = CASE WHEN state = 'sent' AND expires_at > $5 THEN $3 ELSE 'expired' END,
       message = CASE WHEN state = 'expired' THEN message WHEN expires_at > $5 OR $3 = 'expired' THEN $4 ELSE $6 END,
       answered_at = CASE WHEN state = 'expired' THEN answered_at ELSE $5 END,
       result_identifier = CASE WHEN state = 'sent' AND expires_at > $5 AND $3 = 'done' AND kind = 'open' THEN $7::bigint ELSE result_identifier END
     WHERE agent_id = $1 AND id = $2 AND (state = 'sent' OR (state = 'expired' AND sent_at IS NOT NULL AND expires_at <= $5))
     RETURNING id, account_id, kind, payload, state, message, expires_at`,
    [agentId, id, state, message, now, lateMessage, identifier],
  );
  const row = rows[0];
  return row && { row, late: row.state !== state };
}

export async function commandState(q: Queryable, agentId: number, id: string): Promise<CommandState | undefined> {
  const rows = await q.query<{ state: CommandState }>('SELECT state FROM commands WHERE agent_id = $1 AND id = $2', [agentId, id]);
  return rows[0]?.state;
}

export async function commandsByIds(q: Queryable, ids: readonly string[]): Promise<CommandRow[]> {
  if (ids.length === 0) return [];
  return q.query<CommandRow>(
    'SELECT id, account_id, kind, payload, state, message, expires_at FROM commands WHERE id = ANY($1::uuid[])',
    [[...ids]],
  );
}

/** Commands never handed out before their time are expired: a late order is never run. */
export async function expirePending(q: Queryable, now: Date): Promise<string[]> {
  const rows = await q.query<{ id: string }>(
    "UPDATE commands SET state = 'expired', answered_at = $1 WHERE state = 'pending' AND expires_at <= $1 RETURNING id",
    [now],
  );
  return rows.map((r) => r.id);
}

/** The agent that may trade an account (trade rights, key not revoked). */
export async function tradingAgentOf(q: Queryable, accountId: number): Promise<number | undefined> {
  const rows = await q.query<{ agent_id: number }>(
    `SELECT ga.agent_id FROM agent_accounts ga JOIN agents g ON g.id = ga.agent_id
     WHERE ga.account_id = $1 AND ga.rights = 'trade' AND g.revoked_at IS NULL ORDER BY ga.agent_id LIMIT 1`,
    [accountId],
  );
  return rows[0]?.agent_id;
}

/**
 * Positions (by broker identifier) of these accounts with a close on its way to the terminal, or
 * done within the last minute (the terminal's next report has not shown it gone yet): "account|identifier".
 */
export async function closingIdentifiers(q: Queryable, accountIds: readonly number[], now: Date): Promise<Set<string>> {
  if (accountIds.length === 0) return new Set();
  const rows = await q.query<{ account_id: number; identifier: string }>(
    `SELECT account_id, payload->>'identifier' AS identifier FROM commands
     WHERE account_id = ANY($1::int[]) AND kind = 'close'
       AND ((state IN ('pending', 'sent') AND expires_at > $2) OR (state = 'done' AND answered_at > $2::timestamptz - interval '1 minute'))`,
    [[...accountIds], now],
  );
  return new Set(rows.map((r) => `${r.account_id}|${r.identifier}`));
}

/** A copy order ('open' command of a master's trade) that did not happen, claimed once to be told. */
export interface FailedCopyOrder {
  id: string;
  account_id: number;
  state: CommandState;
  /** The terminal's words (a refusal's reason; an expiry's). */
  message: string | null;
  /** Handed to the terminal (an expiry after that is the terminal's answer, not its absence). */
  sent: boolean;
  symbol: string;
  type: string;
  follower_name: string;
  /** The master of the relation the follower copied by when the order was made. */
  master_id: number | null;
  master_name: string | null;
  /** Server clock − the agent's, seconds, as its last batch measured it. */
  clock_skew_s: number | null;
}

/**
 * The copy orders that did not happen and were not told yet, each claimed once (its `told_at` set):
 * refused by the terminal, expired (never handed out, or answered 'expired' by the terminal), or handed
 * out and never answered by `unansweredBefore`.
 */
export async function claimFailedCopies(q: Queryable, now: Date, unansweredBefore: Date, limit = 100): Promise<FailedCopyOrder[]> {
  return q.query<FailedCopyOrder>(
    `WITH due AS (
       SELECT id FROM commands
        WHERE kind = 'open' AND told_at IS NULL AND payload ? 'master_position_id'
          AND (state IN ('rejected', 'expired') OR (state = 'sent' AND expires_at <= $2))
        ORDER BY created_at, id LIMIT $3 FOR UPDATE SKIP LOCKED),
     told AS (
       UPDATE commands c SET told_at = $1 FROM due WHERE c.id = due.id
       RETURNING c.id, c.agent_id, c.account_id, c.state, c.message, c.sent_at, c.payload, c.created_at)
     SELECT DISTINCT ON (t.id) t.id, t.account_id, t.state, t.message, t.sent_at IS NOT NULL AS sent,
            t.payload->>'symbol' AS symbol, t.payload->>'type' AS type, f.account_name AS follower_name,
            m.id AS master_id, m.account_name AS master_name, s.clock_skew_s::float8 AS clock_skew_s
       FROM told t JOIN accounts f ON f.id = t.account_id
       LEFT JOIN copy_relations r ON r.follower_id = t.account_id AND r.started_at <= t.created_at AND (r.ended_at IS NULL OR r.ended_at >= t.created_at)
       LEFT JOIN accounts m ON m.id = r.master_id
       LEFT JOIN agent_sessions s ON s.agent_id = t.agent_id
      ORDER BY t.id, r.started_at DESC`,
    [now, unansweredBefore, limit],
  );
}
