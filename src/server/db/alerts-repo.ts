import type { ScopeFilter } from './scope-filter.ts';
import { insertMany } from './bulk.ts';
import type { Queryable } from './database.ts';
import type { NewAlert } from '#server/ledger/port.ts';

export interface AlertRow {
  id: number;
  type: string;
  message: string;
  /** epoch seconds */
  datetime: number;
}

/** Records alerts (one statement, whatever their number). */
export async function insertAlerts(q: Queryable, alerts: readonly NewAlert[]): Promise<void> {
  if (alerts.length === 0) return;
  await insertMany(
    q,
    'alerts',
    ['type', 'message', 'datetime', 'account_id'],
    alerts.map((a) => [a.type, a.message, new Date(a.at * 1000), a.accountId]),
  );
}

/** The newest alerts a scope may see: its accounts' and the system's, newest first. */
export async function listAlerts(q: Queryable, scope: ScopeFilter, limit = 100): Promise<AlertRow[]> {
  const rows = await q.query<{ id: number; type: string; message: string; datetime: Date }>(
    `SELECT al.id, al.type, al.message, al.datetime FROM alerts al LEFT JOIN accounts a ON a.id = al.account_id
     WHERE al.account_id IS NULL OR a.teiko_category = ANY($1) ORDER BY al.datetime DESC, al.id DESC LIMIT $2`,
    [scope.categories, limit],
  );
  return rows.map((r) => ({ ...r, datetime: Math.floor(r.datetime.getTime() / 1000) }));
}
