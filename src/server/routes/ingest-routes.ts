import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ErrorResponse, MessageResponse } from '#shared/contract/common.ts';
import { CommandAnswer, CommandParams, CommandsQuery, CommandsResponse, IngestAnswer, IngestBatch } from '#shared/contract/ingest.ts';
import { agentOf } from '#server/auth/guard.ts';
import { agentAccounts } from '#server/db/agents-repo.ts';
import { answerCommand, takePending } from '#server/db/commands-repo.ts';
import type { Database } from '#server/db/database.ts';
import { HttpError, notFound } from '#server/http/errors.ts';
import type { AgentChannel } from '#server/broker/agent/agent-broker.ts';
import type { Ingest } from '#server/ingest/ingest.ts';

const errors = { 400: ErrorResponse, 401: ErrorResponse, 403: ErrorResponse, 404: ErrorResponse, 409: ErrorResponse };

/**
 * Ingest API v1 (docs/ingest-api.md): terminal agents push their accounts here and
 * fetch their commands by long poll, with their key in x-agent-key. Agents reach only these routes;
 * users' keys do not open them.
 */
export const ingestRoutes: FastifyPluginAsyncZod<{ db: Database; ingest: Ingest; agents: AgentChannel }> = async (app, { db, ingest, agents }) => {
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
    async (request) => {
      const agent = agentOf(request);
      const answer = await ingest.apply(agent, request.body);
      // Quotes go through the broker's symbol map, like positions and deals.
      await agents.reported(await ingest.quotes(agent, request.body));
      return answer;
    },
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
    async (request) => {
      const agent = agentOf(request);
      const deadline = Date.now() + request.query.wait * 1000;
      const accounts = new Map((await agentAccounts(db, agent.id)).map((a) => [a.id, a]));
      for (;;) {
        const taken = await takePending(db, agent.id, new Date());
        if (taken.length || Date.now() >= deadline || request.raw.socket.destroyed) {
          return {
            commands: taken.map((c) => ({
              id: c.id,
              login: accounts.get(c.account_id)?.account ?? '',
              server: accounts.get(c.account_id)?.server ?? '',
              kind: c.kind,
              payload: c.payload,
              expires_at: c.expires_at.getTime(),
            })),
          };
        }
        // Woken when this process queues a command for the agent; every second otherwise.
        await agents.commandsQueued(agent.id, Math.min(1_000, deadline - Date.now()));
      }
    },
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
    async (request) => {
      const agent = agentOf(request);
      const { state } = request.body;
      const answered = await answerCommand(db, agent.id, request.params.id, state, request.body.message ?? null, new Date());
      if (!answered) throw notFound(`No command ${request.params.id} is awaiting this agent's answer.`);
      const { row, late } = answered;
      await agents.answered(row.id);
      if (late) {
        throw new HttpError(
          409,
          `Command ${row.id} expired at ${row.expires_at.toISOString()}: it cannot be answered '${state}' now (a command past its expiry is not run; answer 'expired').`,
        );
      }
      return { message: `Command ${row.id} recorded as ${state}.` };
    },
  );
};
