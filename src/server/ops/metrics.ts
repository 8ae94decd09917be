import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import { z } from 'zod';
import type { CopyEngine } from '#server/copy/copy-engine.ts';
import type { LiveHub } from '#server/live/live-hub.ts';
import type { BridgeService } from '#server/services/bridge-service.ts';
import type { OpsService } from '#server/services/ops-service.ts';

export interface MetricsOptions {
  /** The live feeds' sockets and broadcasts. */
  hub: LiveHub;
  /** The market's ticks (0 without a market in this process). */
  market: { readonly ticks: number } | null;
  /** The bridge's state as stored. */
  bridge: Pick<BridgeService, 'status'>;
  /** The bridge's state as this process's copy engine applies it (null: the engine does not run here). */
  copier: Pick<CopyEngine, 'applied'>;
  /** The database pool. */
  ops: Pick<OpsService, 'poolStats'>;
}

/** The route label of a request: its routed pattern, never the raw URL (bounded label values). */
const UNMATCHED = 'unmatched';

/**
 * GET /metrics in the Prometheus text format, from a registry of this app's own (tests build many
 * apps in one process; the global default registry would mix them and refuse duplicate names).
 */
export const metricsPlugin = fp(
  async (instance: FastifyInstance, { hub, market, bridge, copier, ops }: MetricsOptions) => {
    const app = instance.withTypeProvider<ZodTypeProvider>();
    const register = new Registry();
    collectDefaultMetrics({ register });

    const requests = new Counter({
      name: 'http_requests_total',
      help: 'HTTP requests answered, by method, routed pattern and status code',
      labelNames: ['method', 'route', 'status_code'] as const,
      registers: [register],
    });
    const duration = new Histogram({
      name: 'http_request_duration_seconds',
      help: 'Time to answer an HTTP request, by method and routed pattern',
      labelNames: ['method', 'route'] as const,
      registers: [register],
    });
    app.addHook('onResponse', async (request, reply) => {
      const route = request.routeOptions.url ?? UNMATCHED;
      requests.inc({ method: request.method, route, status_code: String(reply.statusCode) });
      duration.observe({ method: request.method, route }, reply.elapsedTime / 1000);
    });

    // Read at scrape time from the objects that own the figures.
    new Gauge({
      name: 'ws_open_sockets',
      help: 'Open live-feed websockets',
      registers: [register],
      collect() {
        this.set(hub.socketCount);
      },
    });
    new Counter({
      name: 'ws_snapshots_sent_total',
      help: 'Snapshot messages written to live-feed websockets since start',
      registers: [register],
      collect() {
        this.reset();
        this.inc(hub.snapshotsSent);
      },
    });
    // Like prom-client's nodejs_eventloop_lag_p*_seconds (the event loop's delay): over the broadcasts
    // since the last scrape, read from the hub's histograms and reset.
    const fanoutGauge = (name: string, help: string, histogram: 'spread' | 'duration') =>
      new Gauge({
        name,
        help,
        labelNames: ['quantile'] as const,
        registers: [register],
        collect() {
          const h = hub.fanout[histogram];
          this.reset();
          if (h.count > 0) {
            this.set({ quantile: '0.5' }, h.percentile(50) / 1e9);
            this.set({ quantile: '0.99' }, h.percentile(99) / 1e9);
            this.set({ quantile: '1' }, h.max / 1e9);
          }
          h.reset();
        },
      });
    fanoutGauge(
      'ws_fanout_spread_seconds',
      'One snapshot broadcast from its first socket write to its last, over the broadcasts since the last scrape (quantiles)',
      'spread',
    );
    fanoutGauge(
      'ws_fanout_duration_seconds',
      "One snapshot broadcast from its start (the feeds' computation included) to its last socket write, since the last scrape (quantiles)",
      'duration',
    );
    new Counter({
      name: 'market_ticks_total',
      help: 'Ticks of the simulated market since start (0 without a market in this process)',
      registers: [register],
      collect() {
        this.reset();
        this.inc(market?.ticks ?? 0);
      },
    });
    new Gauge({
      name: 'bridge_running',
      help: 'The data bridge is on (1) or off (0), as stored in the database; NaN when it cannot be read',
      registers: [register],
      async collect() {
        try {
          this.set((await bridge.status()).running ? 1 : 0);
        } catch (err) {
          app.log.warn({ err }, 'metrics: cannot read the bridge state');
          this.set(Number.NaN);
        }
      },
    });
    new Gauge({
      name: 'copy_engine_copying',
      help: "1 while this instance's copy engine copies (it leads and the bridge is on, as it applied it); 0 while it applies a stopped bridge, and on an instance that does not lead",
      registers: [register],
      collect() {
        this.set(copier.applied === 'copying' ? 1 : 0);
      },
    });
    new Gauge({
      name: 'db_pool_clients',
      help: 'PostgreSQL pool: connections open (total), idle, and queries waiting for one (absent on PGlite)',
      labelNames: ['state'] as const,
      registers: [register],
      collect() {
        const stats = ops.poolStats();
        this.reset();
        if (!stats) return;
        this.set({ state: 'total' }, stats.total);
        this.set({ state: 'idle' }, stats.idle);
        this.set({ state: 'waiting' }, stats.waiting);
      },
    });

    app.get(
      '/metrics',
      {
        config: { public: true },
        schema: {
          description: 'Prometheus metrics of this process (text exposition format).',
          response: {
            200: { description: 'Prometheus text format', content: { 'text/plain': { schema: z.string() } } },
          },
        },
      },
      async (_request, reply) => {
        const text = await register.metrics();
        return reply.type(register.contentType).send(text);
      },
    );

    app.addHook('onClose', async () => register.clear());
  },
  { name: 'ops-metrics' },
);
