import type { Database, Queryable } from '#server/db/database.ts';
import { readMarketState } from '#server/db/market-state-repo.ts';
import type { Ledger } from '#server/ledger/ledger.ts';
import type { BrokerAdapter } from '#server/broker/port.ts';
import type { AdapterFactory } from '#server/broker/factory.ts';
import { generateHistory, hasHistory, type HistoryResult } from './history.ts';
import { SimulatedMarket, type SimulatedMarketOptions } from './simulated-market.ts';

/** The simulated market's options as the server gives them (it flushes every 3 ticks). */
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

/** The simulated market as a process of its own drives it (`npm run agent -- simulate`): its clock and its masters. */
export type Simulator = SimulatedMarket;

export function createSimulator(db: Database, ledger: Ledger, options: Omit<SimulatedMarketOptions, 'flushEvery'>): Simulator {
  return new SimulatedMarket(db, ledger, { ...options, flushEvery: 3 });
}

/**
 * The simulated market (source 'simulated'): it runs in demo mode and, after a restart, wherever
 * it made the data (unless DEMO=0). On its first start it writes its brokers, accounts and months
 * of history, with the demo users in the same transaction.
 */
export const simulatedAdapter: AdapterFactory = {
  source: 'simulated',
  capabilities: { feed: 'simulated', importsStatements: false, registration: null, orders: { answerTimeoutMs: 0 } },
  async create({ db, ledger, config, demo, log, seedDemoUsers }) {
    const runs = config.demo !== false && (demo || (await hasSimulatedData(db)));
    if (!runs) return null;
    const options = { ...config.market, onError: (err: unknown) => log.error({ err }, 'market tick failed') };
    return {
      adapter: createSimulatedBroker(db, ledger, options),
      async prepare() {
        const started = performance.now();
        // The demo users and the history are written in one transaction: a crash leaves neither.
        const made = await prepareSimulatedData(db, options, demo ? (tx) => seedDemoUsers(tx) : undefined);
        if (made) log.info({ ...made, ms: Math.round(performance.now() - started) }, 'generated the simulated history');
        if (demo) await seedDemoUsers();
      },
    };
  },
};
