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
import { DayEnds } from '#server/books/day-ends.ts';
import { sourcesOf } from '#server/db/accounts-repo.ts';
import { CompositeBroker } from '#server/broker/composite.ts';
import { capabilitiesOf, type AdapterCapabilities, type AdapterFactory, type AdapterInstance } from '#server/broker/factory.ts';
import type { AccountContact, BrokerAdapter } from '#server/broker/port.ts';

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
  /** What each source's adapter can do (its registry entry). */
  capabilities: ReadonlyMap<string, AdapterCapabilities>;
  /** Per account, how it is fed and when its broker was last heard from (any instance answers, from the database). */
  contact(accountIds: readonly number[]): Promise<Map<number, AccountContact>>;
  /** The books of these accounts changed outside their adapters (a statement imported): the adapters feeding them read them again. */
  booksChanged(accountIds: readonly number[]): Promise<void>;
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
  const capabilities = capabilitiesOf(factories);
  const built: [string, AdapterInstance][] = [];
  const booksChanged = async (accountIds: readonly number[]) => {
    const sources = new Set((await sourcesOf(db, accountIds)).values());
    for (const [source, instance] of built) if (sources.has(source)) await instance.booksChanged?.(accountIds);
  };
  for (const factory of factories) {
    const instance = await factory.create({ db, ledger, bus, config, demo: deps.demo, log, seedDemoUsers: deps.seedDemoUsers, capabilities, booksChanged });
    if (instance) built.push([factory.source, instance]);
  }
  const local = new CompositeBroker(built.map(([, i]) => i.adapter));
  const copier = new CopyEngine(db, local, (err) => log.error({ err }, 'copying failed; retried at the next update'), () => changes.bump());
  const market = new ClusterMarket(local, bus, (err) => log.warn({ err }, 'could not publish the snapshot'));
  // An order relayed to the leader waits as long as the slowest adapter waits for its broker, and a little more.
  const answerMs = Math.max(0, ...[...capabilities.values()].map((c) => c.orders?.answerTimeoutMs ?? 0));
  const orders = new ClusterOrders(copier, market, bus, answerMs + 5_000);
  // Back on Redis after losing it: a change another instance saved meanwhile (and could not tell) is
  // read now rather than at the engine's next periodic look.
  bus.onRegained(() => {
    if (copier.applied === null) return;
    Promise.all([copier.reloadRules(), copier.syncBridge()]).catch((err: unknown) => log.error({ err }, 'reading the copy rules and the bridge again failed'));
  });
  // The books' clock: every account's day ends here, whatever its adapter (src/server/books/day-ends.ts).
  const dayEnds = new DayEnds(ledger, () => local.snapshot(), config.market.now, (err) => log.error({ err }, 'a day end failed; retried at the next look'));

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
      await dayEnds.start();
      for (const [, instance] of built) instance.lead?.();
      market.lead();
    },
    lose: () => {
      market.follow();
      for (const [, instance] of built) instance.follow?.();
      dayEnds.stop();
      local.pause();
      copier.stop();
    },
    // Closing while leading: the same, except that the adapters stop rather than pause once the copy
    // engine's work is done, storing what they hold (the market's last quotes and marks) while this
    // process still holds the lock; then it goes.
    stepDown: () => {
      market.follow();
      for (const [, instance] of built) instance.follow?.();
      dayEnds.stop();
      copier.stop();
    },
    settle: async () => {
      await copier.drain();
      await local.stop();
      local.pause();
    },
  });

  return {
    ledger,
    market,
    copier,
    orders,
    adapters: new Map(built.map(([source, i]) => [source, i.adapter])),
    routes: built.flatMap(([, i]) => (i.routes ? [i.routes] : [])),
    capabilities,
    async contact(accountIds) {
      const sources = await sourcesOf(db, accountIds);
      const out = new Map<number, AccountContact>();
      for (const [source, instance] of built) {
        const feed = capabilities.get(source)!.feed;
        const mine = accountIds.filter((id) => sources.get(id) === source);
        if (mine.length === 0) continue;
        const seen = feed === 'simulated' ? undefined : await instance.contact?.(mine);
        for (const id of mine) out.set(id, feed === 'simulated' ? { feed } : { feed, lastSeen: seen?.get(id) ?? null });
      }
      return out;
    },
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
    booksChanged,
    async close() {
      orders.dispose();
      dayEnds.stop();
      for (const [, instance] of built) instance.follow?.();
      await leadership.close();
    },
  };
}
