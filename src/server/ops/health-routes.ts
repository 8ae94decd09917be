import type { FastifyInstance } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { HealthResponse, ReadyResponse } from '#shared/contract/ops.ts';
import { checkDatabase } from '#server/db/health-repo.ts';

/** Whether this process runs the market (it holds the leader's lock), and why not. */
function marketState(app: FastifyInstance): { running: boolean; reason?: string } {
  if (app.market.isLeader) return { running: true };
  return { running: false, reason: 'another instance runs the market (this one serves what it publishes and stands by)' };
}

/** GET /health (liveness) and GET /ready (readiness), public, for load balancers and orchestrators. */
export const healthRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/health',
    {
      config: { public: true },
      schema: { description: 'Liveness: 200 while the process runs.', response: { 200: HealthResponse } },
    },
    async () => ({ status: 'ok' as const }),
  );

  app.get(
    '/ready',
    {
      config: { public: true },
      schema: {
        description: 'Readiness: 200 when the database answers SELECT 1 within 2 s, 503 otherwise.',
        response: { 200: ReadyResponse, 503: ReadyResponse },
      },
    },
    async (_request, reply) => {
      const database = await checkDatabase(app.db);
      if (!database.ok) app.log.warn({ message: database.message }, 'readiness: database check failed');
      // The market is reported, not required: without it the server still serves the stored data
      // (accounts, history, NAV), and a market run by another process is not this one's to wait for.
      const ready = database.ok;
      const redis = app.redisState();
      return reply
        .status(ready ? 200 : 503)
        .send({ ready, database: { ...database, kind: app.db.kind }, market: marketState(app), ...(redis ? { redis } : {}) });
    },
  );
};
