import type { Queryable } from './database.ts';

/** Records who changed what; call it inside the write's own transaction. */
export async function audit(tx: Queryable, userId: number, action: string, detail: object): Promise<void> {
  await tx.query('INSERT INTO audit_log (user_id, action, detail) VALUES ($1, $2, $3)', [userId, action, JSON.stringify(detail)]);
}

export interface AuditLogRow {
  id: number;
  at: Date;
  /** null when the user was deleted since */
  username: string | null;
  action: string;
  detail: unknown;
}

/** One page of the audit log, newest first, and the number of rows in the whole log. */
export async function listAudit(
  q: Queryable,
  limit: number,
  offset: number,
): Promise<{ rows: AuditLogRow[]; total: number }> {
  // The total rides on every row (a window count); a page past the end asks for it alone.
  const rows = await q.query<AuditLogRow & { total: number }>(
    `SELECT a.id, a.at, u.username, a.action, a.detail, count(*) OVER ()::int AS total
       FROM audit_log a LEFT JOIN users u ON u.id = a.user_id
      ORDER BY a.at DESC, a.id DESC
      LIMIT $1 OFFSET $2`,
    [limit, offset],
  );
  const total = rows[0]?.total ?? (await q.query<{ n: number }>('SELECT count(*)::int AS n FROM audit_log'))[0]?.n ?? 0;
  return { rows: rows.map((r) => ({ id: r.id, at: r.at, username: r.username, action: r.action, detail: r.detail })), total };
}
