import type { FastifyBaseLogger, FastifyPluginAsync } from 'fastify';
import type { AppConfig } from '#server/config.ts';
import type { Database, Queryable } from '#server/db/database.ts';
import type { Ledger } from '#server/ledger/ledger.ts';
import type { Bus } from '#server/scale/bus.ts';
import type { AccountContact, BrokerAdapter } from './port.ts';

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
  /** What every source's adapter declares (to book a statement file of several accounts into each). */
  capabilities: ReadonlyMap<string, AdapterCapabilities>;
  /** Tells the adapters feeding these accounts that their books changed (any adapter's accounts). */
  booksChanged: (accountIds: readonly number[]) => Promise<void>;
}

/**
 * What an adapter can do, declared in its registry entry: the admin CLI, the statement import, bridge
 * health and the order relay read these, never the adapter's name.
 */
export interface AdapterCapabilities {
  /**
   * How its accounts are fed: `simulated` (its own market), `terminal` (programs that report live
   * and say when they last did: AdapterInstance.contact), `statement` (the broker's statements,
   * fetched or imported: AdapterInstance.contact tells when the last one was booked).
   */
  feed: AccountContact['feed'];
  /** Statement files import into its accounts (any format the statement readers know: src/shared/statements/readers.ts). */
  importsStatements: boolean;
  /**
   * Operators register its accounts with `npm run admin -- account add --source <source>`; `server` is
   * what its accounts hold as their trading server when none is given (null: it must be given).
   */
  registration: { server: string | null } | null;
  /** It takes orders (copies, closes, TP/SL), each waiting this long for the broker's answer; null: it refuses them (NotTradable). */
  orders: { answerTimeoutMs: number } | null;
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
  /**
   * When the broker was last heard from for each of these accounts it feeds (epoch seconds; null:
   * never), read from the database so that any instance can answer: a terminal's last report, the
   * last statement booked. Adapters whose feed is `simulated` have none.
   */
  contact?(accountIds: readonly number[]): Promise<Map<number, number | null>>;
  /** The books of some of its accounts changed outside it (a statement imported): its snapshot is read again, wherever the market runs. */
  booksChanged?(accountIds: readonly number[]): Promise<void>;
  /** Runs when this process starts leading (after the adapters started), and stops when it stops: the adapter's own schedule (a daily fetch). */
  lead?(): void;
  follow?(): void;
}

/**
 * A kind of broker connection the server can run: `source` is what the accounts it feeds hold in
 * accounts.source. `create` answers null when it does not run in this installation.
 */
export interface AdapterFactory {
  source: string;
  capabilities: AdapterCapabilities;
  create(deps: AdapterDeps): Promise<AdapterInstance | null>;
}

/** The capabilities of each source the registry (or the given list) knows. */
export const capabilitiesOf = (factories: readonly AdapterFactory[]): ReadonlyMap<string, AdapterCapabilities> =>
  new Map(factories.map((f) => [f.source, f.capabilities]));
