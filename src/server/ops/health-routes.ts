import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { HealthResponse, ReadyResponse } from '#shared/contract/ops.ts';
import type { OpsService } from '#server/services/ops-service.ts';

/** GET /health (liveness) and GET /ready (readiness), public, for load balancers and orchestrators. */
export const healthRoutes: FastifyPluginAsyncZod<{ ops: OpsService }> = async (app, { ops }) => {
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
      const answer = await ops.readiness();
      if (!answer.database.ok) app.log.warn({ message: answer.database.message }, 'readiness: database check failed');
      return reply.status(answer.ready ? 200 : 503).send(answer);
    },
  );
};
