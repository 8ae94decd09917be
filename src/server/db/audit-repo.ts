import type { Queryable } from './database.ts';

/**
 * Who may read an audit row (docs/security.md, 'Audit log'): each row records what it is about, the
 * accounts it names (by id) and the portfolios it names, when it is written. A row about accounts or
 * portfolios is read by the users whose portfolios hold every one of them; a row about none (a user,
 * an agent, a broker, a symbol, the bridge) by an administrator and by the user who did it only.
 */
interface Subjects {
  /** Accounts by their account_id (the API's). */
  accounts?: readonly unknown[];
  /** Accounts by their label `login@server` (the admin CLI's). */
  logins?: readonly unknown[];
  /** Copy relations: both their accounts. */
  relations?: readonly unknown[];
  /** Copy guards: their relation's accounts, or their account. */
  guards?: readonly unknown[];
  /** Positions: their accounts. */
  positions?: readonly unknown[];
  portfolios?: readonly unknown[];
}

type Detail = Record<string, unknown>;
const list = (value: unknown): unknown[] => (Array.isArray(value) ? value : value === undefined || value === null ? [] : [value]);
const relation = (d: Detail): Subjects => ({ relations: list(d.relation), accounts: [...list(d.master), ...list(d.follower)] });
const guard = (d: Detail): Subjects => ({ guards: list(d.guard_id), accounts: list(d.account) });

/**
 * What each action's detail names. An action missing here (users, agents, brokers, symbols, the
 * bridge, one's password) is about no account: an administrator's row (and its author's).
 */
const SUBJECTS: Readonly<Record<string, (d: Detail) => Subjects>> = {
  'accounts.add': (d) => ({ accounts: list(d.account_id), logins: list(d.master) }),
  'accounts.import-statement': (d) => ({ accounts: [...list(d.account), ...list(d.accounts)] }),
  'accounts.flex-set': (d) => ({ accounts: list(d.account) }),
  'accounts.flex-delete': (d) => ({ accounts: list(d.account) }),
  'accounts.flex-fetch': (d) => ({ accounts: list(d.account) }),
  'fees.terms': (d) => ({ accounts: list(d.account_id) }),
  'copy-rules.allowed-pairs': (d) => ({ accounts: list(d.master_id) }),
  'copy.relation.create': relation,
  'copy.relation.update': relation,
  'copy.relation.end': relation,
  'risk.equity-stop': (d) => ({ accounts: list(d.account), relations: list(d.relation) }),
  'risk.limits': (d) => ({ portfolios: list(d.portfolio) }),
  'positions.close': (d) => ({ positions: list(d.positions) }),
  'positions.set-tp-sl': (d) => ({ positions: list(d.positions) }),
};

function subjectsOf(action: string, detail: object): Subjects | null {
  const of = SUBJECTS[action] ?? (action.startsWith('risk.guard-') ? guard : undefined);
  return of ? of(detail as Detail) : null;
}

const texts = (values: readonly unknown[] | undefined) => (values ?? []).map(String);
const ids = (values: readonly unknown[] | undefined) =>
  (values ?? []).map((v) => (typeof v === 'number' && Number.isSafeInteger(v) ? v : typeof v === 'string' && /^\d{1,15}$/.test(v) ? Number(v) : -1));

/**
 * The row's accounts, resolved in the row's own transaction: each reference that names no account
 * stands as 0 (no account's id), so the row is then readable by an administrator only.
 */
const RESOLVE = `ARRAY(
    SELECT coalesce(a.id, 0) FROM unnest($4::text[]) r(ref) LEFT JOIN accounts a ON a.account_id = r.ref
    UNION SELECT coalesce(a.id, 0) FROM unnest($5::text[]) r(ref) LEFT JOIN accounts a ON a.account || '@' || a.server = r.ref
    UNION SELECT x FROM unnest($6::int[]) r(id) LEFT JOIN copy_relations cr ON cr.id = r.id
            CROSS JOIN LATERAL unnest(ARRAY[coalesce(cr.master_id, 0), coalesce(cr.follower_id, 0)]) x
    UNION SELECT coalesce(x, 0) FROM unnest($7::int[]) r(id) LEFT JOIN copy_guards g ON g.id = r.id LEFT JOIN copy_relations cr ON cr.id = g.relation_id
            CROSS JOIN LATERAL unnest(CASE WHEN g.relation_id IS NOT NULL THEN ARRAY[cr.master_id, cr.follower_id] ELSE ARRAY[g.account_id] END) x
    UNION SELECT coalesce(p.account_id, 0) FROM unnest($8::bigint[]) r(id) LEFT JOIN positions p ON p.id = r.id)`;

/** Writes an audit row with what it is about; `userId` null for the server's or the operator's own doing. */
export async function insertAudit(tx: Queryable, userId: number | null, action: string, detail: object): Promise<void> {
  const s = subjectsOf(action, detail);
  if (!s) {
    await tx.query('INSERT INTO audit_log (user_id, action, detail) VALUES ($1, $2, $3)', [userId, action, JSON.stringify(detail)]);
    return;
  }
  const named = [s.accounts, s.logins, s.relations, s.guards, s.positions].some((v) => (v?.length ?? 0) > 0);
  await tx.query(
    `INSERT INTO audit_log (user_id, action, detail, account_ids, portfolios)
     VALUES ($1, $2, $3, CASE WHEN $9::boolean THEN ${RESOLVE} END, $10::text[])`,
    [userId, action, JSON.stringify(detail), texts(s.accounts), texts(s.logins), ids(s.relations), ids(s.guards), ids(s.positions), named, s.portfolios?.length ? texts(s.portfolios) : null],
  );
}

/** Records who changed what; call it inside the write's own transaction. */
export async function audit(tx: Queryable, userId: number, action: string, detail: object): Promise<void> {
  await insertAudit(tx, userId, action, detail);
}

/** An audit row of the server's own doing (a guard that reached a level), not of a signed-in user. */
export async function auditSystem(tx: Queryable, action: string, detail: object): Promise<void> {
  await insertAudit(tx, null, action, { ...detail, via: 'server' });
}

export interface AuditLogRow {
  id: number;
  at: Date;
  /** null when the user was deleted since */
  username: string | null;
  action: string;
  detail: unknown;
}

/** Who reads the log: an administrator reads every row; anyone else the rows about their portfolios, and their own. */
export type AuditReader =
  | { admin: true }
  | { admin: false; userId: number; categories: readonly string[]; portfolios: readonly string[] };

/**
 * The rows a reader may see: every account the row names is of the reader's portfolios' categories and
 * every portfolio it names is one of the reader's (and it names at least one), or a row about none
 * that the reader did. Its parameters are numbered from `p`.
 */
const visible = (p: number) => `(
  (a.account_ids IS NULL AND a.portfolios IS NULL AND a.user_id = $${p})
  OR ((cardinality(a.account_ids) > 0 OR cardinality(a.portfolios) > 0)
      AND coalesce(a.account_ids <@ ARRAY(SELECT id FROM accounts WHERE teiko_category = ANY($${p + 1}::text[])), true)
      AND coalesce(a.portfolios <@ $${p + 2}::text[], true)))`;

/** One page of the audit log a reader may see, newest first, and the number of such rows. */
export async function listAudit(
  q: Queryable,
  reader: AuditReader,
  limit: number,
  offset: number,
): Promise<{ rows: AuditLogRow[]; total: number }> {
  const where = (p: number) => (reader.admin ? '' : `WHERE ${visible(p)}`);
  const scope = reader.admin ? [] : [reader.userId, reader.categories, reader.portfolios];
  // The total rides on every row (a window count); a page past the end asks for it alone.
  const rows = await q.query<AuditLogRow & { total: number }>(
    `SELECT a.id, a.at, u.username, a.action, a.detail, count(*) OVER ()::int AS total
       FROM audit_log a LEFT JOIN users u ON u.id = a.user_id
      ${where(3)}
      ORDER BY a.at DESC, a.id DESC
      LIMIT $1 OFFSET $2`,
    [limit, offset, ...scope],
  );
  const total = rows[0]?.total ?? (await q.query<{ n: number }>(`SELECT count(*)::int AS n FROM audit_log a ${where(1)}`, scope))[0]?.n ?? 0;
  return { rows: rows.map((r) => ({ id: r.id, at: r.at, username: r.username, action: r.action, detail: r.detail })), total };
}
