import type { FastifyBaseLogger, FastifyPluginAsync } from 'fastify';
import type { AppConfig } from '#server/config.ts';
import { CopyEngine } from '#server/copy/copy-engine.ts';
import { accountSources } from '#server/db/accounts-repo.ts';
import type { Database, Queryable } from '#server/db/database.ts';
import { booksStore } from '#server/db/books-store.ts';
import { Ledger } from '#server/ledger/ledger.ts';
import type { Bus } from '#server/scale/bus.ts';
import type { Changes } from '#server/scale/changes.ts';
import { ClusterMarket } from '#server/scale/cluster-market.ts';
import { ClusterOrders } from '#server/scale/cluster-orders.ts';
import { Leadership } from '#server/scale/leadership.ts';
import { COMMAND_ANSWER_TIMEOUT_MS } from './agent/index.ts';
import { CompositeBroker } from './composite.ts';
import type { BrokerAdapter } from './port.ts';
import type { AdapterFactory, AdapterInstance } from './registry.ts';

/** A second process on a PostgreSQL database whose market another process runs. */
export class MarketLockedError extends Error {}

const MARKET_LOCK = 'simulated-market';
const MARKET_RELOCK_MS = 2_000;

export interface ComposeDeps {
  db: Database;
  config: AppConfig;
  bus: Bus;
  changes: Changes;
  demo: boolean;
  log: FastifyBaseLogger;
  seedDemoUsers: (tx?: Queryable) => Promise<void>;
}

/** The broker side of the server, built once: the adapters, the market every instance sees, the copy engine, its orders. */
export interface BrokerStack {
  ledger: Ledger;
  market: ClusterMarket;
  copier: CopyEngine;
  orders: ClusterOrders;
  /** The adapters that run, by source. */
  adapters: ReadonlyMap<string, BrokerAdapter>;
  /** The adapters' own routes. */
  routes: FastifyPluginAsync[];
  /** Runs the market here, or stands by while another instance runs it. */
  run(): Promise<void>;
  /** Stops leading and waiting for answers (the server closes). */
  close(): Promise<void>;
}

/**
 * Builds the adapters of the registry (or the ones given) and what runs over them. Every account's
 * source must be one of theirs: an account no adapter feeds would be silently left out.
 */
export async function composeBroker(deps: ComposeDeps, factories: readonly AdapterFactory[]): Promise<BrokerStack> {
  const { db, config, bus, changes, log } = deps;
  const known = new Set(factories.map((f) => f.source));
  const unknown = (await accountSources(db)).filter((s) => !known.has(s));
  if (unknown.length) {
    throw new Error(`Accounts of source ${unknown.map((s) => `'${s}'`).join(', ')} have no broker adapter (known: ${[...known].join(', ')}).`);
  }
  const ledger = new Ledger(booksStore(db), () => changes.bump(), () => Math.floor(config.market.now() / 1000));
  const built: [string, AdapterInstance][] = [];
  for (const factory of factories) {
    const instance = await factory.create({ db, ledger, bus, config, demo: deps.demo, log, seedDemoUsers: deps.seedDemoUsers });
    if (instance) built.push([factory.source, instance]);
  }
  const local = new CompositeBroker(built.map(([, i]) => i.adapter));
  const copier = new CopyEngine(db, local, (err) => log.error({ err }, 'copying failed; retried at the next update'), () => changes.bump());
  const market = new ClusterMarket(local, bus, (err) => log.warn({ err }, 'could not publish the snapshot'));
  const orders = new ClusterOrders(copier, market, bus, COMMAND_ANSWER_TIMEOUT_MS + 5_000);

  // Exactly one process runs the market and the copy engine on a database (two would close the same
  // positions twice): the holder of an advisory lock. The others serve what it publishes and try the
  // lock every MARKET_RELOCK_MS; if the leader dies, one of them reloads the market from the database
  // and goes on. If the lock's connection dies, this process pauses the market (no tick, orders
  // refused with MarketPaused) until it holds the lock again.
  const leadership = new Leadership(db, MARKET_LOCK, MARKET_RELOCK_MS, {
    log,
    lead: async (first) => {
      if (first) {
        for (const [, instance] of built) await instance.prepare?.();
        // The copy engine follows the market's trades from its first one (the first start's open trades).
        await copier.start();
        await local.start();
      } else {
        await local.resume();
        // The bridge may have been switched, or the rules changed, by another process meanwhile.
        await copier.start();
      }
      market.lead();
    },
    lose: () => {
      market.follow();
      local.pause();
      copier.stop();
    },
  });

  return {
    ledger,
    market,
    copier,
    orders,
    adapters: new Map(built.map(([source, i]) => [source, i.adapter])),
    routes: built.flatMap(([, i]) => (i.routes ? [i.routes] : [])),
    async run() {
      if (!(await leadership.attempt())) {
        if (!bus.shared) {
          throw new MarketLockedError(
            'Another server process already runs the market on this PostgreSQL database' +
              (config.databaseSchema ? ` (schema ${config.databaseSchema})` : '') +
              '. Only one may run it without Redis: stop the other one, point this one at another database or DATABASE_SCHEMA, ' +
              'or set REDIS_URL on every instance to run several (docs/operations.md, "Running at scale").',
          );
        }
        log.info('another instance runs the market: this one serves what it publishes and stands by to take over');
        leadership.campaign();
      }
      // A new follower asks the leader for its snapshot rather than wait for the next tick.
      if (!market.isLeader) await market.greet();
    },
    async close() {
      orders.dispose();
      await leadership.close();
    },
  };
}
