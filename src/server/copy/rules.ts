import type { Market } from '#shared/domain/market.ts';
import { FOREX_PAIRS } from '#shared/domain/pairs.ts';
import { categoryOfSymbol } from '#shared/domain/instruments.ts';
import type { Database, Queryable } from '#server/db/database.ts';
import { activeRelationOf } from '#server/db/copy-relations-repo.ts';
import { rulesOfMaster, saveRule } from '#server/db/copy-rules-repo.ts';
import { tradedSymbols } from '#server/db/deals-repo.ts';
import { listSymbols } from '#server/db/symbol-map-repo.ts';
import { InvalidRequest, NotFound } from '#server/errors.ts';
import type { Actor } from './relations.ts';

/**
 * A master's copy rule (docs/copying.md 'Copy rules'): the market its followers copy and the pairs
 * they may copy. A master without a stored rule gets one at its first change; a rule that allows
 * nothing yet takes the market of the pairs it is given (else the master's default market).
 */

/**
 * The instruments a rule of this market may allow: the 14 forex pairs and every other Forex
 * instrument known (a metal, an exotic pair); or the equities known. Known: quoted now, traded in the
 * books, or named by a broker's symbol map (an operator mapping AAPL.us → AAPL). The market of each is
 * the instrument classifier's (docs/instruments.md).
 */
export async function ruleUniverse(db: Queryable, market: Market, quoted: readonly string[] = []): Promise<string[]> {
  const mapped = (await listSymbols(db)).map((s) => s.symbol);
  const known = [...quoted, ...(await tradedSymbols(db, market)), ...mapped].filter((s) => categoryOfSymbol(s) === market);
  if (market === 'Forex') return [...new Set([...FOREX_PAIRS, ...[...known].sort()])];
  return [...new Set(known)].sort();
}

export interface SavedRule {
  market_type: Market;
  allowed_pairs: string[];
}

/**
 * Replaces a master's allowed pairs, with its audit row, in one transaction. `defaultMarket` is the
 * market of a master without a rule; `universe` what each market may allow. A follower is no master:
 * 404 as an unknown one.
 */
export async function saveAllowedPairs(
  db: Database,
  actor: Actor,
  master: { id: number; account_id: string },
  defaultMarket: Market,
  requested: readonly string[],
  /** What a market's rule may allow, read in the change's transaction. */
  universe: (q: Queryable, market: Market) => Promise<readonly string[]>,
): Promise<SavedRule> {
  return db.transaction(async (tx) => {
    if (await activeRelationOf(tx, master.id)) throw new NotFound(`Master not found: ${master.account_id}`);
    const stored = await rulesOfMaster(tx, master.id);
    const withPairs = stored.find((r) => r.allowed_pairs.length > 0);
    const allForex = requested.every((p) => categoryOfSymbol(p) === 'Forex');
    const market_type: Market = withPairs?.market_type ?? (requested.length ? (allForex ? 'Forex' : 'Equities') : (stored[0]?.market_type ?? defaultMarket));
    const known = await universe(tx, market_type);
    const unknown = requested.filter((p) => !known.includes(p));
    if (unknown.length) throw new InvalidRequest(`Not ${market_type} instruments: ${unknown.join(', ')}`);
    const allowed_pairs = known.filter((p) => requested.includes(p));
    const before = stored.find((r) => r.market_type === market_type)?.allowed_pairs ?? null;
    await saveRule(tx, { master_id: master.id, market_type, allowed_pairs });
    await actor.audit(tx, 'copy-rules.allowed-pairs', { master_id: master.account_id, market_type, before, after: allowed_pairs, created: before === null });
    return { market_type, allowed_pairs };
  });
}
