import type { ScopeFilter } from './scope-filter.ts';
import type { Queryable } from './database.ts';

export type MarketType = 'Forex' | 'Equities';

/** A master's copy rule as the copy engine reads it (by the master's internal id). */
export interface StoredRule {
  master_id: number;
  market_type: MarketType;
  allowed_pairs: string[];
}

/** A copy rule as the API shows it (by the master's account_id). */
export interface CopyRuleRow {
  master_id: string;
  market_type: MarketType;
  allowed_pairs: string[];
  account_name: string;
  broker_name: string;
}

export async function allRules(q: Queryable): Promise<StoredRule[]> {
  return q.query<StoredRule>('SELECT master_id, market_type, allowed_pairs FROM copy_rules ORDER BY master_id');
}

export async function insertRule(q: Queryable, rule: StoredRule): Promise<void> {
  await q.query('INSERT INTO copy_rules (master_id, market_type, allowed_pairs) VALUES ($1, $2, $3)', [
    rule.master_id,
    rule.market_type,
    rule.allowed_pairs,
  ]);
}

/** The rules of the masters in a scope. */
export async function rulesOfScope(q: Queryable, scope: ScopeFilter): Promise<CopyRuleRow[]> {
  return q.query<CopyRuleRow>(
    `SELECT a.account_id AS master_id, r.market_type, r.allowed_pairs, a.account_name, b.broker_name
     FROM copy_rules r JOIN accounts a ON a.id = r.master_id JOIN brokers b ON b.id = a.broker_id
     WHERE a.teiko_category = ANY($1) ORDER BY a.account_name, r.market_type`,
    [scope.categories],
  );
}

/** Replaces a master's allowed pairs (the master by its account_id). */
export async function setAllowedPairs(q: Queryable, masterAccountId: string, pairs: readonly string[]): Promise<void> {
  await q.query(
    'UPDATE copy_rules SET allowed_pairs = $2 WHERE master_id = (SELECT id FROM accounts WHERE account_id = $1)',
    [masterAccountId, [...pairs]],
  );
}
