import { accountInPortfolio } from '#shared/domain/account-scope.ts';
import { authorisedPortfolios } from '#shared/domain/portfolio-selection.ts';
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

/** How an alert names a master its reader may not see (docs/security.md, 'Alert texts'). */
export const MASTER_OUTSIDE = 'a master outside your portfolios';

/**
 * An alert text that names a master: the master's name for readers who may see it, and
 * 'a master outside your portfolios' for the others (listAlerts and the push dispatcher choose per reader).
 */
export function namingMaster(master: { id: number; account_name: string }, text: (master: string) => string): Pick<NewAlert, 'message' | 'master'> {
  return { message: text(master.account_name), master: { accountId: master.id, outsideMessage: text(MASTER_OUTSIDE) } };
}

/** Records alerts (one statement, whatever their number). */
export async function insertAlerts(q: Queryable, alerts: readonly NewAlert[]): Promise<void> {
  if (alerts.length === 0) return;
  await insertMany(
    q,
    'alerts',
    ['type', 'message', 'datetime', 'account_id', 'master_account_id', 'message_outside'],
    alerts.map((a) => [a.type, a.message, new Date(a.at * 1000), a.accountId, a.master?.accountId ?? null, a.master?.outsideMessage ?? null]),
  );
}

/**
 * An alert's text for a user (a push): as written, unless it names a master of a category outside
 * the user's portfolios (then the text naming 'a master outside your portfolios'), as listAlerts does.
 */
export function alertTextFor(
  alert: { message: string; masterCategory: string | null; messageOutside: string | null },
  user: { portfolioAuth: readonly string[] },
): string {
  if (alert.messageOutside === null) return alert.message;
  const category = alert.masterCategory;
  return category !== null && authorisedPortfolios(user.portfolioAuth).some((p) => accountInPortfolio(category, p)) ? alert.message : alert.messageOutside;
}

/**
 * The newest alerts a scope may see: its accounts' and the system's, newest first; an alert that
 * names a master outside the scope reads 'a master outside your portfolios' instead of its name.
 */
export async function listAlerts(q: Queryable, scope: ScopeFilter, limit = 100): Promise<(AlertRow & { accountId: number | null })[]> {
  const rows = await q.query<{ id: number; type: string; message: string; datetime: Date; accountId: number | null }>(
    `SELECT al.id, al.type, al.account_id AS "accountId",
            CASE WHEN al.message_outside IS NULL OR m.teiko_category = ANY($1) THEN al.message ELSE al.message_outside END AS message,
            al.datetime
       FROM alerts al LEFT JOIN accounts a ON a.id = al.account_id LEFT JOIN accounts m ON m.id = al.master_account_id
      WHERE al.account_id IS NULL OR a.teiko_category = ANY($1) ORDER BY al.datetime DESC, al.id DESC LIMIT $2`,
    [scope.categories, limit],
  );
  return rows.map((r) => ({ ...r, datetime: Math.floor(r.datetime.getTime() / 1000) }));
}
