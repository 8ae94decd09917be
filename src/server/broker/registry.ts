import type { FastifyBaseLogger, FastifyPluginAsync } from 'fastify';
import type { AppConfig } from '#server/config.ts';
import type { Database, Queryable } from '#server/db/database.ts';
import type { Ledger } from '#server/ledger/ledger.ts';
import type { Bus } from '#server/scale/bus.ts';
import { agentAdapter } from './agent/index.ts';
import type { BrokerAdapter } from './port.ts';
import { simulatedAdapter } from './simulated/index.ts';

/** What an adapter may use to build itself: the server's shared pieces. */
export interface AdapterDeps {
  db: Database;
  ledger: Ledger;
  /** Messages between the installation's instances (in memory with one instance). */
  bus: Bus;
  config: AppConfig;
  /** Demo mode: the demo users are made with the first data. */
  demo: boolean;
  log: FastifyBaseLogger;
  /** Writes the demo users (in the given transaction, when one is given). */
  seedDemoUsers: (tx?: Queryable) => Promise<void>;
}

/** One adapter built for this server. */
export interface AdapterInstance {
  adapter: BrokerAdapter;
  /**
   * Runs once, when this process first runs the market, before the adapter starts (the simulated
   * market's first data on an empty database).
   */
  prepare?(): Promise<void>;
  /** Routes the adapter serves (the terminal agents' ingest API), registered behind the auth guard. */
  routes?: FastifyPluginAsync;
}

/**
 * A kind of broker connection the server can run: `source` is what the accounts it feeds hold in
 * accounts.source. `create` answers null when it does not run in this installation.
 */
export interface AdapterFactory {
  source: string;
  create(deps: AdapterDeps): Promise<AdapterInstance | null>;
}

/**
 * The adapters the server runs, in order: the first one's rates and instruments win where two
 * report the same (the simulated market's over a terminal's partial quotes). To add one, add its
 * folder under src/server/broker/ and its line here (docs/architecture.md, "How to add an adapter").
 */
export const ADAPTERS: readonly AdapterFactory[] = [simulatedAdapter, agentAdapter];
