import type { Queryable } from './database.ts';

/** A terminal agent: a key an operator issued, scoped to named accounts. */
export interface AgentRow {
  id: number;
  name: string;
  created_at: Date;
  revoked_at: Date | null;
}

/** An account an agent may report (read) and receive commands for (trade). */
export interface AgentAccount {
  id: number;
  account: string;
  server: string;
  account_name: string;
  currency: string;
  broker_id: number;
  rights: 'read' | 'trade';
}

export interface AgentSession {
  session: string;
  last_seq: number;
  utc_offset_minutes: number;
}

export async function insertAgent(q: Queryable, name: string, keyHash: string): Promise<number> {
  const rows = await q.query<{ id: number }>('INSERT INTO agents (name, key_hash) VALUES ($1, $2) RETURNING id', [name, keyHash]);
  return rows[0]!.id;
}

/** Revokes an agent's key (its name in any case); false when no such live agent. */
export async function revokeAgent(q: Queryable, name: string, at: Date): Promise<boolean> {
  const rows = await q.query('UPDATE agents SET revoked_at = $2 WHERE lower(name) = lower($1) AND revoked_at IS NULL RETURNING id', [name, at]);
  return rows.length > 0;
}

export async function listAgents(
  q: Queryable,
): Promise<(AgentRow & { accounts: string[]; dropped: { item: string; reason: string }[] | null; clock_skew_s: number | null })[]> {
  return q.query(
    `SELECT g.id, g.name, g.created_at, g.revoked_at,
            coalesce(array_agg(a.account || '@' || a.server || ':' || ga.rights ORDER BY a.account) FILTER (WHERE a.id IS NOT NULL), '{}') AS accounts,
            (SELECT s.dropped FROM agent_sessions s WHERE s.agent_id = g.id) AS dropped,
            (SELECT s.clock_skew_s::float8 FROM agent_sessions s WHERE s.agent_id = g.id) AS clock_skew_s
     FROM agents g LEFT JOIN agent_accounts ga ON ga.agent_id = g.id LEFT JOIN accounts a ON a.id = ga.account_id
     GROUP BY g.id ORDER BY g.name`,
  );
}

/** The live (not revoked) agent holding this key hash. */
export async function agentByKeyHash(q: Queryable, keyHash: string): Promise<{ id: number; name: string } | undefined> {
  const rows = await q.query<{ id: number; name: string }>('SELECT id, name FROM agents WHERE key_hash = $1 AND revoked_at IS NULL', [keyHash]);
  return rows[0];
}

export async function agentIdByName(q: Queryable, name: string): Promise<number | undefined> {
  const rows = await q.query<{ id: number }>('SELECT id FROM agents WHERE lower(name) = lower($1) AND revoked_at IS NULL', [name]);
  return rows[0]?.id;
}

/** Gives an agent an account, or changes its rights on it. */
export async function grantAccount(q: Queryable, agentId: number, accountId: number, rights: 'read' | 'trade'): Promise<void> {
  await q.query(
    `INSERT INTO agent_accounts (agent_id, account_id, rights) VALUES ($1, $2, $3)
     ON CONFLICT (agent_id, account_id) DO UPDATE SET rights = EXCLUDED.rights`,
    [agentId, accountId, rights],
  );
}

export async function agentAccounts(q: Queryable, agentId: number): Promise<AgentAccount[]> {
  return q.query<AgentAccount>(
    `SELECT a.id, a.account, a.server, a.account_name, a.currency, a.broker_id, ga.rights
     FROM agent_accounts ga JOIN accounts a ON a.id = ga.account_id WHERE ga.agent_id = $1 ORDER BY a.id`,
    [agentId],
  );
}

/** The agent's session, locked until the transaction ends (one batch of an agent at a time). */
export async function lockSession(q: Queryable, agentId: number): Promise<AgentSession | undefined> {
  const rows = await q.query<AgentSession>(
    'SELECT session, last_seq, utc_offset_minutes FROM agent_sessions WHERE agent_id = $1 FOR UPDATE',
    [agentId],
  );
  return rows[0];
}

export async function saveSession(
  q: Queryable,
  agentId: number,
  s: AgentSession & { clock_skew_s: number; seen_at: Date },
): Promise<void> {
  await q.query(
    `INSERT INTO agent_sessions (agent_id, session, last_seq, utc_offset_minutes, clock_skew_s, seen_at)
     VALUES ($1, $2, $3, $4, $5, $6)
     ON CONFLICT (agent_id) DO UPDATE SET session = EXCLUDED.session, last_seq = EXCLUDED.last_seq,
       utc_offset_minutes = EXCLUDED.utc_offset_minutes, clock_skew_s = EXCLUDED.clock_skew_s, seen_at = EXCLUDED.seen_at`,
    [agentId, s.session, s.last_seq, s.utc_offset_minutes, s.clock_skew_s, s.seen_at],
  );
}

/** What the agent left out of its latest batch because the server refused it (kept until a batch says otherwise). */
export async function saveDropped(q: Queryable, agentId: number, dropped: readonly { item: string; reason: string }[], at: Date): Promise<void> {
  await q.query('UPDATE agent_sessions SET dropped = $2, dropped_at = $3 WHERE agent_id = $1', [agentId, JSON.stringify(dropped), at]);
}

/** The answer given to a batch already applied (a batch sent twice is answered the same). */
export async function batchAnswer<T>(q: Queryable, agentId: number, batchId: string): Promise<T | undefined> {
  const rows = await q.query<{ answer: T }>('SELECT answer FROM ingest_batches WHERE agent_id = $1 AND batch_id = $2', [agentId, batchId]);
  return rows[0]?.answer;
}

export async function saveBatch(q: Queryable, agentId: number, batchId: string, answer: unknown): Promise<void> {
  await q.query('INSERT INTO ingest_batches (agent_id, batch_id, answer) VALUES ($1, $2, $3)', [agentId, batchId, JSON.stringify(answer)]);
}

/** Broker server time − UTC in minutes, as the terminal reporting this account last said; null for an account no agent has reported. */
export async function utcOffsetOfAccount(q: Queryable, accountId: number): Promise<number | null> {
  const [row] = await q.query<{ utc_offset_minutes: number }>(
    `SELECT s.utc_offset_minutes FROM agent_accounts aa JOIN agent_sessions s ON s.agent_id = aa.agent_id
     WHERE aa.account_id = $1 ORDER BY s.seen_at DESC LIMIT 1`,
    [accountId],
  );
  return row?.utc_offset_minutes ?? null;
}
