import fp from 'fastify-plugin';
import type { AppConfig } from '#server/config.ts';
import type { AuthStore } from '#server/auth/auth-store.ts';
import { authGuard } from '#server/auth/guard.ts';
import { hashToken } from '#server/auth/tokens.ts';
import type { BrokerStack } from './broker-stack.ts';
import { importRoutes } from '#server/routes/import-routes.ts';
import { ImportService } from '#server/services/import-service.ts';
import { agentByKeyHash } from '#server/db/agents-repo.ts';
import type { Database } from '#server/db/database.ts';
import { idempotency } from '#server/http/idempotency.ts';
import type { ExcursionCache } from '#server/live/excursion-cache.ts';
import type { LiveHub } from '#server/live/live-hub.ts';
import { auditRoutes } from '#server/ops/audit-routes.ts';
import { healthRoutes } from '#server/ops/health-routes.ts';
import { metricsPlugin } from '#server/ops/metrics.ts';
import { accountsRoutes } from '#server/routes/accounts-routes.ts';
import { analysisRoutes } from '#server/routes/analysis-routes.ts';
import { authRoutes } from '#server/routes/auth-routes.ts';
import { bridgeRoutes } from '#server/routes/bridge-routes.ts';
import { clientConfigRoutes } from '#server/routes/client-config-routes.ts';
import { copyRoutes } from '#server/routes/copy-routes.ts';
import { feesRoutes } from '#server/routes/fees-routes.ts';
import { liveRoutes } from '#server/routes/live-routes.ts';
import { pushRoutes } from '#server/routes/push-routes.ts';
import { rebatesRoutes } from '#server/routes/rebates-routes.ts';
import { tradingRoutes } from '#server/routes/trading-routes.ts';
import { RedisBus, type Bus } from '#server/scale/bus.ts';
import type { Changes } from '#server/scale/changes.ts';
import { AccountsService } from '#server/services/accounts-service.ts';
import { AnalysisService } from '#server/services/analysis-service.ts';
import { AuthService } from '#server/services/auth-service.ts';
import { BridgeService } from '#server/services/bridge-service.ts';
import { CopyService } from '#server/services/copy-service.ts';
import { FeesService } from '#server/services/fees-service.ts';
import { LiveService } from '#server/services/live-service.ts';
import { OpsService } from '#server/services/ops-service.ts';
import type { PushService } from '#server/services/push-service.ts';
import { RebatesService } from '#server/services/rebates-service.ts';
import { TradingService } from '#server/services/trading-service.ts';
import { busNamespace } from './bus.ts';
import type { RedisHealth } from '#server/scale/bus.ts';

export interface RoutesOptions {
  config: AppConfig;
  db: Database;
  authStore: AuthStore;
  bus: Bus;
  changes: Changes;
  broker: BrokerStack;
  excursions: ExcursionCache;
  hub: LiveHub;
  push: PushService;
  redisState: () => Promise<RedisHealth> | undefined;
}

/**
 * The auth guard, then every route: each feature's services are built here from the runtime parts
 * and handed to its routes, which only validate, call one service function and answer. Register it
 * after the websocket plugin (the guard marks upgrade requests) and before the static client.
 */
export const routesPlugin = fp<RoutesOptions>(
  async (app, { config, db, authStore, bus, changes, broker, excursions, hub, push, redisState }) => {
    const { market, orders } = broker;
    await app.register(authGuard, { store: authStore, agents: async (key) => agentByKeyHash(db, hashToken(key)) });
    const redis = bus instanceof RedisBus ? { redis: { client: bus.client, namespace: busNamespace(config) } } : {};
    await app.register(authRoutes, { auth: new AuthService({ store: authStore, auth: config.auth, ...redis }) });
    const bridge = new BridgeService({ db, changes, copying: orders });
    await app.register(bridgeRoutes, { bridge });
    const idempotent = idempotency(db);
    await app.register(accountsRoutes, { accounts: new AccountsService(db, market, (source) => broker.capabilities.get(source)?.feed ?? 'terminal'), changes });
    await app.register(tradingRoutes, { trading: new TradingService({ db, market, copier: orders, excursions, changes }), idempotent, changes });
    await app.register(copyRoutes, { copy: new CopyService({ db, market, orders, changes, contactOf: (ids) => broker.contact(ids), now: config.market.now }), idempotent, changes });
    await app.register(rebatesRoutes, { rebates: new RebatesService(db), changes });
    await app.register(analysisRoutes, { analysis: new AnalysisService(db), changes });
    await app.register(feesRoutes, { fees: new FeesService(db, market, changes, config.market.now), idempotent });
    await app.register(importRoutes, {
      imports: new ImportService({
        db,
        ledger: broker.ledger,
        sources: (source) => broker.capabilities.get(source),
        booksChanged: (ids) => broker.booksChanged(ids),
        now: config.market.now,
      }),
    });
    // The adapters' own routes (the terminal agents' ingest API).
    for (const routes of broker.routes) await app.register(routes);
    await app.register(liveRoutes, { store: authStore, live: new LiveService(hub, market), allowedOrigins: config.allowedOrigins ?? [] });
    const ops = new OpsService({ db, market, redisState });
    await app.register(healthRoutes, { ops });
    await app.register(metricsPlugin, { hub, market, bridge, copier: broker.copier, ops });
    await app.register(auditRoutes, { ops });
    await app.register(clientConfigRoutes, { settings: config.client });
    await app.register(pushRoutes, { push });
  },
  { name: 'routes' },
);
