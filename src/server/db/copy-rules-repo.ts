import type { ScopeFilter } from './scope-filter.ts';
import type { Queryable } from './database.ts';
import { IS_MASTER, ROLE_JOIN } from './copy-relations-repo.ts';
import type { Market } from '#shared/domain/market.ts';

/** A master's copy rule as the copy engine reads it (by the master's internal id). */
export interface StoredRule {
  master_id: number;
  market_type: Market;
  allowed_pairs: string[];
}

/** A copy rule as the API shows it (by the master's account_id). */
export interface CopyRuleRow {
  master_id: string;
  market_type: Market;
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

/** The market a master's rule copies when it has none yet: equities for a Global Equity account, else forex (docs/copying.md). */
const DEFAULT_MARKET_SQL = "CASE WHEN a.teiko_category = 'global equity' THEN 'Equities' ELSE 'Forex' END";

/**
 * The rules of every master in a scope (an account is a master unless it follows one): its stored
 * rules, or, for a master without one yet, an empty rule of its default market.
 */
export async function rulesOfScope(q: Queryable, scope: ScopeFilter): Promise<CopyRuleRow[]> {
  return q.query<CopyRuleRow>(
    `SELECT a.account_id AS master_id, coalesce(r.market_type, ${DEFAULT_MARKET_SQL}) AS market_type,
            coalesce(r.allowed_pairs, '{}'::text[]) AS allowed_pairs, a.account_name, b.broker_name
       FROM accounts a JOIN brokers b ON b.id = a.broker_id
       LEFT JOIN copy_rules r ON r.master_id = a.id
       ${ROLE_JOIN}
      WHERE a.teiko_category = ANY($1) AND ${IS_MASTER}
      ORDER BY a.account_name, 2`,
    [scope.categories],
  );
}

/** A master's stored rules (none, or one per market), locked until the transaction ends. */
export async function rulesOfMaster(q: Queryable, masterId: number): Promise<StoredRule[]> {
  return q.query<StoredRule>('SELECT master_id, market_type, allowed_pairs FROM copy_rules WHERE master_id = $1 ORDER BY market_type FOR UPDATE', [masterId]);
}

/**
 * Stores a master's one rule: its market and allowed pairs (the row is made if the master had none),
 * and drops its rule of the other market if that one allows nothing.
 */
export async function saveRule(q: Queryable, rule: StoredRule): Promise<void> {
  await q.query(
    `INSERT INTO copy_rules (master_id, market_type, allowed_pairs) VALUES ($1, $2, $3)
     ON CONFLICT (master_id, market_type) DO UPDATE SET allowed_pairs = EXCLUDED.allowed_pairs`,
    [rule.master_id, rule.market_type, [...rule.allowed_pairs]],
  );
  await q.query("DELETE FROM copy_rules WHERE master_id = $1 AND market_type <> $2 AND allowed_pairs = '{}'", [rule.master_id, rule.market_type]);
}
