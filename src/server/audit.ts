import type { Queryable } from './db/database.ts';

/** Records who changed what; call it inside the write's own transaction. */
export async function audit(tx: Queryable, userId: number, action: string, detail: object): Promise<void> {
  await tx.query('INSERT INTO audit_log (user_id, action, detail) VALUES ($1, $2, $3)', [userId, action, JSON.stringify(detail)]);
}
