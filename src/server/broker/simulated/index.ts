import type { Database, Queryable } from '#server/db/database.ts';
import { readMarketState } from '#server/db/market-state-repo.ts';
import type { Ledger } from '#server/ledger/ledger.ts';
import type { BrokerAdapter } from '#server/broker/port.ts';
import { generateHistory, hasHistory, type HistoryResult } from './history.ts';
import { SimulatedMarket, type SimulatedMarketOptions } from './simulated-market.ts';

/**
 * The broker adapters the server can run. Today: the simulated market. The rest of the server
 * receives a BrokerAdapter from here and never sees which one it is.
 */
export type SimulatedBrokerOptions = Omit<SimulatedMarketOptions, 'flushEvery'> & { historyMonths: number };

/** Did the simulated market make this database's data (it then runs again after a restart)? */
export async function hasSimulatedData(db: Queryable): Promise<boolean> {
  return (await readMarketState(db, 'history')) !== undefined;
}

/**
 * First start of the simulated market on an empty database: its brokers, accounts and months of
 * history, with `alongside` (the demo users) in the same transaction. null when there was data already.
 */
export async function prepareSimulatedData(
  db: Database,
  options: SimulatedBrokerOptions,
  alongside?: (tx: Queryable) => Promise<void>,
): Promise<HistoryResult | null> {
  if (await hasHistory(db)) return null;
  return generateHistory(db, { seed: options.seed, now: options.now(), months: options.historyMonths }, alongside);
}

export function createSimulatedBroker(db: Database, ledger: Ledger, options: SimulatedBrokerOptions): BrokerAdapter {
  return new SimulatedMarket(db, ledger, { ...options, flushEvery: 3 });
}
