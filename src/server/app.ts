import Fastify, { type FastifyInstance, type FastifyReply } from 'fastify';
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import type { AppConfig } from './config.ts';
import type { Database } from './db/database.ts';
import { errorHandler } from './http/error-handler.ts';
import { AuthStore } from './auth/auth-store.ts';
import type { Ledger } from './ledger/ledger.ts';
import type { Changes } from './scale/changes.ts';
import type { CopyEngine } from './copy/copy-engine.ts';
import type { BrokerAdapter, SharedMarket } from './broker/port.ts';
import type { AdapterFactory } from './broker/factory.ts';
import { ADAPTERS } from './broker/registry.ts';
import type { LiveHub } from './live/live-hub.ts';
import { registerOpenApi } from './ops/openapi.ts';
import { brokerPlugin } from './plugins/broker.ts';
import { busPlugin } from './plugins/bus.ts';
import { compressPlugin } from './plugins/compress.ts';
import { databasePlugin } from './plugins/database.ts';
import { helmetPlugin } from './plugins/helmet.ts';
import { livePlugin } from './plugins/live.ts';
import { pushPlugin } from './plugins/push.ts';
import { routesPlugin } from './plugins/routes.ts';
import { staticClientPlugin } from './plugins/static-client.ts';
import { websocketPlugin } from './plugins/websocket.ts';
import type { RedisHealth } from '#server/scale/bus.ts';

declare module 'fastify' {
  interface FastifyInstance {
    db: Database;
    config: AppConfig;
    authStore: AuthStore;
    /** The broker connection as every instance sees it (the adapters run on the leader). */
    market: SharedMarket;
    /** The broker adapters that run in this process, by source (src/server/broker/registry.ts). */
    adapters: ReadonlyMap<string, BrokerAdapter>;
    /** This process's copy engine (it copies only while this process leads). */
    copier: CopyEngine;
    ledger: Ledger;
    /** The generation of what cached answers read: bumped by the ledger's commits and the market's updates. */
    changes: Changes;
    hub: LiveHub;
    /** With REDIS_URL: whether this instance reaches Redis. */
    redisState: () => Promise<RedisHealth> | undefined;
    /** Every route registered (method and routed URL pattern): for tests that walk the whole API. */
    routeList: { method: string; url: string }[];
  }
}

const BODY_LIMIT = 1024 * 1024;

export { MarketLockedError } from './plugins/broker-stack.ts';
const UPGRADE_TIMEOUT_MS = 10_000;

/** What the runtime plugins registered so far made, as the next ones' options. */
const core = (app: FastifyInstance) => ({ db: app.db, config: app.config, bus: app.bus, changes: app.changes, authStore: app.authStore });

export interface BuildOptions {
  /** The broker adapters the server runs (default: the registry's, src/server/broker/registry.ts). */
  adapters?: readonly AdapterFactory[];
}

/** Builds the whole server (database, auth, routes, static client) from its plugins (src/server/plugins). Never listens. */
export async function buildApp(config: AppConfig, options: BuildOptions = {}): Promise<FastifyInstance> {
  const app = Fastify({
    logger: {
      level: config.logLevel,
      // Query strings may carry a websocket ticket: never log them.
      serializers: {
        req: (req: { method: string; url: string }) => ({ method: req.method, url: req.url.split('?')[0] }),
      },
    },
    bodyLimit: BODY_LIMIT,
    // Opening and migrating a large database, or loading its market, may take longer than Fastify's 10 s per plugin.
    pluginTimeout: 0,
    // Behind a load balancer (TRUST_PROXY), the client's address comes from X-Forwarded-For as that
    // balancer wrote it; no other sender is believed.
    trustProxy: config.trustProxy?.length ? [...config.trustProxy] : false,
    // A URL the router cannot decode (a bad percent-escape, a parameter too long) gets the API's
    // error shape; if it came as a websocket upgrade, its socket is closed once the answer is out
    // (no hook runs for these, and nothing would read that socket again).
    frameworkErrors: (error, request, reply) => {
      if (request.raw.headers.upgrade !== undefined) reply.raw.once('finish', () => request.raw.socket.destroy());
      const status = error.statusCode && error.statusCode >= 400 && error.statusCode < 500 ? error.statusCode : 400;
      void (reply as unknown as FastifyReply).code(status).header('cache-control', 'no-store').send({ message: error.message });
    },
  }).withTypeProvider<ZodTypeProvider>();
  const routeList: { method: string; url: string }[] = [];
  app.decorate('routeList', routeList);
  app.addHook('onRoute', (route) => {
    for (const method of [route.method].flat()) if (method !== 'HEAD') routeList.push({ method, url: route.url });
  });
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);

  // The runtime parts, in order; one that fails closes what the others opened.
  try {
    await app.register(databasePlugin, { config });
    app.decorate('config', config);
    app.decorate('authStore', new AuthStore(app.db, config.auth));
    await app.register(busPlugin, { config });
    await app.register(brokerPlugin, { ...core(app), factories: options.adapters ?? ADAPTERS });
    await app.register(livePlugin, { ...core(app), market: app.market, feedIntervalMs: config.market.feedIntervalMs, now: config.market.now });
    await app.register(pushPlugin, { db: app.db, config: config.push, market: app.market });
  } catch (err) {
    await app.close();
    throw err;
  }

  app.setErrorHandler(errorHandler);
  await app.register(helmetPlugin);
  await app.register(compressPlugin);
  await registerOpenApi(app);
  // Before the guard (in routesPlugin): see websocketPlugin.
  await app.register(websocketPlugin, { maxPayload: 64 * 1024, upgradeTimeoutMs: UPGRADE_TIMEOUT_MS });
  const runtime = { broker: app.broker, excursions: app.excursions, hub: app.hub, push: app.push, redisState: app.redisState };
  await app.register(routesPlugin, { ...core(app), ...runtime });
  await app.register(staticClientPlugin, { staticDir: config.staticDir });
  return app;
}
