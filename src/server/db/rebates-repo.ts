import type { ScopeFilter } from './scope-filter.ts';
import { cents, roundTo } from '#shared/domain/money.ts';
import { insertMany } from './bulk.ts';
import type { Queryable } from './database.ts';
import type { ProfitSharingEntry, RebateEntry } from '#server/ledger/port.ts';

/**
 * Adds rebates to their account-month rows: lots and rebate are summed, the balance is the last
 * entry's. Entries of one account-month are folded first, so any number is one statement.
 */
export async function addRebates(q: Queryable, entries: readonly RebateEntry[]): Promise<void> {
  const folded = new Map<string, RebateEntry>();
  for (const e of entries) {
    const key = `${e.accountId}|${e.month}`;
    const prev = folded.get(key);
    folded.set(key, prev ? { ...e, lots: prev.lots + e.lots, rebate: prev.rebate + e.rebate } : e);
  }
  await insertMany(
    q,
    'rebates',
    ['account_id', 'month', 'lots', 'total_rebate', 'balance'],
    [...folded.values()].map((e) => [e.accountId, e.month, roundTo(e.lots, 4), cents(e.rebate), e.balance]),
    `ON CONFLICT (account_id, month) DO UPDATE SET lots = rebates.lots + EXCLUDED.lots,
       total_rebate = rebates.total_rebate + EXCLUDED.total_rebate, balance = EXCLUDED.balance`,
  );
}

/** Sets the month's profit sharing (and its closing balance) on the account-month rows. */
export async function setProfitSharing(q: Queryable, entries: readonly ProfitSharingEntry[]): Promise<void> {
  await insertMany(
    q,
    'rebates',
    ['account_id', 'month', 'profit_sharing_amount', 'balance'],
    entries.map((e) => [e.accountId, e.month, e.fee, e.balance]),
    `ON CONFLICT (account_id, month) DO UPDATE SET profit_sharing_amount = EXCLUDED.profit_sharing_amount,
       balance = EXCLUDED.balance`,
  );
}

export interface RebateRow {
  login: string;
  account: string;
  broker_name: string;
  currency: string;
  /** 'YYYY-MM' */
  month: string;
  total_rebate: number;
  profit_sharing_amount: number;
  balance: number;
  category: string;
}

/** Rebate rows of a scope: one per account and month, or per broker, currency and month. */
export async function listRebates(q: Queryable, scope: ScopeFilter, byBroker: boolean): Promise<RebateRow[]> {
  return q.query<RebateRow>(
    byBroker
      ? `SELECT '' AS login, b.broker_name AS account, b.broker_name, a.currency, to_char(r.month, 'YYYY-MM') AS month,
                sum(r.total_rebate) AS total_rebate, sum(r.profit_sharing_amount) AS profit_sharing_amount,
                sum(r.balance) AS balance, min(a.teiko_category) AS category
         FROM rebates r JOIN accounts a ON a.id = r.account_id JOIN brokers b ON b.id = a.broker_id
         WHERE a.teiko_category = ANY($1)
         GROUP BY b.broker_name, a.currency, r.month ORDER BY r.month, b.broker_name, a.currency`
      : `SELECT a.account AS login, a.account_name AS account, b.broker_name, a.currency,
                to_char(r.month, 'YYYY-MM') AS month, r.total_rebate, r.profit_sharing_amount, r.balance,
                a.teiko_category AS category
         FROM rebates r JOIN accounts a ON a.id = r.account_id JOIN brokers b ON b.id = a.broker_id
         WHERE a.teiko_category = ANY($1) ORDER BY r.month, b.broker_name, a.account_name`,
    [scope.categories],
  );
}
