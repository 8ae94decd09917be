import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ErrorResponse } from '#shared/contract/common.ts';
import { IngestAnswer, IngestBatch } from '#shared/contract/ingest.ts';
import { agentOf } from '#server/auth/guard.ts';
import type { Ingest } from '#server/ingest/ingest.ts';

const errors = { 400: ErrorResponse, 401: ErrorResponse, 403: ErrorResponse, 409: ErrorResponse };

/**
 * Ingest API v1 (README 'Connecting real accounts'): terminal agents push their accounts here with
 * their key in x-agent-key. Agents reach only these routes; users' keys do not open them.
 */
export const ingestRoutes: FastifyPluginAsyncZod<{ ingest: Ingest }> = async (app, { ingest }) => {
  app.post(
    '/api/ingest/v1/batches',
    {
      config: { agent: true },
      schema: {
        description:
          'A batch of an agent session: account states, positions (a full snapshot or changes), pages of deals (at most 500) and quotes. ' +
          'Answers the sequence applied, whether to resync (a gap: start a new session with a full snapshot), and where to resume deal history.',
        body: IngestBatch,
        response: { 200: IngestAnswer, ...errors },
      },
    },
    async (request) => ingest.apply(agentOf(request), request.body),
  );
};
