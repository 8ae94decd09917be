import fp from 'fastify-plugin';
import type { AppConfig } from '#server/config.ts';
import type { AuthStore } from '#server/auth/auth-store.ts';
import type { AdapterFactory } from '#server/broker/factory.ts';
import type { Database } from '#server/db/database.ts';
import { awaitsDemo, DEMO_USERS, seedDemoUsers } from '#server/demo/demo-users.ts';
import type { Bus } from '#server/scale/bus.ts';
import type { Changes } from '#server/scale/changes.ts';
import { composeBroker, type BrokerStack } from './broker-stack.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** The broker side as composed (broker-stack.ts): its orders and the adapters' own routes besides what app.market etc. name. */
    broker: BrokerStack;
  }
}

export interface BrokerPluginOptions {
  db: Database;
  config: AppConfig;
  bus: Bus;
  changes: Changes;
  authStore: AuthStore;
  /** The broker adapters the server runs. */
  factories: readonly AdapterFactory[];
}

/**
 * The broker side (`app.broker`, `app.market`, `app.adapters`, `app.copier`, `app.ledger`): the
 * adapters, the market every instance sees, the copy engine; run here, or standing by while
 * another instance runs it. Demo mode (DEMO, or a database that awaits its demo) seeds its users.
 */
export const brokerPlugin = fp<BrokerPluginOptions>(
  async (app, { db, config, bus, changes, authStore, factories }) => {
    const demo = config.demo ?? (await awaitsDemo(db));
    if (demo) {
      app.log.info(
        { users: DEMO_USERS.map((u) => `${u.username} / ${u.password}`) },
        'demo mode: sign in with one of these users',
      );
    }
    const broker = await composeBroker({ db, config, bus, changes, demo, log: app.log, seedDemoUsers: (tx) => seedDemoUsers(authStore, tx) }, factories);
    // Shutting down: the lead stops and the lock goes first, while the pool still serves the work
    // under way (preClose runs before any onClose, the database's included); then nothing starts here.
    app.addHook('preClose', () => broker.close());
    await broker.run();
    const { market, copier } = broker;
    app.addHook('onClose', async () => {
      copier.stop();
      await market.stop();
    });
    app.decorate('broker', broker);
    app.decorate('market', market);
    app.decorate('adapters', broker.adapters);
    app.decorate('copier', copier);
    app.decorate('ledger', broker.ledger);
  },
  { name: 'broker' },
);
