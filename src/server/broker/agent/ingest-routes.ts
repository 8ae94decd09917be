import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ErrorResponse, MessageResponse } from '#shared/contract/common.ts';
import { CommandAnswer, CommandParams, CommandsQuery, CommandsResponse, IngestAnswer, IngestBatch } from '#shared/contract/ingest.ts';
import { agentOf } from '#server/auth/guard.ts';
import type { IngestService } from './ingest-service.ts';

const errors = { 400: ErrorResponse, 401: ErrorResponse, 403: ErrorResponse, 404: ErrorResponse, 409: ErrorResponse };

/**
 * Ingest API v1 (docs/ingest-api.md): terminal agents push their accounts here and
 * fetch their commands by long poll, with their key in x-agent-key. Agents reach only these routes;
 * users' keys do not open them. IngestService does the work.
 */
export const ingestRoutes: FastifyPluginAsyncZod<{ ingest: IngestService }> = async (app, { ingest }) => {
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
    async (request) => ingest.applyBatch(agentOf(request), request.body),
  );

  app.get(
    '/api/ingest/v1/commands',
    {
      config: { agent: true },
      schema: {
        description: 'Long poll: the commands for the agent\'s accounts (TP/SL edits, closes, copies to open), each handed out once; waits up to `wait` seconds for one.',
        querystring: CommandsQuery,
        response: { 200: CommandsResponse, ...errors },
      },
    },
    async (request) => ingest.takeCommands(agentOf(request), request.query.wait, () => request.raw.socket.destroyed),
  );

  app.post(
    '/api/ingest/v1/commands/:id',
    {
      config: { agent: true },
      schema: {
        description:
          "The terminal's answer to a command it was handed: done, rejected (with its message), not_found or expired. Answered once. " +
          "Past the command's expires_at only 'expired' is taken: any other answer is 409 and the command stays expired.",
        params: CommandParams,
        body: CommandAnswer,
        response: { 200: MessageResponse, ...errors },
      },
    },
    async (request) => ingest.answerCommand(agentOf(request), request.params.id, request.body),
  );
};
