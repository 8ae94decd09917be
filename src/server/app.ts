import fs from 'node:fs';
import type { Socket } from 'node:net';
import path from 'node:path';
import zlib from 'node:zlib';
import Fastify, { type FastifyInstance, type FastifyReply } from 'fastify';
import compress from '@fastify/compress';
import helmet from '@fastify/helmet';
import fastifyStatic from '@fastify/static';
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import type { AppConfig } from './config.ts';
import type { Database } from './db/database.ts';
import { openDatabase } from './db/open.ts';
import { errorHandler } from './http/error-handler.ts';
import { HELMET_OPTIONS } from './http/helmet-options.ts';
import { decodeURIComponentSafe } from './http/url.ts';
import { ANSWER_COMPRESSION } from './http/answer-cache.ts';
import { migrate } from './db/migrations.ts';
import { AuthStore } from './auth/auth-store.ts';
import { authGuard } from './auth/guard.ts';
import { authRoutes } from './routes/auth-routes.ts';
import { bridgeRoutes } from './routes/bridge-routes.ts';
import websocket from '@fastify/websocket';
import { accountsRoutes } from './routes/accounts-routes.ts';
import { tradingRoutes } from './routes/trading-routes.ts';
import { rebatesRoutes } from './routes/rebates-routes.ts';
import { copyRoutes } from './routes/copy-routes.ts';
import { liveRoutes, WS_CLOSE } from './routes/live-routes.ts';
import type { Ledger } from './ledger/ledger.ts';
import { Changes } from './scale/changes.ts';
import { LocalBus, RedisBus, type Bus } from './scale/bus.ts';
import type { ClusterMarket } from './scale/cluster-market.ts';
import type { CopyEngine } from './copy/copy-engine.ts';
import type { BrokerAdapter } from './broker/port.ts';
import { ADAPTERS, type AdapterFactory } from './broker/registry.ts';
import { composeBroker } from './broker/compose.ts';
import { channels } from './scale/channels.ts';
import { agentByKeyHash } from './db/agents-repo.ts';
import { hashToken } from './auth/tokens.ts';
import { ExcursionCache } from './live/excursion-cache.ts';
import { LiveHub } from './live/live-hub.ts';
import { registerOpenApi } from './ops/openapi.ts';
import { healthRoutes } from './ops/health-routes.ts';
import { metricsPlugin } from './ops/metrics.ts';
import { auditRoutes } from './ops/audit-routes.ts';
import { clientConfigRoutes } from './routes/client-config-routes.ts';
import { pushRoutes } from './routes/push-routes.ts';
import { PushService } from './push/push-service.ts';
import { PushDispatcher } from './push/dispatcher.ts';
import { DEFAULT_PUSH_SERVICE_ORIGINS } from './push/rules.ts';
import { awaitsDemo, seedDemoUsers, DEMO_USERS } from './demo/demo-users.ts';

declare module 'fastify' {
  interface FastifyInstance {
    db: Database;
    config: AppConfig;
    authStore: AuthStore;
    /** The broker connection as every instance sees it (the adapters run on the leader). */
    market: ClusterMarket;
    /** The broker adapters that run in this process, by source (src/server/broker/registry.ts). */
    adapters: ReadonlyMap<string, BrokerAdapter>;
    /** This process's copy engine (it copies only while this process leads). */
    copier: CopyEngine;
    ledger: Ledger;
    /** The generation of what cached answers read: bumped by the ledger's commits and the market's updates. */
    changes: Changes;
    hub: LiveHub;
    /** With REDIS_URL: whether this instance reaches Redis. */
    redisState: () => { ok: boolean; message?: string } | undefined;
    /** Every route registered (method and routed URL pattern): for tests that walk the whole API. */
    routeList: { method: string; url: string }[];
    /** Web Push: subscriptions and the VAPID identity; the dispatcher posts alerts from the leader. */
    push: PushService;
    pushDispatcher: PushDispatcher;
  }
}

const BODY_LIMIT = 1024 * 1024;

export { MarketLockedError } from './broker/compose.ts';
const SESSION_SWEEP_MS = 500;
const UPGRADE_TIMEOUT_MS = 10_000;

export interface BuildOptions {
  /** The broker adapters the server runs (default: the registry's, src/server/broker/registry.ts). */
  adapters?: readonly AdapterFactory[];
}

/** Builds the whole server (database, auth, routes, static client). Never listens. */
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

  const { db, release } = await openDatabase(config);
  app.addHook('onClose', async () => {
    await db.close();
    release();
  });
  try {
    await migrate(db);
  } catch (err) {
    await app.close();
    throw err;
  }

  const authStore = new AuthStore(db, config.auth);
  app.decorate('db', db);
  app.decorate('config', config);
  app.decorate('authStore', authStore);

  const demo = config.demo ?? (await awaitsDemo(db));
  if (demo) {
    app.log.info(
      { users: DEMO_USERS.map((u) => `${u.username} / ${u.password}`) },
      'demo mode: sign in with one of these users',
    );
  }

  // Messages between instances: Redis when configured (several instances), else in this process.
  const namespace = `ctm:${config.databaseSchema ?? 'public'}`;
  const bus: Bus = config.redisUrl
    ? await RedisBus.connect(config.redisUrl, namespace, (err) => app.log.warn({ err }, 'redis')).catch(async (err: unknown) => {
        await app.close();
        throw err;
      })
    : new LocalBus();
  app.addHook('onClose', async () => bus.close());
  app.decorate('redisState', () =>
    bus instanceof RedisBus ? (bus.client.status === 'ready' ? { ok: true } : { ok: false, message: `Redis connection ${bus.client.status}` }) : undefined,
  );

  // Cached answers are good until anything they read changes, on this instance or another.
  const changes = new Changes();
  if (bus.shared) {
    changes.connect(() => void bus.publish(channels.changes, 0, { remoteOnly: true }).catch(() => undefined));
    bus.subscribe(channels.changes, () => changes.seen());
  }
  const broker = await composeBroker(
    { db, config, bus, changes, demo, log: app.log, seedDemoUsers: (tx) => seedDemoUsers(authStore, tx) },
    options.adapters ?? ADAPTERS,
  ).catch(async (err: unknown) => {
    await app.close();
    throw err;
  });
  const { market, copier, orders, ledger } = broker;
  app.addHook('onClose', () => broker.close());
  try {
    await broker.run();
  } catch (err) {
    await app.close();
    throw err;
  }

  const excursions = new ExcursionCache(db, config.market.now);
  await excursions.refresh(true);
  const hub = new LiveHub(excursions, config.market.feedIntervalMs, Date.now, (err) => app.log.error({ err }, 'a live feed failed'));
  market.onUpdate((snapshot) => {
    changes.seen();
    hub.update(snapshot);
  });
  app.decorate('market', market);
  app.decorate('adapters', broker.adapters);
  app.decorate('copier', copier);
  app.decorate('ledger', ledger);
  app.decorate('changes', changes);
  app.decorate('hub', hub);
  app.addHook('onClose', async () => {
    hub.close();
    copier.stop();
    await market.stop();
  });

  app.setErrorHandler(errorHandler);

  await app.register(helmet, HELMET_OPTIONS);
  // Brotli or gzip for every response over 1 kB (an account's deal history shrinks about tenfold);
  // a fast brotli level, as JSON answers are compressed on every request. The built client ships
  // precompressed (.br, .gz beside each file), served as is below.
  await app.register(compress, {
    encodings: ANSWER_COMPRESSION.encodings,
    threshold: ANSWER_COMPRESSION.threshold,
    brotliOptions: { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: ANSWER_COMPRESSION.brotliQuality } },
  });
  await registerOpenApi(app);
  // Before the guard: its onRequest hook marks upgrade requests, so one the guard refuses (401) has its
  // socket closed after the answer instead of left open. Pings are answered by the live routes under
  // a per-socket budget, not queued by ws without bound.
  await app.register(websocket, { options: { maxPayload: 64 * 1024, autoPong: false } });
  // An upgrade that never becomes a websocket (a URL the router refuses, a route that answers over
  // HTTP) must not keep its socket: ws clears this timeout when a handshake completes, and closing
  // the server ends whatever is left.
  const upgrading = new Set<Socket>();
  app.server.on('upgrade', (_req: unknown, socket: Socket) => {
    upgrading.add(socket);
    socket.setTimeout(UPGRADE_TIMEOUT_MS, () => socket.destroy());
    socket.once('close', () => upgrading.delete(socket));
  });
  app.addHook('onClose', async () => {
    for (const socket of upgrading) socket.destroy();
  });
  await app.register(authGuard, { store: authStore, agents: async (key) => agentByKeyHash(db, hashToken(key)) });
  await app.register(authRoutes, { store: authStore, auth: config.auth, ...(bus instanceof RedisBus ? { redis: { client: bus.client, namespace } } : {}) });
  await app.register(bridgeRoutes, {
    db,
    // The leader reads the bridge's state again whenever it takes over; a lost message is logged.
    onChange: (running) => {
      // The bridge's alert is in the alerts' cached answers.
      changes.bump();
      return orders.setCopying(running).catch((err: unknown) => app.log.warn({ err }, 'the leader did not hear the bridge change'));
    },
  });
  await app.register(accountsRoutes, { db, market, changes });
  await app.register(tradingRoutes, { db, market, copier: orders, excursions, changes });
  await app.register(copyRoutes, { db, market, orders, changes, now: config.market.now });
  await app.register(rebatesRoutes, { db, changes });
  // The adapters' own routes (the terminal agents' ingest API and statement import).
  for (const routes of broker.routes) await app.register(routes);
  await app.register(liveRoutes, { store: authStore, hub, market, allowedOrigins: config.allowedOrigins ?? [] });
  await app.register(healthRoutes);
  await app.register(metricsPlugin);
  await app.register(auditRoutes, { db });
  await app.register(clientConfigRoutes, { settings: config.client });
  const push = new PushService(db, config.push ?? { serviceOrigins: DEFAULT_PUSH_SERVICE_ORIGINS, subject: 'mailto:operator@copy-monitor.invalid' });
  const pushDispatcher = new PushDispatcher(db, push, () => market.isLeader, app.log);
  app.decorate('push', push);
  app.decorate('pushDispatcher', pushDispatcher);
  await app.register(pushRoutes, { push });
  pushDispatcher.start();
  app.addHook('onClose', () => pushDispatcher.stop());
  // A session that ends (sign-out, a disabled user, a new password, expiry) loses its sockets within
  // a second, whichever process ended it: the open sockets' sessions are checked against the database.
  const sweep = setInterval(() => {
    const open = hub.sessions();
    if (open.length === 0) return;
    authStore.liveSessions(open).then(
      (live) => {
        const ended = new Set(open.filter((id) => !live.has(id)));
        if (ended.size) hub.closeSessions(ended, WS_CLOSE.unauthorized, 'Your session has ended. Please sign in again.');
      },
      (err: unknown) => app.log.warn({ err }, 'session sweep failed'),
    );
  }, SESSION_SWEEP_MS);
  sweep.unref();
  app.addHook('onClose', async () => clearInterval(sweep));

  const staticDir = config.staticDir;
  const hasClient = staticDir !== undefined && fs.existsSync(path.join(staticDir, 'index.html'));
  if (hasClient) {
    await app.register(fastifyStatic, {
      root: staticDir,
      index: ['index.html'],
      preCompressed: true,
      // Our own cache policy (send's default 'public, max-age=0' would overwrite it): hashed assets
      // forever, everything else (index.html, sw.js, the manifest) revalidated on every load.
      cacheControl: false,
      setHeaders(res, file) {
        const immutable = file.includes(`${path.sep}assets${path.sep}`);
        res.setHeader('cache-control', immutable ? 'public, max-age=31536000, immutable' : 'no-cache');
        res.setHeader('vary', 'accept-encoding');
      },
    });
  }

  app.setNotFoundHandler((request, reply) => {
    const url = request.url.split('?')[0] ?? '/';
    // A page is a plain path: anything naming the API or the feeds in any spelling (/API/…, //api/…,
    // /%61pi/…) is answered 404 like any unmatched API URL, never with the app's page.
    const plain = decodeURIComponentSafe(url).toLowerCase().replace(/\/{2,}/g, '/');
    const isPage = (request.method === 'GET' || request.method === 'HEAD') && !url.startsWith('//') && !/^\/(api|ws)(\/|$)/.test(plain);
    if (hasClient && isPage && !path.extname(url)) {
      // SPA fallback: the client router draws the route (or its own not-found page).
      return reply.header('cache-control', 'no-cache').sendFile('index.html');
    }
    return reply.status(404).send({ message: `Not found: ${request.method} ${url}` });
  });

  return app;
}
